import { createFileRoute } from '@tanstack/react-router';
import { preload, queries } from '@/lib/queries';
import { Loading } from '@/components/layout/page-states';
import { VoterVvpat } from '@/components/voter/vvpat-page';

export const Route = createFileRoute('/_voter/voter/vpat')({
  loader: ({ context, cause }) => preload(context.queryClient, queries.myVvpat(), cause),
  pendingComponent: () => <Loading />,
  component: VoterVvpat,
});
