import { createFileRoute } from '@tanstack/react-router';
import { Loading } from '@/components/layout/page-states';
import { VvpatPage } from '@/components/admin/vvpat-page';
import { withElectionSearch } from '@/lib/election-search';
import { vvpatSearch } from '@/lib/list-search';
import { preload, queries } from '@/lib/queries';

export const Route = createFileRoute('/_admin/admin/vpat')({
  // Page, filters and election live in the URL (lib/list-search.ts, lib/election-search.ts): a reload or a shared link keeps them.
  validateSearch: withElectionSearch(vvpatSearch),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps: { election, ...list }, cause }) => preload(context.queryClient, queries.vvpat(list, election), cause),
  pendingComponent: () => <Loading />,
  component: VvpatPage,
});
