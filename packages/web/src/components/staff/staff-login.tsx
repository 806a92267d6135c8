import { useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { AuthCard } from '@/components/auth/auth-card';
import { CodeStep } from '@/components/auth/code-step';
import { GoogleButton } from '@/components/auth/google-button';
import { SuccessAlert } from '@/components/auth/success-alert';
import { LanguageSelect } from '@/components/layout/language-select';
import { FirstAdminHint } from '@/components/staff/first-admin-hint';
import { FormField, useZodForm } from '@/components/forms';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { ensureCsrfCookie } from '@/lib/api';
import { config } from '@/lib/config';
import { decodeIdToken, type GoogleCredentialResponse } from '@/lib/google';
import { useStaffGoogleLogin, useStaffLogin, useStaffVerify } from '@/lib/mutations';
import { setAccountType, storeSession } from '@/lib/session';
import { says, useT } from '@/i18n';
import { LOGIN_REDIRECT_DELAY_MS, SECRET_REQUEST_DELAY_MS, sleep } from '@/lib/time';

export const OTP_PROMPT = 'Enter security otp sent to your email';

export type StaffRole = 'admin' | 'agent';

/** Step 1's fields: the admin's username and password, the agent's email (the server checks the rest). */
const adminSchema = z.object({
  email: z
    .string()
    .trim()
    .refine((v) => v.length > 0, says('staff.login.enterUsername')),
  password: z.string().refine((v) => v.length > 0, says('staff.login.enterPassword')),
});
const agentSchema = z.object({
  email: z
    .string()
    .trim()
    .refine((v) => v.length > 0, says('staff.login.enterEmail')),
  password: z.string(),
});

/**
 * Admin and agent sign-in (docs/screens.md "Sign-in and session loss"): credentials (admin: username and password; agent:
 * email only) or Google, then the emailed one-time code, then the area after 2 seconds. The
 * account type is stored at the attempt, so a 401 during the attempt sends the person back here.
 */
export function StaffLogin({ role }: { role: StaffRole }) {
  const { t, tReceived } = useT();
  const navigate = useNavigate();
  const [step, setStep] = useState<'details' | 'code'>('details');
  const [success, setSuccess] = useState<string | null>(null);
  const [redirecting, setRedirecting] = useState(false);

  const logins = useStaffLogin();
  const verifies = useStaffVerify();
  const googles = useStaffGoogleLogin();
  const sending = logins[role].isPending;
  const area = role === 'admin' ? '/admin' : '/agent';

  const form = useZodForm(role === 'admin' ? adminSchema : agentSchema, { defaultValues: { email: '', password: '' } });
  const errors = form.formState.errors;

  const finish = (message: string) => {
    setSuccess(message);
    setRedirecting(true);
    setTimeout(() => void navigate({ to: area }), LOGIN_REDIRECT_DELAY_MS);
  };

  const submitDetails = form.handleSubmit(async ({ email, password }) => {
    setAccountType(role);
    await ensureCsrfCookie();
    const sent = await (
      role === 'admin' ? logins.admin.mutateAsync({ body: { email, password } }) : logins.agent.mutateAsync({ body: { email } })
    )
      .then(() => true)
      .catch(() => false);
    if (sent) setStep('code');
  });

  const submitCode = async (token: string) => {
    await sleep(SECRET_REQUEST_DELAY_MS);
    await ensureCsrfCookie();
    const res = await (
      role === 'admin' ? verifies.admin.mutateAsync({ body: { token } }) : verifies.agent.mutateAsync({ body: { token } })
    ).catch(() => null);
    if (!res) return;
    storeSession(res.body, role);
    finish(tReceived(res.body.message) || t('signIn.success'));
  };

  const onGoogle = async (response: GoogleCredentialResponse) => {
    const profile = decodeIdToken(response.credential);
    setAccountType(role);
    const body = { email: profile?.email ?? '', oauth_id_token: response.credential };
    const res = await (role === 'admin' ? googles.admin.mutateAsync({ body }) : googles.agent.mutateAsync({ body })).catch(() => null);
    if (!res) return;
    storeSession(res.body, role);
    finish(tReceived(res.body.message) || t('signIn.success'));
  };

  const title = role === 'admin' ? t('signIn.adminLogin') : t('signIn.agentLogin');
  return (
    <div className="flex min-h-screen flex-col bg-muted/40">
      <header className="border-b border-border bg-background">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-3 py-3 sm:px-6">
          <Link to="/" className="flex items-center gap-2 font-semibold" aria-label={t('common.homeLink', { app: config.appName })}>
            <img src="/logo.svg" alt="" className="size-9" />
            <span className="text-lg">{config.appName}</span>
          </Link>
          <LanguageSelect compact />
        </div>
      </header>
      <main id="main" className="mx-auto grid w-full max-w-md flex-1 content-start gap-6 px-3 py-8 sm:py-12">
        <FirstAdminHint />
        <AuthCard title={title} description={role === 'admin' ? t('staff.login.adminDescription') : t('staff.login.agentDescription')}>
          <div className="grid gap-5">
            <SuccessAlert message={success} />
            {step === 'details' ? (
              <>
                <form onSubmit={submitDetails} className="grid gap-4" noValidate>
                  <FormField label={role === 'admin' ? t('staff.login.username') : t('staff.login.email')} error={errors.email?.message}>
                    <Input type="email" autoComplete="username" maxLength={150} {...form.register('email')} />
                  </FormField>
                  {role === 'admin' && (
                    <FormField label={t('staff.login.password')} error={errors.password?.message}>
                      <Input type="password" autoComplete="current-password" maxLength={200} {...form.register('password')} />
                    </FormField>
                  )}
                  <Button type="submit" disabled={sending}>
                    {sending ? t('signIn.submitting') : t('signIn.submit')}
                  </Button>
                </form>
                <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden="true">
                  <span className="h-px flex-1 bg-border" />
                  {t('signIn.or')}
                  <span className="h-px flex-1 bg-border" />
                </div>
                <GoogleButton onCredential={onGoogle} text="signin_with" />
              </>
            ) : (
              <CodeStep
                prompt={t('staff.login.otpPrompt')}
                label={t('staff.login.securityCode')}
                onSubmit={submitCode}
                redirecting={redirecting}
                onBack={() => {
                  setStep('details');
                  verifies.admin.reset();
                  verifies.agent.reset();
                }}
              />
            )}
          </div>
        </AuthCard>
      </main>
    </div>
  );
}
