import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { ErrorBoundary } from './components/error-boundary';
import { ensureCsrfCookie } from './lib/api';
import { retryRead } from './lib/errors';
import { createAppRouter, type AppRouter } from './router';
import { getColours } from './lib/colours';
import { getLocale, loadCatalogue } from './i18n';
import './styles.css';

// GET /sanctum/csrf-cookie on load and the custom colours read at start (docs/screens.md "Sign-in and session loss", "Browser storage").
void ensureCsrfCookie();
getColours();

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: retryRead, refetchOnWindowFocus: false } },
});

// A failure inside a page shows that page's own error state with Retry, keeping the shell and the toasts.
const router = createAppRouter(queryClient);

declare module '@tanstack/react-router' {
  // Module augmentation needs an interface; a type alias cannot merge.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface Register {
    router: AppRouter;
  }
}

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

// The reader's language is loaded before the first frame (docs/i18n.md "Loading a language"), so the
// page never shows in English first; if it cannot be loaded, the page shows in English.
const render = () =>
  createRoot(root).render(
    <StrictMode>
      <ErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </ErrorBoundary>
    </StrictMode>,
  );
loadCatalogue(getLocale()).then(render, render);
