import { useEffect } from 'react';
import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useT } from '@/i18n';

/**
 * A screen's own error state, the router's error component of every route below the root
 * (src/router.tsx `defaultErrorComponent`; docs/architecture.md "How to add a screen"): whatever a screen or its
 * layout threw while loading or rendering (a loader, a query read during render, a code-split chunk
 * that did not arrive under load) shows here in place of that screen, inside the shell that still
 * stands, with Retry; never the root's crash page. Retry clears the queries' errors (TanStack
 * Query's reset boundary), then re-runs the route's loaders and renders it anew (`router.invalidate`,
 * which also gives the route's boundary a new key) and resets this boundary.
 */
export function ScreenError({ error, reset }: ErrorComponentProps) {
  const { t } = useT();
  const router = useRouter();
  const queries = useQueryErrorResetBoundary();
  useEffect(() => {
    console.error(error);
  }, [error]);
  const retry = () => {
    queries.reset();
    reset();
    void router.invalidate();
  };
  return (
    <div
      role="alert"
      className="mx-auto my-8 grid max-w-md justify-items-center gap-4 rounded-lg border border-destructive/40 bg-red-50 p-6 text-center"
    >
      {/* The spec's words for a crash (docs/screens.md), then what it means here: this page, which Retry reads again. */}
      <p className="text-lg font-semibold text-destructive">{t('crash.message')}</p>
      <p className="text-sm">{t('screenError.message')}</p>
      <RetryButton onRetry={retry} />
    </div>
  );
}

/** Retry: what a screen's error state offers for the read that failed. */
export function RetryButton({ onRetry, label }: { onRetry: () => void; label?: string }) {
  const { t } = useT();
  return (
    <Button type="button" variant="outline" size="sm" onClick={onRetry} aria-label={label}>
      <RotateCw aria-hidden="true" />
      {t('screenError.retry')}
    </Button>
  );
}
