import { useEffect, useId, useRef } from 'react';
import { z } from 'zod';
import { UpdateElectionBody } from '@kura/contract';
import { FormField, FormFooter, useZodForm } from '@/components/forms';
import { Input } from '@/components/ui/input';
import { toast } from '@/hooks/use-toast';
import { useElection } from '@/lib/election';
import { useUpdateElection } from '@/lib/mutations';
import { useT } from '@/i18n';
import { useElectionParam } from '@/lib/election-search';

const election = UpdateElectionBody.innerType().shape;
/** An empty optional field is sent as null (no website, no support email). */
const blankIsNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/** The organisation texts, checked by the contract's rules for PUT election. */
export const organisationSchema = z.object({
  title: election.title.unwrap(),
  organisation: election.organisation.unwrap(),
  website: z.preprocess(blankIsNull, election.website.unwrap()),
  support_email: z.preprocess(blankIsNull, election.support_email.unwrap()),
});

export function OrganisationForm() {
  const { t } = useT();
  const id = useId();
  const chosen = useElectionParam();
  const { election: current } = useElection(chosen);
  const update = useUpdateElection(t('admin.org.saveError'), chosen);
  const form = useZodForm(organisationSchema, { defaultValues: { title: '', organisation: '', website: '', support_email: '' } });
  const loaded = useRef(false);
  // Filled once from the server, so a late answer never overwrites what the admin typed.
  useEffect(() => {
    if (!current || loaded.current) return;
    loaded.current = true;
    form.reset({
      title: current.title,
      organisation: current.organisation,
      website: current.website ?? '',
      support_email: current.support_email ?? '',
    });
  }, [current, form]);

  const onSubmit = form.handleSubmit(async (body) => {
    try {
      await update.mutateAsync({ body });
      toast({ variant: 'success', title: t('admin.org.saved') });
    } catch {
      // the hook showed the failure
    }
  });

  const errors = form.formState.errors;
  return (
    <section aria-labelledby={`${id}-h`} className="rounded-lg border border-border bg-card p-4 shadow-sm">
      <h2 id={`${id}-h`} className="mb-3 text-lg font-semibold">
        {t('admin.org.heading')}
      </h2>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-3 sm:grid-cols-2">
        <FormField label={t('admin.org.title')} error={errors.title?.message}>
          <Input {...form.register('title')} />
        </FormField>
        <FormField label={t('admin.org.name')} error={errors.organisation?.message}>
          <Input {...form.register('organisation')} />
        </FormField>
        <FormField label={t('admin.org.website')} error={errors.website?.message}>
          <Input type="url" {...form.register('website')} />
        </FormField>
        <FormField label={t('admin.org.supportEmail')} error={errors.support_email?.message}>
          <Input type="email" {...form.register('support_email')} />
        </FormField>
        <FormFooter
          pending={update.isPending}
          submitLabel={t('admin.org.save')}
          pendingLabel={t('common.saving')}
          className="sm:col-span-2 sm:justify-start"
        />
      </form>
    </section>
  );
}
