import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { ErrorState } from '@/components/layout/page-states';
import { SessionCheckUnavailable } from '@/lib/guards';
import { useT } from '@/i18n';

/**
 * The signed-in areas' own error state (the admin's, the agent's and the voter's layouts), never
 * the root's "Something went wrong": a session check the server could not answer after its three
 * tries (a busy server right after sign-in: issue 36, finding 14) says so, keeps the session, and
 * Retry checks again; anything else thrown in the area offers Retry too. Retry runs the area's
 * guard and loaders again (`router.invalidate`), without reloading the page.
 */
export function AreaError({ error, reset }: ErrorComponentProps) {
  const { t } = useT();
  const router = useRouter();
  const retry = () => {
    reset();
    void router.invalidate();
  };
  const sessionCheck = error instanceof SessionCheckUnavailable;
  return (
    <main id="main" className="mx-auto my-16 grid max-w-lg gap-3 p-4">
      <h1 className="text-xl font-semibold">{t(sessionCheck ? 'areaError.sessionTitle' : 'crash.message')}</h1>
      <ErrorState onRetry={retry} retryLabel={t('screenError.retry')}>
        {t(sessionCheck ? 'areaError.sessionBody' : 'areaError.body')}
      </ErrorState>
    </main>
  );
}
