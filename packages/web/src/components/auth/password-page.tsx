import { useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { said } from '@kura/contract';
import { AuthCard } from '@/components/auth/auth-card';
import { FormField, useZodForm } from '@/components/forms';
import { PublicLayout } from '@/components/layout/public-layout';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { ensureCsrfCookie } from '@/lib/api';
import { errorIssue, errorMessage } from '@/lib/errors';
import { useSignPass } from '@/lib/mutations';
import { config } from '@/lib/config';
import { getPfNumber, setPfNumber } from '@/lib/session';
import { SECRET_REQUEST_DELAY_MS, sleep } from '@/lib/time';
import { t, useT } from '@/i18n';

// The contract's messages, by code: FieldError says them in the reader's language.
const passwordSchema = z.object({
  pfNumber: z.string().trim().min(1, said('field.enterMemberNumber')),
  pass: z.string().min(1, said('field.isRequired', { field: 'password' })),
});

/** Authenticator sign-in, step 1: the pin. */
export function PasswordStep() {
  const { tReceived } = useT();
  const navigate = useNavigate();
  const stored = getPfNumber();
  const [busy, setBusy] = useState(false);
  const signPass = useSignPass();
  const form = useZodForm(passwordSchema, { defaultValues: { pfNumber: stored ?? '', pass: '' } });
  const errors = form.formState.errors;

  const submit = form.handleSubmit(async ({ pfNumber, pass }) => {
    setBusy(true);
    try {
      await sleep(SECRET_REQUEST_DELAY_MS);
      await ensureCsrfCookie();
      await signPass.mutateAsync({ body: { pass, pfNumber } });
      setPfNumber(pfNumber);
      void navigate({ to: '/verify-token' });
    } catch (err) {
      form.setError('pass', { type: 'server', message: tReceived(errorIssue(err) ?? errorMessage(err)) || t('common.pleaseTryAgain') });
    } finally {
      setBusy(false);
    }
  });

  return (
    <PublicLayout>
      <AuthCard title={t('password.title')}>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          {!stored && (
            <FormField label={t('password.memberNumber')} error={errors.pfNumber?.message}>
              <Input maxLength={50} autoComplete="username" {...form.register('pfNumber')} />
            </FormField>
          )}
          <FormField label={t('password.label')} description={t('password.hint', { pin: config.defaultPin })} error={errors.pass?.message}>
            <Input type="password" autoComplete="current-password" maxLength={100} {...form.register('pass')} />
          </FormField>
          <Button type="submit" disabled={busy}>
            {busy ? t('common.checking') : t('common.continue')}
          </Button>
        </form>
      </AuthCard>
    </PublicLayout>
  );
}
