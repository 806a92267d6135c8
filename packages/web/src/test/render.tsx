import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider, Outlet } from '@tanstack/react-router';
import { Toaster } from '@/components/ui/toaster';

/** Renders a component inside a memory router (so Link and useNavigate work) and a query client. */
export async function renderWithProviders(ui: ReactNode, path = '/') {
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
  const page = createRoute({ getParentRoute: () => rootRoute, path, component: () => <>{ui}</> });
  const router = createRouter({
    routeTree: rootRoute.addChildren([page]),
    history: createMemoryHistory({ initialEntries: [path] }),
    context: {},
  });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router as never} />
    </QueryClientProvider>,
  );
  await router.load();
  return { ...result, router, queryClient };
}
