import { createFileRoute } from '@tanstack/react-router';
import { IssuesPage } from '@/components/admin/issues-page';

export const Route = createFileRoute('/_admin/admin/issues')({
  component: IssuesPage,
});
