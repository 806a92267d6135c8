import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRouter, RouterProvider } from '@tanstack/react-router';
import { routeTree } from './routeTree.gen';
import { CrashMessage, ErrorBoundary } from './components/error-boundary';
import { ensureCsrfCookie } from './lib/api';
import { getColours } from './lib/colours';
import './styles.css';

// GET /sanctum/csrf-cookie on load and the custom colours read at start (docs/screens.md "Sign-in and session loss", "Browser storage").
void ensureCsrfCookie();
getColours();

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

const router = createRouter({
  routeTree,
  context: { queryClient },
  defaultPreload: 'intent',
  // A crash inside a page shows the message in place, keeping the shell and the toasts.
  defaultErrorComponent: CrashMessage,
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  // Module augmentation needs an interface; a type alias cannot merge.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface Register {
    router: typeof router;
  }
}

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

createRoot(root).render(
  <StrictMode>
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </ErrorBoundary>
  </StrictMode>,
);
