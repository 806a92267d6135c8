import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider, Outlet } from '@tanstack/react-router';
import { Toaster } from '@/components/ui/toaster';
import { RealtimeProvider } from '@/lib/realtime';
import { fakeRealtime, type FakeRealtime } from './fake-realtime';

type Options = {
  /** the screen's route `validateSearch`, as its file route declares it */
  validateSearch?: (search: Record<string, unknown>) => Record<string, unknown>;
  /** the live channels' stand-in (a fresh one, connecting at once, unless given) */
  realtime?: FakeRealtime;
};

/**
 * Renders a component inside a memory router (so Link, useNavigate and useSearch work) and a
 * query client, with a stand-in for the live channels (`realtime`: test/fake-realtime.ts). `url` is
 * the screen's path, with search params if the test starts from some.
 */
export async function renderWithProviders(ui: ReactNode, url = '/', options: Options = {}) {
  const path = url.split('?')[0] || '/';
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const rootRoute = createRootRoute({
    component: () => (
      <>
        <Outlet />
        <Toaster />
      </>
    ),
    // a test renders one screen; navigation elsewhere only changes the location
    notFoundComponent: () => null,
  });
  const page = createRoute({ getParentRoute: () => rootRoute, path, validateSearch: options.validateSearch, component: () => <>{ui}</> });
  const router = createRouter({
    routeTree: rootRoute.addChildren([page]),
    history: createMemoryHistory({ initialEntries: [url] }),
    context: {},
  });
  const realtime = options.realtime ?? fakeRealtime();
  const result = render(
    <RealtimeProvider value={realtime.connect}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router as never} />
      </QueryClientProvider>
    </RealtimeProvider>,
  );
  await router.load();
  return { ...result, router, queryClient, realtime };
}
