import { createFileRoute } from '@tanstack/react-router';
import { ElectionsPage } from '@/components/admin/elections/elections-page';

export const Route = createFileRoute('/_admin/admin/elections')({
  component: ElectionsPage,
});
