import * as React from 'react';
import { useT } from '@/i18n';

type Props = { children: React.ReactNode; fallback?: React.ReactNode };
type State = { error: Error | null };

export const CRASH_MESSAGE = 'Something went wrong.';

export function CrashMessage() {
  const { t } = useT();
  return (
    <div role="alert" className="mx-auto my-16 max-w-md rounded-lg border border-destructive/40 bg-red-50 p-6 text-center">
      <p className="text-lg font-semibold text-destructive">{t('crash.message')}</p>
      <button type="button" className="mt-4 text-sm text-primary underline" onClick={() => window.location.reload()}>
        {t('crash.reload')}
      </button>
    </div>
  );
}

/** docs/screens.md "Messages and timings": a render crash shows 'Something went wrong.' */
export class ErrorBoundary extends React.Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: React.ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    if (this.state.error) return this.props.fallback ?? <CrashMessage />;
    return this.props.children;
  }
}
