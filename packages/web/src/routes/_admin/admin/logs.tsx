import { createFileRoute } from '@tanstack/react-router';
import { Loading } from '@/components/layout/page-states';
import { LogsPage } from '@/components/admin/logs-page';
import { logsSearch } from '@/lib/list-search';
import { preload, queries } from '@/lib/queries';

export const Route = createFileRoute('/_admin/admin/logs')({
  // Page and filters live in the URL (lib/list-search.ts): a reload or a shared link keeps them.
  validateSearch: logsSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps, cause }) => preload(context.queryClient, queries.logs(deps), cause),
  pendingComponent: () => <Loading />,
  component: LogsPage,
});
