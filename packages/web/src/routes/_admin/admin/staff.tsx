import { createFileRoute } from '@tanstack/react-router';
import { Loading } from '@/components/layout/page-states';
import { StaffPage } from '@/components/admin/staff/staff-page';
import { preload, queries } from '@/lib/queries';

export const Route = createFileRoute('/_admin/admin/staff')({
  loader: ({ context, cause }) => preload(context.queryClient, queries.staff(), cause),
  pendingComponent: () => <Loading />,
  component: StaffPage,
});
