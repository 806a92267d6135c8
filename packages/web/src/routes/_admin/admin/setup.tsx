import { createFileRoute } from '@tanstack/react-router';
import { SetupPage } from '@/components/admin/setup-page';

export const Route = createFileRoute('/_admin/admin/setup')({
  component: SetupPage,
});
