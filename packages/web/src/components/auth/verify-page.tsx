import { useState } from 'react';
import { z } from 'zod';
import type { DetailsResponse } from '@kura/contract';
import { AuthCard } from '@/components/auth/auth-card';
import { FormField, useZodForm } from '@/components/forms';
import { PublicLayout } from '@/components/layout/public-layout';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { errorMessage, firstFieldError } from '@/lib/errors';
import { useMemberDetails } from '@/lib/mutations';
import { says, t, useT } from '@/i18n';

type Details = z.infer<typeof DetailsResponse>;

const verifySchema = z.object({
  member_no: z
    .string()
    .trim()
    .refine((v) => v.length > 0, says('validation.enterMemberNumberOrEmail')),
});

export function VerifyDetails() {
  const { tRich } = useT();
  const [details, setDetails] = useState<Details | null>(null);
  const lookup = useMemberDetails();
  const form = useZodForm(verifySchema, { reValidateMode: 'onSubmit', defaultValues: { member_no: '' } });

  const submit = (e: React.FormEvent) => {
    setDetails(null);
    return form.handleSubmit(async (body) => {
      try {
        const res = await lookup.mutateAsync({ body });
        setDetails(res.body);
      } catch (err) {
        form.setError('member_no', {
          type: 'server',
          message: firstFieldError(err) ?? errorMessage(err) ?? t('common.somethingWrong'),
        });
      }
    })(e);
  };

  return (
    <PublicLayout>
      <AuthCard title={t('verify.title')} description={t('verify.description')}>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <FormField label={t('validation.enterMemberNumberOrEmail')} error={form.formState.errors.member_no?.message}>
            <Input maxLength={150} {...form.register('member_no')} />
          </FormField>
          <Button type="submit" disabled={lookup.isPending}>
            {lookup.isPending ? t('common.checking') : t('common.submit')}
          </Button>
        </form>
        <div aria-live="polite" className="mt-6">
          {details && (
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-md border border-border p-4 text-sm">
              <dt className="font-medium">{t('verify.phone')}</dt>
              <dd className="break-all">{details.phone}</dd>
              <dt className="font-medium">{t('verify.email')}</dt>
              <dd className="break-all">{details.email}</dd>
              <dt className="font-medium">{t('verify.branch')}</dt>
              <dd>{details.branch || t('verify.branchLater')}</dd>
              <dt className="font-medium">{t('verify.support')}</dt>
              <dd className="break-all">
                {tRich('verify.contact', {
                  contact: details.support_email ? (
                    <a className="text-primary underline" href={`mailto:${details.support_email}`}>
                      {details.support_email}
                    </a>
                  ) : (
                    t('verify.theOrganisation')
                  ),
                })}
              </dd>
            </dl>
          )}
        </div>
      </AuthCard>
    </PublicLayout>
  );
}
