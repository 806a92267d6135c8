import type { ReactNode } from 'react';
import { Loader2 } from 'lucide-react';
import { useT } from '@/i18n';
import { RetryButton } from './screen-error';

export function Loading({ label }: { label?: string }) {
  const { t } = useT();
  return (
    <p role="status" className="flex items-center gap-2 text-muted-foreground">
      <Loader2 className="size-4 animate-spin" aria-hidden="true" />
      {label ?? t('common.loading')}
    </p>
  );
}

/** A failed read's message; with `onRetry`, a Retry button that reads it again (docs/architecture.md "How to add a screen"). */
export function ErrorState({ children, onRetry, retryLabel }: { children: ReactNode; onRetry?: () => void; retryLabel?: string }) {
  if (!onRetry)
    return (
      <p role="alert" className="rounded-md border border-destructive/40 bg-red-50 px-4 py-3 text-destructive">
        {children}
      </p>
    );
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-destructive/40 bg-red-50 px-4 py-3">
      <p role="alert" className="text-destructive">
        {children}
      </p>
      <RetryButton onRetry={onRetry} label={retryLabel} />
    </div>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="rounded-md border border-dashed border-border px-4 py-6 text-center text-muted-foreground">{children}</p>;
}

export function FullPageLoading() {
  const { t } = useT();
  return (
    <div className="flex min-h-screen items-center justify-center">
      <Loading label={t('common.checkingSession')} />
    </div>
  );
}
