import { createFileRoute } from '@tanstack/react-router';
import { preload, queries } from '@/lib/queries';
import { Loading } from '@/components/layout/page-states';
import { Elect } from '@/components/voter/elect-page';

export const Route = createFileRoute('/_voter/voter/elect')({
  // The ballot needs the ballot, the switch and the voter's receipts before it makes sense.
  loader: ({ context: { queryClient }, cause }) =>
    Promise.all([
      preload(queryClient, queries.ballot(), cause),
      preload(queryClient, queries.electionStatus(), cause),
      preload(queryClient, queries.myVvpat(), cause),
    ]),
  pendingComponent: () => <Loading />,
  component: Elect,
});
