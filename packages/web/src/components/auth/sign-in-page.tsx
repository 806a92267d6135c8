import { useId, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Controller } from 'react-hook-form';
import { Info } from 'lucide-react';
import { AuthCard } from '@/components/auth/auth-card';
import { CodeStep } from '@/components/auth/code-step';
import { ConsentField } from '@/components/auth/consent-field';
import { GoogleButton } from '@/components/auth/google-button';
import { FormField, useZodForm } from '@/components/forms';
import { signInSchemaWith } from '@/lib/identifier';
import { useT } from '@/i18n';
import { SuccessAlert } from '@/components/auth/success-alert';
import { PublicLayout } from '@/components/layout/public-layout';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { ensureCsrfCookie } from '@/lib/api';
import { errorIssue, errorRetryAfter, errorStatus } from '@/lib/errors';
import { config } from '@/lib/config';
import { queries } from '@/lib/queries';
import { useElection } from '@/lib/election';
import { decodeIdToken, type GoogleCredentialResponse } from '@/lib/google';
import { useMemberGoogleLogin, useVerifyPhone, useVerifySms } from '@/lib/mutations';
import { setAccountType, setPfNumber, storeSession } from '@/lib/session';
import { LOGIN_REDIRECT_DELAY_MS, RESEND_WAIT_SECONDS, SECRET_REQUEST_DELAY_MS, sleep } from '@/lib/time';

export const NO_SUCH_USER = 'No such user exists';

/** verify/phone's answer for an identifier that names no one (docs/api.md "Sign-in identifiers"). */
const isUnknownMember = (err: unknown) => errorStatus(err) === 404 || errorIssue(err) === NO_SUCH_USER;

export function SignIn() {
  const { t, tReceived, tRich } = useT();
  const { texts } = useElection();
  const navigate = useNavigate();
  const consentId = useId();
  const [step, setStep] = useState<'details' | 'token'>('details');
  const [identifier, setIdentifier] = useState('');
  const [success, setSuccess] = useState<string | null>(null);
  const [redirecting, setRedirecting] = useState(false);
  const [notFound, setNotFound] = useState(false);

  const verifyPhone = useVerifyPhone();
  const verifySms = useVerifySms();
  const google = useMemberGoogleLogin();

  // The organisation's member-number format (public GET organisation): the field accepts what the server will.
  const organisation = useQuery(queries.organisation());
  const pattern = organisation.data?.body?.data?.member_no_pattern ?? null;
  // react-hook-form reads its options, the resolver included, anew on every render.
  const schema = useMemo(() => signInSchemaWith(() => pattern), [pattern]);
  const form = useZodForm(schema, { mode: 'onChange', defaultValues: { unique_id: '', consent: false } });
  const idError = form.formState.errors.unique_id?.message;
  const consentError = form.formState.errors.consent?.message;

  const goToVoter = (message: string) => {
    setSuccess(message);
    setRedirecting(true);
    setTimeout(() => void navigate({ to: '/voter' }), LOGIN_REDIRECT_DELAY_MS);
  };

  const submitDetails = form.handleSubmit(async (values) => {
    const uniqueId = values.unique_id.trim();
    setNotFound(false);
    try {
      await ensureCsrfCookie();
      await verifyPhone.mutateAsync({ body: { unique_id: uniqueId, consent: true } });
      setIdentifier(uniqueId);
      setStep('token');
    } catch (err) {
      // Said on the form, with whom to ask; never a sign-up the member cannot finish.
      if (isUnknownMember(err)) setNotFound(true);
    }
  });

  /** A new code for the same identifier; the seconds until the next may be asked for. */
  const resend = async (): Promise<number> => {
    try {
      await ensureCsrfCookie();
      await verifyPhone.mutateAsync({ body: { unique_id: identifier, consent: true } });
      return RESEND_WAIT_SECONDS;
    } catch (err) {
      return errorRetryAfter(err) ?? 0;
    }
  };

  const submitToken = async (token: string) => {
    await sleep(SECRET_REQUEST_DELAY_MS);
    await ensureCsrfCookie();
    const res = await verifySms.mutateAsync({ body: { token } }).catch(() => null);
    if (!res) return;
    storeSession(res.body, 'member');
    setPfNumber(identifier);
    goToVoter(tReceived(res.body.message) || t('signIn.success'));
  };

  const onGoogle = async (response: GoogleCredentialResponse) => {
    const profile = decodeIdToken(response.credential);
    // docs/screens.md "Sign-in and session loss": the Google login stores the account type at the attempt; a voter session then
    // becomes `member` (the voter guard confirms it on the next screen).
    setAccountType('admin');
    const res = await google.mutateAsync({ body: { email: profile?.email ?? '', oauth_id_token: response.credential } }).catch(() => null);
    if (!res) return;
    storeSession(res.body, 'member');
    goToVoter(tReceived(res.body.message) || t('signIn.success'));
  };

  return (
    <PublicLayout>
      <AuthCard title={t('signIn.title')} description={t('signIn.description')}>
        <div className="grid gap-5">
          <SuccessAlert message={success} />
          {step === 'details' ? (
            <>
              <GoogleButton onCredential={onGoogle} text="signin_with" />
              <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden="true">
                <span className="h-px flex-1 bg-border" />
                {t('signIn.or')}
                <span className="h-px flex-1 bg-border" />
              </div>
              <p className="flex items-center gap-2 rounded-md bg-muted px-3 py-2 text-sm" role="note">
                <Info className="size-4 shrink-0" aria-hidden="true" />
                {t('signIn.hint')}
              </p>
              <form onSubmit={submitDetails} className="grid gap-4" noValidate>
                <FormField label={t('signIn.identifierLabel')} error={idError}>
                  <Input autoComplete="username" maxLength={200} {...form.register('unique_id', { onChange: () => setNotFound(false) })} />
                </FormField>
                {notFound && (
                  <p role="alert" className="rounded-md border border-destructive px-3 py-2 text-sm text-destructive">
                    {tRich('signIn.notFound', {
                      contact: texts.supportEmail ? (
                        <a className="underline underline-offset-2" href={`mailto:${texts.supportEmail}`}>
                          {texts.supportEmail}
                        </a>
                      ) : (
                        texts.organisation || t('signIn.yourOrganisation')
                      ),
                    })}
                  </p>
                )}
                <Controller
                  control={form.control}
                  name="consent"
                  render={({ field }) => (
                    <ConsentField id={consentId} checked={field.value} onChange={(v) => field.onChange(v)} error={consentError} />
                  )}
                />
                <Button type="submit" disabled={Boolean(idError) || verifyPhone.isPending}>
                  {verifyPhone.isPending ? t('signIn.submitting') : t('signIn.submit')}
                </Button>
              </form>
              <SignInAlternatives />
            </>
          ) : (
            <CodeStep
              prompt={t('signIn.codePrompt')}
              label={t('signIn.smsToken')}
              onSubmit={submitToken}
              onResend={resend}
              redirecting={redirecting}
              onBack={() => {
                setStep('details');
                verifySms.reset();
              }}
            />
          )}
        </div>
      </AuthCard>
    </PublicLayout>
  );
}

const linkClass = 'text-primary underline underline-offset-2';

/**
 * The other ways in, under the form: the authenticator app, sign-up (or, without Google, where to
 * check one's registration instead), and the staff logins for admins and agents sent here.
 */
export function SignInAlternatives() {
  const { t } = useT();
  const { texts } = useElection();
  return (
    <div className="grid gap-2 border-t border-border pt-4 text-center text-sm">
      <p>
        {t('signIn.authenticatorQuestion')}{' '}
        <Link to="/password" className={linkClass}>
          {t('signIn.authenticatorLink')}
        </Link>
      </p>
      {config.googleClientId ? (
        <p>
          {t('signIn.noAccount')}{' '}
          <Link to="/sign-up" className={linkClass}>
            {t('signIn.signUp')}
          </Link>
        </p>
      ) : (
        <p>
          {t('signIn.registeredBy', { organisation: texts.organisation || t('signIn.yourOrganisation') })}{' '}
          <Link to="/verify" className={linkClass}>
            {t('signIn.checkDetails')}
          </Link>
        </p>
      )}
      <p>
        {t('signIn.staff')}{' '}
        <Link to="/admin/login" className={linkClass}>
          {t('signIn.adminLogin')}
        </Link>{' '}
        ·{' '}
        <Link to="/agent/login" className={linkClass}>
          {t('signIn.agentLogin')}
        </Link>
      </p>
    </div>
  );
}
