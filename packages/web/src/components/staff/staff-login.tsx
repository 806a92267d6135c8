import { useId, useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { Info } from 'lucide-react';
import { AuthCard } from '@/components/auth/auth-card';
import { FieldError } from '@/components/auth/field-error';
import { GoogleButton } from '@/components/auth/google-button';
import { SuccessAlert } from '@/components/auth/success-alert';
import { TokenForm } from '@/components/auth/token-form';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/hooks/use-toast';
import { api, ensureCsrfCookie } from '@/lib/api';
import { errorMessage, errorStatus, firstFieldError } from '@/lib/errors';
import { config } from '@/lib/config';
import { decodeIdToken, type GoogleCredentialResponse } from '@/lib/google';
import { setAccountType, storeSession } from '@/lib/session';
import { LOGIN_REDIRECT_DELAY_MS, SECRET_REQUEST_DELAY_MS, sleep } from '@/lib/time';

export const OTP_PROMPT = 'Enter security otp sent to your email';

export type StaffRole = 'admin' | 'agent';

/** Login failure (docs/screens.md "Messages and timings"): 'An error occurred' with the server message; a 401 gives 'Invalid credentials'. */
export function loginFailureToast(err: unknown) {
  const description = errorStatus(err) === 401 ? 'Invalid credentials' : (firstFieldError(err) ?? errorMessage(err) ?? 'Please try again');
  toast({ variant: 'destructive', title: 'An error occurred', description });
}

/**
 * Admin and agent sign-in (docs/screens.md "Sign-in and session loss"): credentials (admin: username and password; agent:
 * email only) or Google, then the emailed one-time code, then the area after 2 seconds. The
 * account type is stored at the attempt, so a 401 during the attempt sends the person back here.
 */
export function StaffLogin({ role }: { role: StaffRole }) {
  const navigate = useNavigate();
  const emailId = useId();
  const passwordId = useId();
  const [step, setStep] = useState<'details' | 'code'>('details');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [success, setSuccess] = useState<string | null>(null);
  const [redirecting, setRedirecting] = useState(false);
  const [codeBusy, setCodeBusy] = useState(false);

  const loginAdmin = api.auth.loginAdmin.useMutation();
  const loginAgent = api.auth.loginAgent.useMutation();
  const verifyAdmin = api.auth.verifyAdmin.useMutation();
  const verifyAgent = api.auth.verifyAgent.useMutation();
  const googleAdmin = api.auth.loginAdminGoogle.useMutation();
  const googleAgent = api.auth.loginAgentGoogle.useMutation();
  const sending = role === 'admin' ? loginAdmin.isPending : loginAgent.isPending;
  const area = role === 'admin' ? '/admin' : '/agent';

  const finish = (message: string) => {
    setSuccess(message);
    setRedirecting(true);
    setTimeout(() => void navigate({ to: area }), LOGIN_REDIRECT_DELAY_MS);
  };

  const submitDetails = async (e: React.FormEvent) => {
    e.preventDefault();
    const next: typeof errors = {};
    if (!email.trim()) next.email = role === 'admin' ? 'Enter your username' : 'Enter your email';
    if (role === 'admin' && !password) next.password = 'Enter your password';
    setErrors(next);
    if (next.email || next.password) return;
    setAccountType(role);
    try {
      await ensureCsrfCookie();
      if (role === 'admin') await loginAdmin.mutateAsync({ body: { email: email.trim(), password } });
      else await loginAgent.mutateAsync({ body: { email: email.trim() } });
      setStep('code');
    } catch (err) {
      loginFailureToast(err);
    }
  };

  const submitCode = async (token: string) => {
    setCodeBusy(true);
    try {
      await sleep(SECRET_REQUEST_DELAY_MS);
      await ensureCsrfCookie();
      const res =
        role === 'admin' ? await verifyAdmin.mutateAsync({ body: { token } }) : await verifyAgent.mutateAsync({ body: { token } });
      storeSession(res.body, role);
      finish(res.body.message || 'Signed in successfully');
    } catch (err) {
      toast({ variant: 'destructive', title: 'There has been the following issue', description: errorMessage(err) ?? 'Please try again' });
    } finally {
      setCodeBusy(false);
    }
  };

  const onGoogle = async (response: GoogleCredentialResponse) => {
    const profile = decodeIdToken(response.credential);
    setAccountType(role);
    const body = { email: profile?.email ?? '', oauth_id_token: response.credential };
    try {
      const res = role === 'admin' ? await googleAdmin.mutateAsync({ body }) : await googleAgent.mutateAsync({ body });
      storeSession(res.body, role);
      finish(res.body.message || 'Signed in successfully');
    } catch (err) {
      loginFailureToast(err);
    }
  };

  const title = role === 'admin' ? 'Admin login' : 'Agent login';
  return (
    <div className="flex min-h-screen flex-col bg-muted/40">
      <header className="border-b border-border bg-background">
        <div className="mx-auto flex max-w-6xl items-center px-3 py-3 sm:px-6">
          <Link to="/" className="flex items-center gap-2 font-semibold" aria-label={`${config.appName} home`}>
            <img src="/logo.svg" alt="" className="size-9" />
            <span className="text-lg">{config.appName}</span>
          </Link>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-md flex-1 px-3 py-8 sm:py-12">
        <AuthCard title={title} description={role === 'admin' ? 'Back office of the election.' : 'Follow the results live.'}>
          <div className="grid gap-5">
            <SuccessAlert message={success} />
            {step === 'details' ? (
              <>
                <form onSubmit={submitDetails} className="grid gap-4" noValidate>
                  <div className="grid gap-2">
                    <Label htmlFor={emailId}>{role === 'admin' ? 'Username' : 'Email'}</Label>
                    <Input
                      id={emailId}
                      type="email"
                      autoComplete="username"
                      maxLength={150}
                      value={email}
                      aria-invalid={errors.email ? true : undefined}
                      aria-describedby={errors.email ? `${emailId}-error` : undefined}
                      onChange={(ev) => {
                        setEmail(ev.target.value);
                        if (errors.email) setErrors((p) => ({ ...p, email: undefined }));
                      }}
                    />
                    <FieldError id={`${emailId}-error`} message={errors.email} />
                  </div>
                  {role === 'admin' && (
                    <div className="grid gap-2">
                      <Label htmlFor={passwordId}>Password</Label>
                      <Input
                        id={passwordId}
                        type="password"
                        autoComplete="current-password"
                        maxLength={200}
                        value={password}
                        aria-invalid={errors.password ? true : undefined}
                        aria-describedby={errors.password ? `${passwordId}-error` : undefined}
                        onChange={(ev) => {
                          setPassword(ev.target.value);
                          if (errors.password) setErrors((p) => ({ ...p, password: undefined }));
                        }}
                      />
                      <FieldError id={`${passwordId}-error`} message={errors.password} />
                    </div>
                  )}
                  <Button type="submit" disabled={sending}>
                    {sending ? 'Signing in…' : 'Sign in'}
                  </Button>
                </form>
                <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden="true">
                  <span className="h-px flex-1 bg-border" />
                  or
                  <span className="h-px flex-1 bg-border" />
                </div>
                <GoogleButton onCredential={onGoogle} text="signin_with" />
              </>
            ) : (
              <>
                <p className="flex items-center gap-2 rounded-md bg-muted px-3 py-2 text-sm" role="note">
                  <Info className="size-4 shrink-0" aria-hidden="true" />
                  {OTP_PROMPT}
                </p>
                <TokenForm label="Security code" submitLabel="Verify" pending={codeBusy || redirecting} onSubmit={submitCode} />
                <Button
                  variant="link"
                  disabled={redirecting}
                  onClick={() => {
                    setStep('details');
                    verifyAdmin.reset();
                    verifyAgent.reset();
                  }}
                >
                  Back to input details
                </Button>
              </>
            )}
          </div>
        </AuthCard>
      </main>
    </div>
  );
}
