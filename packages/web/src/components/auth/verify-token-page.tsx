import { useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { AuthCard } from '@/components/auth/auth-card';
import { SuccessAlert } from '@/components/auth/success-alert';
import { TokenForm } from '@/components/auth/token-form';
import { PublicLayout } from '@/components/layout/public-layout';
import { ensureCsrfCookie } from '@/lib/api';
import { errorIssue, errorMessage } from '@/lib/errors';
import { useVerifyTokenLogin } from '@/lib/mutations';
import { getPfNumber, storeSession } from '@/lib/session';
import { LOGIN_REDIRECT_DELAY_MS, SECRET_REQUEST_DELAY_MS, sleep } from '@/lib/time';
import { t, useT } from '@/i18n';

/** Authenticator sign-in, step 2: the 6-digit token from the app. */
export function VerifyTokenLogin() {
  const { tReceived } = useT();
  const navigate = useNavigate();
  const pfNumber = getPfNumber();
  const [busy, setBusy] = useState(false);
  const [success, setSuccess] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const verify = useVerifyTokenLogin();

  const submit = async (token: string) => {
    if (!pfNumber) return;
    setBusy(true);
    setError(null);
    try {
      await sleep(SECRET_REQUEST_DELAY_MS);
      await ensureCsrfCookie();
      const res = await verify.mutateAsync({ body: { token, pfNumber } });
      storeSession(res.body, 'member');
      setSuccess(tReceived(res.body.message) || t('signIn.success'));
      setTimeout(() => void navigate({ to: '/voter' }), LOGIN_REDIRECT_DELAY_MS);
    } catch (err) {
      setError(tReceived(errorIssue(err) ?? errorMessage(err)) || t('common.pleaseTryAgain'));
      setBusy(false);
    }
  };

  return (
    <PublicLayout>
      <AuthCard title={t('token.title')} description={t('token.description')}>
        {!pfNumber ? (
          <p>
            {t('token.startWithPin')}{' '}
            <Link to="/password" className="text-primary underline">
              {t('token.goToPin')}
            </Link>
          </p>
        ) : (
          <div className="grid gap-4">
            <SuccessAlert message={success} />
            <TokenForm label={t('token.label')} submitLabel={t('code.verify')} pending={busy} onSubmit={submit} />
            {error && (
              <p role="alert" className="text-sm text-destructive">
                {error}
              </p>
            )}
          </div>
        )}
      </AuthCard>
    </PublicLayout>
  );
}
