import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { CrashMessage } from '@/components/error-boundary';
import { Toaster } from '@/components/ui/toaster';
import { useT } from '@/i18n';
import { electionSearch } from '@/lib/election-search';

export type RouterContext = { queryClient: QueryClient };

export const Route = createRootRouteWithContext<RouterContext>()({
  // `?election=N` (lib/election-search.ts): the election a staff page shows, on every route.
  validateSearch: electionSearch,
  component: RootLayout,
  errorComponent: CrashMessage,
  notFoundComponent: NotFound,
});

function RootLayout() {
  return (
    <>
      <Outlet />
      <Toaster />
    </>
  );
}

function NotFound() {
  const { t } = useT();
  return (
    <main className="mx-auto max-w-md p-8 text-center">
      <h1 className="text-2xl font-semibold">{t('notFound.title')}</h1>
      <a className="mt-4 inline-block text-primary underline" href="/">
        {t('notFound.home')}
      </a>
    </main>
  );
}
