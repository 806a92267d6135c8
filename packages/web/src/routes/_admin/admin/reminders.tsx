import { createFileRoute } from '@tanstack/react-router';
import { RemindersPage } from '@/components/admin/reminders-page';

export const Route = createFileRoute('/_admin/admin/reminders')({
  component: RemindersPage,
});
