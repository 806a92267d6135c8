import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { Copy } from 'lucide-react';
import { AuthCard } from '@/components/auth/auth-card';
import { TokenForm } from '@/components/auth/token-form';
import { PublicLayout } from '@/components/layout/public-layout';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { errorMessage } from '@/lib/errors';
import { config } from '@/lib/config';
import { useConfirmAuthenticator, useSendQr } from '@/lib/mutations';
import { getPfNumber, getToken } from '@/lib/session';
import { SECRET_REQUEST_DELAY_MS, sleep } from '@/lib/time';
import { t, useT } from '@/i18n';

/** Authenticator setup: scan the QR (or type the key), then confirm with a first token. */
export function ScanQr() {
  const { tReceived } = useT();
  const navigate = useNavigate();
  const pfNumber = getPfNumber();
  const signedIn = Boolean(getToken());
  const sendQr = useSendQr();
  const verify = useConfirmAuthenticator();
  const [qr, setQr] = useState<{ url: string; secret: string } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (started.current || !pfNumber || !signedIn) return;
    started.current = true;
    sendQr
      .mutateAsync({ body: { pfNumber } })
      .then((res) => {
        if (!res.body.url || !res.body.secret) {
          setFailed(t('qr.failed'));
          toast({ variant: 'destructive', title: t('qr.failed') });
        } else setQr(res.body);
      })
      .catch((err: unknown) => setFailed(errorMessage(err) ?? t('qr.failed')));
  }, [pfNumber, signedIn, sendQr]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(qr?.secret ?? '');
      toast({ variant: 'success', title: t('qr.copied') });
    } catch {
      toast({ variant: 'destructive', title: t('qr.copyFailed') });
    }
  };

  const submit = async (token: string) => {
    if (!pfNumber) return;
    setBusy(true);
    try {
      await sleep(SECRET_REQUEST_DELAY_MS);
      const res = await verify.mutateAsync({ body: { token, pfNumber } });
      toast({ variant: 'success', title: tReceived(res.body.message) || t('qr.confirmed') });
      void navigate({ to: '/password' });
    } catch {
      // the hook toasts the failure
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicLayout>
      <AuthCard title={t('qr.title')} description={t('qr.description', { app: config.appName })}>
        {!signedIn || !pfNumber ? (
          <p>
            {t('qr.signInFirst')}{' '}
            <Link to="/sign-in" className="text-primary underline">
              {t('qr.goToSignIn')}
            </Link>
          </p>
        ) : (
          <div className="grid gap-5">
            {sendQr.isPending && (
              <p role="status" className="text-muted-foreground">
                {t('qr.generating')}
              </p>
            )}
            {failed && (
              <p role="alert" className="text-destructive">
                {tReceived(failed)}
              </p>
            )}
            {qr && (
              <>
                <figure className="grid justify-items-center gap-2">
                  <img src={qr.url} alt={t('qr.alt', { app: config.appName })} className="size-52 bg-white p-2" />
                  <figcaption className="text-sm text-muted-foreground">{t('qr.account', { app: config.appName })}</figcaption>
                </figure>
                <div className="grid gap-2">
                  <span className="text-sm font-medium" id="setup-key-label">
                    {t('qr.setupKey')}
                  </span>
                  <div className="flex items-center gap-2">
                    <code aria-labelledby="setup-key-label" className="min-w-0 flex-1 break-all rounded bg-muted px-3 py-2 text-sm">
                      {qr.secret}
                    </code>
                    <Button variant="outline" size="icon" onClick={copy} aria-label={t('qr.copyKey')}>
                      <Copy aria-hidden="true" />
                    </Button>
                  </div>
                </div>
                <TokenForm label={t('qr.tokenLabel')} submitLabel={t('qr.verify')} pending={busy} onSubmit={submit} autoFocus={false} />
              </>
            )}
          </div>
        )}
      </AuthCard>
    </PublicLayout>
  );
}
