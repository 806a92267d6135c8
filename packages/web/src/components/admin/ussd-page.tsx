import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ErrorState, Loading } from '@/components/layout/page-states';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { queries } from '@/lib/queries';
import { useT } from '@/i18n';
import { UssdSimulator } from './ussd-simulator';

/** The callback's address as the gateway reaches it: this site's origin and the callback path. */
export const callbackUrlOf = (path: string, origin = window.location.origin) => `${origin}${path}`;

/** The address with its secret last segment hidden but its first four characters (so two can be told apart). */
export const maskedCallbackUrl = (url: string) => url.replace(/\/([^/]{4})[^/]*$/, (_m, head: string) => `/${head}…`);

/**
 * The admin's USSD page (docs/screens.md "USSD"): whether the channel is on, the callback URL to
 * give Africa's Talking (hidden until asked for: its last segment is the callback's only
 * credential), and a phone simulator that drives the real callback for rehearsals.
 */
export function UssdPage() {
  const { t } = useT();
  const id = useId();
  const status = useQuery(queries.ussdStatus());
  const [shown, setShown] = useState(false);

  if (status.isPending) return <Loading label={t('admin.ussd.loading')} />;
  if (status.isError)
    return (
      <ErrorState onRetry={() => void status.refetch()} retryLabel={t('admin.ussd.retry')}>
        {t('admin.ussd.loadError')}
      </ErrorState>
    );
  const { enabled, callback_path: path } = status.data.body;
  const url = path ? callbackUrlOf(path) : null;

  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      toast({ variant: 'success', title: t('admin.ussd.copied') });
    } catch {
      toast({ variant: 'destructive', title: t('admin.ussd.copyFailed') });
    }
  };

  return (
    <div className="grid gap-8">
      <section aria-labelledby={`${id}-channel`} className="grid max-w-3xl gap-3 rounded-lg border border-border bg-card p-4 shadow-sm">
        <h2 id={`${id}-channel`} className="text-lg font-semibold">
          {t('admin.ussd.channel')}
        </h2>
        <p data-testid="ussd-channel-state">
          <span
            className={
              enabled
                ? 'rounded-full bg-emerald-100 px-2 py-0.5 text-sm font-medium text-emerald-900'
                : 'rounded-full bg-muted px-2 py-0.5 text-sm font-medium'
            }
          >
            {enabled ? t('admin.ussd.on') : t('admin.ussd.off')}
          </span>
        </p>
        {!enabled || !url ? (
          <p className="text-sm text-muted-foreground">{t('admin.ussd.offHelp')}</p>
        ) : (
          <>
            <p className="text-sm text-muted-foreground">{t('admin.ussd.callbackHelp')}</p>
            <p className="text-sm font-medium" id={`${id}-url-label`}>
              {t('admin.ussd.callbackUrl')}
            </p>
            <code
              aria-labelledby={`${id}-url-label`}
              data-testid="ussd-callback-url"
              className="break-all rounded-md bg-muted px-2 py-1 text-sm"
            >
              {shown ? url : maskedCallbackUrl(url)}
            </code>
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" aria-pressed={shown} onClick={() => setShown((v) => !v)}>
                {shown ? t('admin.ussd.hide') : t('admin.ussd.show')}
              </Button>
              <Button variant="outline" onClick={() => void copy()}>
                {t('admin.ussd.copy')}
              </Button>
            </div>
            <p className="text-sm text-muted-foreground">{t('admin.ussd.secret')}</p>
          </>
        )}
      </section>
      <section aria-labelledby={`${id}-sim`} className="grid gap-3">
        <h2 id={`${id}-sim`} className="text-lg font-semibold">
          {t('admin.ussd.simulator')}
        </h2>
        {path ? <UssdSimulator callbackPath={path} /> : <p className="text-sm text-muted-foreground">{t('admin.ussd.simOff')}</p>}
      </section>
    </div>
  );
}
