import { createFileRoute } from '@tanstack/react-router';
import { ElectionsPage } from '@/components/public/elections-page';
import { preload, queries } from '@/lib/queries';

export const Route = createFileRoute('/elections')({
  loader: ({ context: { queryClient }, cause }) => preload(queryClient, queries.elections(), cause),
  component: ElectionsPage,
});
