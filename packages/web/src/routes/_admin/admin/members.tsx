import { createFileRoute } from '@tanstack/react-router';
import { Loading } from '@/components/layout/page-states';
import { MembersPage } from '@/components/admin/members-page';
import { membersSearch } from '@/lib/list-search';
import { preload, queries } from '@/lib/queries';

export const Route = createFileRoute('/_admin/admin/members')({
  // Page and filters live in the URL (lib/list-search.ts): a reload or a shared link keeps them.
  validateSearch: membersSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps, cause }) => preload(context.queryClient, queries.members(deps), cause),
  pendingComponent: () => <Loading />,
  component: MembersPage,
});
