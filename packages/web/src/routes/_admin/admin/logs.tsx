import { createFileRoute } from '@tanstack/react-router';
import { LogsPage } from '@/components/admin/logs-page';

export const Route = createFileRoute('/_admin/admin/logs')({
  component: LogsPage,
});
