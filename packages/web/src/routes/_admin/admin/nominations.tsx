import { createFileRoute } from '@tanstack/react-router';
import { NominationsPage } from '@/components/admin/nominations-page';

export const Route = createFileRoute('/_admin/admin/nominations')({
  component: NominationsPage,
});
