import { useEffect, useId, useRef } from 'react';
import { z } from 'zod';
import { UpdateElectionBody, UpdateOrganisationBody } from '@kura/contract';
import { FormField, FormFooter, useZodForm } from '@/components/forms';
import { Input } from '@/components/ui/input';
import { toast } from '@/hooks/use-toast';
import { useElection } from '@/lib/election';
import { useUpdateElection, useUpdateOrganisation } from '@/lib/mutations';
import { LANGUAGE_NAMES, SHIPPED_LANGUAGES, useT } from '@/i18n';

const election = UpdateElectionBody.innerType().shape;
/** An empty optional field is sent as null (no website, no support email). */
const blankIsNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/** The organisation texts, checked by the contract's rules for PUT election. */
export const organisationSchema = z.object({
  title: election.title.unwrap(),
  organisation: election.organisation.unwrap(),
  website: z.preprocess(blankIsNull, election.website.unwrap()),
  support_email: z.preprocess(blankIsNull, election.support_email.unwrap()),
  /** PUT organisation: the language of members who chose none (docs/api.md "Languages"). */
  default_language: UpdateOrganisationBody.shape.default_language.unwrap(),
});

export function OrganisationForm() {
  const { t } = useT();
  const id = useId();
  const { election: current } = useElection();
  const update = useUpdateElection(t('admin.org.saveError'));
  const updateOrganisation = useUpdateOrganisation(t('admin.org.saveError'));
  const form = useZodForm(organisationSchema, {
    defaultValues: { title: '', organisation: '', website: '', support_email: '', default_language: 'en' },
  });
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
      default_language: current.default_language === 'sw' ? 'sw' : 'en',
    });
  }, [current, form]);

  const onSubmit = form.handleSubmit(async ({ default_language, ...body }) => {
    try {
      await update.mutateAsync({ body });
      if (default_language !== (current?.default_language ?? 'en')) await updateOrganisation.mutateAsync({ body: { default_language } });
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
        <FormField
          label={t('admin.org.defaultLanguage')}
          description={t('admin.org.defaultLanguageHint')}
          error={errors.default_language?.message}
        >
          <select className="h-9 rounded-md border border-input bg-background px-2 text-sm" {...form.register('default_language')}>
            {SHIPPED_LANGUAGES.map((code) => (
              <option key={code} value={code} lang={code}>
                {LANGUAGE_NAMES[code]}
              </option>
            ))}
          </select>
        </FormField>
        <FormFooter
          pending={update.isPending || updateOrganisation.isPending}
          submitLabel={t('admin.org.save')}
          pendingLabel={t('common.saving')}
          className="sm:col-span-2 sm:justify-start"
        />
      </form>
    </section>
  );
}
