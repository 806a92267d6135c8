import { useId, useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Info } from 'lucide-react';
import { AuthCard } from '@/components/auth/auth-card';
import { ConsentField } from '@/components/auth/consent-field';
import { FieldError } from '@/components/auth/field-error';
import { GoogleButton } from '@/components/auth/google-button';
import { ENTER_MEMBER_NUMBER, ENTER_OTP, signInSchema, type SignInValues } from '@/lib/identifier';
import { SuccessAlert } from '@/components/auth/success-alert';
import { TokenForm } from '@/components/auth/token-form';
import { PublicLayout } from '@/components/layout/public-layout';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/hooks/use-toast';
import { api, ensureCsrfCookie } from '@/lib/api';
import { errorIssue, errorMessage, errorStatus } from '@/lib/errors';
import { config } from '@/lib/config';
import { useElection } from '@/lib/election';
import { decodeIdToken, type GoogleCredentialResponse } from '@/lib/google';
import { setAccountType, setPfNumber, storeSession } from '@/lib/session';
import { LOGIN_REDIRECT_DELAY_MS, SECRET_REQUEST_DELAY_MS, sleep } from '@/lib/time';

export const NO_SUCH_USER = 'No such user exists';
export const NO_ACCOUNT = 'No account found, try signing up';

export function SignIn() {
  const navigate = useNavigate();
  const idField = useId();
  const consentId = useId();
  const [step, setStep] = useState<'details' | 'token'>('details');
  const [identifier, setIdentifier] = useState('');
  const [success, setSuccess] = useState<string | null>(null);
  const [redirecting, setRedirecting] = useState(false);
  const [tokenBusy, setTokenBusy] = useState(false);

  const verifyPhone = api.auth.verifyPhone.useMutation();
  const verifySms = api.auth.verifySms.useMutation();
  const google = api.auth.loginGoogle.useMutation();

  const form = useForm<SignInValues>({
    resolver: zodResolver(signInSchema) as never,
    mode: 'onChange',
    defaultValues: { unique_id: '', consent: false },
  });
  const idError = form.formState.errors.unique_id?.message;
  const consentError = form.formState.errors.consent?.message;

  const goToVoter = (message: string) => {
    setSuccess(message);
    setRedirecting(true);
    setTimeout(() => void navigate({ to: '/voter' }), LOGIN_REDIRECT_DELAY_MS);
  };

  const submitDetails = form.handleSubmit(async (values) => {
    const uniqueId = values.unique_id.trim();
    try {
      await ensureCsrfCookie();
      await verifyPhone.mutateAsync({ body: { unique_id: uniqueId, consent: true } });
      setIdentifier(uniqueId);
      setStep('token');
    } catch (err) {
      const message = errorMessage(err) ?? 'Please try again';
      toast({ variant: 'destructive', title: 'There has been the below issue', description: message });
      if (errorIssue(err) === NO_SUCH_USER || message === NO_ACCOUNT) void navigate({ to: '/sign-up' });
    }
  });

  const submitToken = async (token: string) => {
    setTokenBusy(true);
    try {
      await sleep(SECRET_REQUEST_DELAY_MS);
      await ensureCsrfCookie();
      const res = await verifySms.mutateAsync({ body: { token } });
      storeSession(res.body, 'member');
      setPfNumber(identifier);
      goToVoter(res.body.message || 'Signed in successfully');
    } catch (err) {
      toast({ variant: 'destructive', title: 'There has been the following issue', description: errorMessage(err) ?? 'Please try again' });
    } finally {
      setTokenBusy(false);
    }
  };

  const onGoogle = async (response: GoogleCredentialResponse) => {
    const profile = decodeIdToken(response.credential);
    // docs/screens.md "Sign-in and session loss": the Google login stores the account type at the attempt; a voter session then
    // becomes `member` (the voter guard confirms it on the next screen).
    setAccountType('admin');
    try {
      const res = await google.mutateAsync({ body: { email: profile?.email ?? '', oauth_id_token: response.credential } });
      storeSession(res.body, 'member');
      goToVoter(res.body.message || 'Signed in successfully');
    } catch (err) {
      const status = errorStatus(err);
      toast({
        variant: 'destructive',
        title: 'An error occurred',
        description: status === 401 ? 'Invalid credentials' : (errorMessage(err) ?? 'Please try again'),
      });
    }
  };

  return (
    <PublicLayout>
      <AuthCard title="Sign in" description="Vote in your organisation's election.">
        <div className="grid gap-5">
          <SuccessAlert message={success} />
          {step === 'details' ? (
            <>
              <GoogleButton onCredential={onGoogle} text="signin_with" />
              <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden="true">
                <span className="h-px flex-1 bg-border" />
                or
                <span className="h-px flex-1 bg-border" />
              </div>
              <p className="flex items-center gap-2 rounded-md bg-muted px-3 py-2 text-sm" role="note">
                <Info className="size-4 shrink-0" aria-hidden="true" />
                {ENTER_MEMBER_NUMBER}
              </p>
              <form onSubmit={submitDetails} className="grid gap-4" noValidate>
                <div className="grid gap-2">
                  <Label htmlFor={idField}>Member number or email</Label>
                  <Input
                    id={idField}
                    autoComplete="username"
                    maxLength={200}
                    aria-invalid={idError ? true : undefined}
                    aria-describedby={idError ? `${idField}-error` : undefined}
                    {...form.register('unique_id')}
                  />
                  <FieldError id={`${idField}-error`} message={idError} />
                </div>
                <Controller
                  control={form.control}
                  name="consent"
                  render={({ field }) => (
                    <ConsentField id={consentId} checked={field.value} onChange={(v) => field.onChange(v)} error={consentError} />
                  )}
                />
                <Button type="submit" disabled={Boolean(idError) || verifyPhone.isPending}>
                  {verifyPhone.isPending ? 'Signing in…' : 'Sign in'}
                </Button>
              </form>
              <SignInAlternatives />
            </>
          ) : (
            <>
              <p className="flex items-center gap-2 rounded-md bg-muted px-3 py-2 text-sm" role="note">
                <Info className="size-4 shrink-0" aria-hidden="true" />
                {ENTER_OTP}
              </p>
              <TokenForm label="SMS token" submitLabel="Verify" pending={tokenBusy || redirecting} onSubmit={submitToken} />
              <Button
                variant="link"
                onClick={() => {
                  setStep('details');
                  verifySms.reset();
                }}
              >
                Back to input details
              </Button>
            </>
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
  const { texts } = useElection();
  return (
    <div className="grid gap-2 border-t border-border pt-4 text-center text-sm">
      <p>
        Set up an authenticator app?{' '}
        <Link to="/password" className={linkClass}>
          Sign in with your authenticator app
        </Link>
      </p>
      {config.googleClientId ? (
        <p>
          No account yet?{' '}
          <Link to="/sign-up" className={linkClass}>
            Sign up
          </Link>
        </p>
      ) : (
        <p>
          No account yet? Members are registered by {texts.organisation || 'your organisation'}: sign in with your member number.{' '}
          <Link to="/verify" className={linkClass}>
            Check your member details
          </Link>
        </p>
      )}
      <p>
        Staff:{' '}
        <Link to="/admin/login" className={linkClass}>
          Admin login
        </Link>{' '}
        ·{' '}
        <Link to="/agent/login" className={linkClass}>
          Agent login
        </Link>
      </p>
    </div>
  );
}
