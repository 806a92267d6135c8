import { createFileRoute } from '@tanstack/react-router';
import { CandidatesPage } from '@/components/admin/candidates-page';
import { Loading } from '@/components/layout/page-states';
import { preload, queries } from '@/lib/queries';

export const Route = createFileRoute('/_admin/admin/candidates')({
  loader: ({ context, cause }) => preload(context.queryClient, queries.candidates(), cause),
  pendingComponent: () => <Loading />,
  component: CandidatesPage,
});
