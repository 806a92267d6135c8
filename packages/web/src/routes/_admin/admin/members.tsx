import { createFileRoute } from '@tanstack/react-router';
import { MembersPage } from '@/components/admin/members-page';

export const Route = createFileRoute('/_admin/admin/members')({
  component: MembersPage,
});
