import type { ReactNode } from 'react';
import { Loader2 } from 'lucide-react';
import { useT } from '@/i18n';

export function Loading({ label }: { label?: string }) {
  const { t } = useT();
  return (
    <p role="status" className="flex items-center gap-2 text-muted-foreground">
      <Loader2 className="size-4 animate-spin" aria-hidden="true" />
      {label ?? t('common.loading')}
    </p>
  );
}

export function ErrorState({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-md border border-destructive/40 bg-red-50 px-4 py-3 text-destructive">
      {children}
    </p>
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
