import { createFileRoute } from '@tanstack/react-router';
import { CandidatesPage } from '@/components/admin/candidates-page';
import { Loading } from '@/components/layout/page-states';
import { preload, queries } from '@/lib/queries';

export const Route = createFileRoute('/_admin/admin/candidates')({
  // The election is the root route's `?election=N` (lib/election-search.ts), else the current one.
  loaderDeps: ({ search: { election } }) => ({ election }),
  loader: ({ context, deps: { election }, cause }) => preload(context.queryClient, queries.candidates(election), cause),
  pendingComponent: () => <Loading />,
  component: CandidatesPage,
});
