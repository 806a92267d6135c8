import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { UpdateOwnStaffBody } from '@kura/contract';
import { FormField, useStoredValues, useZodForm } from '@/components/forms';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Loading } from '@/components/layout/page-states';
import { toast } from '@/hooks/use-toast';
import { errorMessage, fieldErrorsOf } from '@/lib/errors';
import { useUpdateOwnStaff } from '@/lib/mutations';
import { queries } from '@/lib/queries';
import { useT } from '@/i18n';

/** PATCH staff/me: the signed-in admin's or agent's own display name (shown in the activity log and to others). */
export function OwnNameForm() {
  const { t } = useT();
  const own = useQuery(queries.ownStaff());
  const stored = own.data ? { name: own.data.body.data.name ?? '' } : undefined;
  // The field appears with the stored name in it: one shown empty while the name loads would take
  // typing that the stored name then lands on (typed "Grace" saved as "e2e-adminGrace").
  if (!stored) {
    return (
      <section aria-labelledby="own-name-heading" aria-busy="true" className="grid gap-3 rounded-lg border border-border bg-card p-4">
        <h2 id="own-name-heading" className="text-base font-semibold">
          {t('staffPage.ownName')}
        </h2>
        <Loading label={t('common.loading')} />
      </section>
    );
  }
  return <OwnNameFields stored={stored} />;
}

function OwnNameFields({ stored }: { stored: { name: string } }) {
  const { t, tReceived } = useT();
  const update = useUpdateOwnStaff();
  const form = useZodForm(UpdateOwnStaffBody, { defaultValues: stored });
  useStoredValues(form, stored);
  const [problem, setProblem] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (body) => {
    setProblem(null);
    try {
      const res = await update.mutateAsync({ body });
      form.reset({ name: res.body.data.name ?? '' });
      toast({ variant: 'success', title: t('staffPage.nameSaved') });
    } catch (err) {
      const fields = fieldErrorsOf(err);
      if (fields.name) form.setError('name', { type: 'server', message: fields.name });
      else setProblem(errorMessage(err) ?? t('common.somethingWrong'));
    }
  });
  return (
    <section aria-labelledby="own-name-heading" className="grid gap-3 rounded-lg border border-border bg-card p-4">
      <h2 id="own-name-heading" className="text-base font-semibold">
        {t('staffPage.ownName')}
      </h2>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-wrap items-end gap-2">
        <FormField
          label={t('staffPage.field.displayName')}
          description={t('staffPage.ownNameHint')}
          error={form.formState.errors.name?.message}
          className="min-w-64 flex-1"
        >
          <Input autoComplete="name" maxLength={100} {...form.register('name')} />
        </FormField>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? t('common.saving') : t('staffPage.saveName')}
        </Button>
      </form>
      {problem && (
        <p role="alert" className="text-sm text-destructive">
          {tReceived(problem)}
        </p>
      )}
    </section>
  );
}
