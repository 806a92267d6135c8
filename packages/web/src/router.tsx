import type { QueryClient } from '@tanstack/react-query';
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { ScreenError } from './components/layout/screen-error';
import { routeTree } from './routeTree.gen';

/**
 * The app's router (main.tsx; the route-tree tests build the same one on a memory history). A
 * failure in a route (its beforeLoad, loader or render) shows that route's own error state with
 * Retry in place, inside the layouts above it that still stand; only a failure of the root itself
 * reaches the root's crash page (docs/architecture.md "How to add a screen").
 */
export function createAppRouter(queryClient: QueryClient, history?: RouterHistory) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: 'intent',
    defaultErrorComponent: ScreenError,
    scrollRestoration: true,
    ...(history ? { history } : {}),
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;
