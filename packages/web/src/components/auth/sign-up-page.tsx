import { useId, useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { CheckCircle2 } from 'lucide-react';
import { GOOGLE_BUTTON_MESSAGE, phoneSchema, said, voterIdSchema } from '@kura/contract';
import { AuthCard } from '@/components/auth/auth-card';
import { CodeStep } from '@/components/auth/code-step';
import { ConsentField } from '@/components/auth/consent-field';
import { GoogleButton } from '@/components/auth/google-button';
import { FieldError, FormField, useZodForm } from '@/components/forms';
import { PublicLayout } from '@/components/layout/public-layout';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toast } from '@/hooks/use-toast';
import { consentField } from '@/lib/identifier';
import { useSignup, useVerifySignup } from '@/lib/mutations';
import { decodeIdToken, type GoogleCredentialResponse, type GoogleProfile } from '@/lib/google';
import { config } from '@/lib/config';
import { useElection } from '@/lib/election';
import { setPfNumber } from '@/lib/session';
import { t, useT } from '@/i18n';

const schema = z.object({
  pfNumber: z
    .string()
    .trim()
    .min(1, said('field.minLength', { n: 4 }))
    .pipe(voterIdSchema),
  phone: z
    .string()
    .trim()
    .min(1, said('field.minLength', { n: 10 }))
    .pipe(phoneSchema),
  consent: consentField,
});

export function SignUp() {
  const { tReceived } = useT();
  const navigate = useNavigate();
  const consentId = useId();
  const [google, setGoogle] = useState<{ credential: string; profile: GoogleProfile | null } | null>(null);
  const [googleError, setGoogleError] = useState<string | null>(null);
  /** After the details: the code texted to the member's registered phone links the account. */
  const [codeSent, setCodeSent] = useState<{ message: string; pfNumber: string } | null>(null);
  const signup = useSignup();
  const verifySignup = useVerifySignup();

  const form = useZodForm(schema, { mode: 'onChange', defaultValues: { pfNumber: '', phone: '', consent: false } });
  const errors = form.formState.errors;

  const onGoogle = (response: GoogleCredentialResponse) => {
    setGoogle({ credential: response.credential, profile: decodeIdToken(response.credential) });
    setGoogleError(null);
  };

  const submit = form.handleSubmit(async (values) => {
    if (!google) {
      setGoogleError(GOOGLE_BUTTON_MESSAGE);
      return;
    }
    const p = google.profile;
    try {
      const res = await signup.mutateAsync({
        body: {
          pfNumber: values.pfNumber.trim(),
          phone: values.phone.trim(),
          name: p?.name || undefined,
          email: p?.email || undefined,
          email_verified: p?.email_verified,
          photo: p?.picture || undefined,
          google_id: p?.sub || undefined,
          credential: google.credential,
        },
      });
      setCodeSent({ message: res.body.message, pfNumber: res.body.pfNumber || values.pfNumber.trim() });
    } catch {
      // A Google sign-in is accepted once: whatever happened, the next try needs the button again.
      setGoogle(null);
    }
  });

  const submitCode = async (token: string) => {
    const res = await verifySignup.mutateAsync({ body: { token } }).catch(() => null);
    if (!res) return;
    setPfNumber(res.body.pfNumber || codeSent?.pfNumber || '');
    toast({ variant: 'success', title: tReceived(res.body.message) || t('signUp.created'), description: t('signUp.canSignIn') });
    void navigate({ to: '/sign-in' });
  };

  const backToDetails = () => {
    setCodeSent(null);
    setGoogle(null);
    verifySignup.reset();
  };

  return (
    <PublicLayout>
      <AuthCard title={t('signUp.title')} description={t('signUp.description')}>
        {config.googleClientId ? null : <SignUpWithoutGoogle />}
        {codeSent && (
          <div className="grid gap-4">
            <CodeStep prompt={tReceived(codeSent.message)} label={t('signUp.smsCode')} onSubmit={submitCode} onBack={backToDetails} />
          </div>
        )}
        <form hidden={!config.googleClientId || Boolean(codeSent)} onSubmit={submit} className="grid gap-4" noValidate>
          <FormField label={t('signUp.voterId')} error={errors.pfNumber?.message}>
            <Input inputMode="numeric" maxLength={10} {...form.register('pfNumber')} />
          </FormField>
          <FormField label={t('signUp.phone')} error={errors.phone?.message}>
            <Input type="tel" inputMode="numeric" autoComplete="tel" maxLength={16} {...form.register('phone')} />
          </FormField>
          <div className="grid gap-2">
            {google ? (
              <p className="flex items-center gap-2 text-sm text-green-800" role="status">
                <CheckCircle2 className="size-4" aria-hidden="true" />
                {google.profile?.email ? t('signUp.googleSelectedAs', { email: google.profile.email }) : t('signUp.googleSelected')}
              </p>
            ) : (
              <GoogleButton onCredential={onGoogle} text="signup_with" />
            )}
            <FieldError id="google-error" message={googleError} />
          </div>
          <Controller
            control={form.control}
            name="consent"
            render={({ field }) => (
              <ConsentField id={consentId} checked={field.value} onChange={field.onChange} error={errors.consent?.message} />
            )}
          />
          <Button type="submit" disabled={signup.isPending}>
            {signup.isPending ? t('signUp.submitting') : t('signUp.submit')}
          </Button>
          <p className="text-center text-sm">
            {t('signUp.haveAccount')}{' '}
            <Link to="/sign-in" className="text-primary underline underline-offset-2">
              {t('signUp.signIn')}
            </Link>
          </p>
        </form>
      </AuthCard>
    </PublicLayout>
  );
}

export const SIGN_UP_UNAVAILABLE = 'Sign-up needs a Google account, and Google sign-in has not been set up on this server.';

/** Without Google, sign-up cannot work: say so, and what to do instead. */
function SignUpWithoutGoogle() {
  const { tRich } = useT();
  const { texts } = useElection();
  const link = 'text-primary underline underline-offset-2';
  return (
    <div role="note" className="grid gap-3 rounded-md border border-border bg-muted px-4 py-3 text-sm">
      <p className="font-medium">{t('signUp.unavailable')}</p>
      <p>{t('signUp.noNeed', { organisation: texts.organisation || t('signIn.yourOrganisation') })}</p>
      <ul className="grid list-disc gap-1 pl-5">
        <li>
          {tRich('signUp.insteadSignIn', {
            link: (chunks) => (
              <Link to="/sign-in" className={link}>
                {chunks}
              </Link>
            ),
          })}
        </li>
        <li>
          {tRich('signUp.insteadVerify', {
            link: (chunks) => (
              <Link to="/verify" className={link}>
                {chunks}
              </Link>
            ),
          })}
        </li>
        {texts.supportEmail && (
          <li>
            {tRich('signUp.stillStuck', {
              email: (
                <a href={`mailto:${texts.supportEmail}`} className={link}>
                  {texts.supportEmail}
                </a>
              ),
            })}
          </li>
        )}
      </ul>
    </div>
  );
}
