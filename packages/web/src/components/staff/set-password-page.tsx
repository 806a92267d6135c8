import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { SetStaffPasswordBody } from '@kura/contract';
import { z } from 'zod';
import { AuthCard } from '@/components/auth/auth-card';
import { FormField, useZodForm } from '@/components/forms';
import { PublicLayout } from '@/components/layout/public-layout';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/errors';
import { useSetStaffPassword } from '@/lib/mutations';
import { says, useT } from '@/i18n';

const schema = z
  .object({ password: SetStaffPasswordBody.shape.password, repeat: z.string() })
  .refine((v) => v.password === v.repeat, says('setPassword.mismatch', ['repeat']));

/** The token of the link in a new admin's e-mail: in the address's fragment (`#token=…`), which no server sees. */
export function tokenFromHash(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}

/** A new admin sets their password with the e-mailed link (POST staff/password), then signs in at the admin login. */
export function SetPasswordPage() {
  const { t, tReceived } = useT();
  const [token] = useState(() => tokenFromHash(window.location.hash));
  const set = useSetStaffPassword();
  const [done, setDone] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useZodForm(schema, { defaultValues: { password: '', repeat: '' } });
  const onSubmit = form.handleSubmit(async ({ password }) => {
    setProblem(null);
    try {
      await set.mutateAsync({ body: { token, password } });
      setDone(true);
    } catch (err) {
      setProblem(errorMessage(err) ?? t('common.somethingWrong'));
    }
  });
  const errors = form.formState.errors;
  return (
    <PublicLayout>
      <div className="mx-auto w-full max-w-md py-8">
        <AuthCard title={t('setPassword.title')} description={t('setPassword.description')}>
          {done ? (
            <div className="grid gap-4">
              <p role="status">{t('setPassword.done')}</p>
              <Link to="/admin/login" className="font-medium underline">
                {t('setPassword.toLogin')}
              </Link>
            </div>
          ) : !token ? (
            <p role="alert" className="text-sm text-destructive">
              {t('setPassword.noToken')}
            </p>
          ) : (
            <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4">
              <FormField label={t('setPassword.password')} description={t('setPassword.hint')} error={errors.password?.message}>
                <Input type="password" autoComplete="new-password" maxLength={200} {...form.register('password')} />
              </FormField>
              <FormField label={t('setPassword.repeat')} error={errors.repeat?.message}>
                <Input type="password" autoComplete="new-password" maxLength={200} {...form.register('repeat')} />
              </FormField>
              {problem && (
                <p role="alert" className="text-sm text-destructive">
                  {tReceived(problem)}
                </p>
              )}
              <Button type="submit" disabled={set.isPending}>
                {set.isPending ? t('common.saving') : t('setPassword.submit')}
              </Button>
            </form>
          )}
        </AuthCard>
      </div>
    </PublicLayout>
  );
}
