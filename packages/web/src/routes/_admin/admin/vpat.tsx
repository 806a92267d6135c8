import { createFileRoute } from '@tanstack/react-router';
import { Loading } from '@/components/layout/page-states';
import { VvpatPage } from '@/components/admin/vvpat-page';
import { vvpatSearch } from '@/lib/list-search';
import { preload, queries } from '@/lib/queries';

export const Route = createFileRoute('/_admin/admin/vpat')({
  // Page and filters live in the URL (lib/list-search.ts): a reload or a shared link keeps them.
  validateSearch: vvpatSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps, cause }) => preload(context.queryClient, queries.vvpat(deps), cause),
  pendingComponent: () => <Loading />,
  component: VvpatPage,
});
