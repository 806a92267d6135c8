import { createFileRoute } from '@tanstack/react-router';
import { Loading } from '@/components/layout/page-states';
import { IssuesPage } from '@/components/admin/issues-page';
import { issuesSearch } from '@/lib/list-search';
import { preload, queries } from '@/lib/queries';

export const Route = createFileRoute('/_admin/admin/issues')({
  // Page and filters live in the URL (lib/list-search.ts): a reload or a shared link keeps them.
  validateSearch: issuesSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps, cause }) => preload(context.queryClient, queries.issues(deps), cause),
  pendingComponent: () => <Loading />,
  component: IssuesPage,
});
