import { useEffect, useId, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { UpdateOrganisationBody } from '@kura/contract';
import { FieldError, FormField, FormFooter, setServerErrors, useZodForm } from '@/components/forms';
import { Label } from '@/components/ui/label';
import { ErrorState, Loading } from '@/components/layout/page-states';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/hooks/use-toast';
import { fieldErrorsOf } from '@/lib/errors';
import { useUpdateOrganisation } from '@/lib/mutations';
import { queries } from '@/lib/queries';
import { knownTimeZones } from '@/lib/zoned-time';
import { isShipped, LANGUAGE_NAMES, SHIPPED_LANGUAGES, useT } from '@/i18n';
import { useElectionName } from '@/components/staff/election-switcher';

const org = UpdateOrganisationBody.shape;
/** An empty optional field is sent as null (no website, no support e-mail). */
const blankIsNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
/** The select's value for "no current election set": the server picks (the only open one, else the newest). */
export const AUTOMATIC = 'auto';

/**
 * The organisation's form, checked by the contract's rules for PUT organisation: its texts, time
 * zone, current election and default language.
 */
export const organisationSchema = z.object({
  name: org.name.unwrap(),
  website: z.preprocess(blankIsNull, org.website.unwrap()),
  support_email: z.preprocess(blankIsNull, org.support_email.unwrap()),
  time_zone: org.time_zone.unwrap(),
  current_election: z.string(),
  /** The language of members who chose none (docs/api.md "Languages"). */
  default_language: org.default_language.unwrap(),
});
type OrganisationValues = z.input<typeof organisationSchema>;

/**
 * The admin's Organisation page (docs/api.md "Many elections"): the texts every election shows
 * (name, website, support e-mail), the time zone the schedules are read in, the current
 * election (what every page and call without `?election=` shows), from the elections not archived,
 * and the default language (docs/api.md "Languages").
 */
export function OrganisationPage() {
  const { t } = useT();
  const id = useId();
  const organisation = useQuery(queries.organisation());
  const elections = useQuery(queries.elections());
  const update = useUpdateOrganisation();
  const name = useElectionName();
  const [zones] = useState(knownTimeZones);
  const form = useZodForm(organisationSchema, {
    defaultValues: { name: '', website: '', support_email: '', time_zone: 'UTC', current_election: AUTOMATIC, default_language: 'en' },
  });
  const loaded = useRef(false);
  const data = organisation.data?.body.data;
  // Filled once from the server, so a late answer never overwrites what the admin typed.
  useEffect(() => {
    if (!data || loaded.current) return;
    loaded.current = true;
    form.reset({
      name: data.name,
      website: data.website ?? '',
      support_email: data.support_email ?? '',
      time_zone: data.time_zone,
      current_election: data.current_election_id === null ? AUTOMATIC : String(data.current_election_id),
      default_language: isShipped(data.default_language) ? data.default_language : 'en',
    } satisfies OrganisationValues);
  }, [data, form]);

  const onSubmit = form.handleSubmit(async ({ current_election, ...texts }) => {
    try {
      await update.mutateAsync({
        body: { ...texts, current_election_id: current_election === AUTOMATIC ? null : Number(current_election) },
      });
      toast({ variant: 'success', title: t('organisation.saved') });
    } catch (err) {
      // the hook toasted it; a field's message goes under the field
      const fields = fieldErrorsOf(err);
      const { current_election_id: current, ...rest } = fields;
      setServerErrors(form, current ? { ...rest, current_election: current } : rest);
    }
  });

  if (organisation.isPending) return <Loading label={t('common.loading')} />;
  if (organisation.isError) return <ErrorState>{t('organisation.loadError')}</ErrorState>;

  // Only an election that is not archived may be the current one (the server refuses others: 422).
  const choices = (elections.data?.body.data ?? []).filter((e) => e.id !== undefined && !e.archived);
  const errors = form.formState.errors;
  return (
    <section aria-labelledby={`${id}-h`} className="rounded-lg border border-border bg-card p-4 shadow-sm">
      <h2 id={`${id}-h`} className="mb-3 text-lg font-semibold">
        {t('organisation.heading')}
      </h2>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4 sm:grid-cols-2">
        <FormField label={t('admin.org.name')} error={errors.name?.message}>
          <Input autoComplete="organization" {...form.register('name')} />
        </FormField>
        <FormField label={t('admin.org.website')} error={errors.website?.message}>
          <Input type="url" {...form.register('website')} />
        </FormField>
        <FormField label={t('admin.org.supportEmail')} error={errors.support_email?.message}>
          <Input type="email" {...form.register('support_email')} />
        </FormField>
        <FormField label={t('admin.schedule.zone')} description={t('organisation.zoneHint')} error={errors.time_zone?.message}>
          <Input list={`${id}-zones`} autoComplete="off" {...form.register('time_zone')} />
        </FormField>
        <datalist id={`${id}-zones`}>
          {zones.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        <Controller
          control={form.control}
          name="current_election"
          render={({ field }) => (
            <div className="grid gap-2 sm:col-span-2 sm:max-w-md">
              <Label htmlFor={`${id}-current`}>{t('organisation.current')}</Label>
              <Select value={field.value} onValueChange={field.onChange}>
                <SelectTrigger
                  id={`${id}-current`}
                  aria-describedby={[`${id}-current-hint`, errors.current_election ? `${id}-current-error` : ''].join(' ').trim()}
                  aria-invalid={errors.current_election ? true : undefined}
                >
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={AUTOMATIC}>{t('organisation.automatic')}</SelectItem>
                  {choices.map((e) => (
                    <SelectItem key={e.id} value={String(e.id)}>
                      {name(e)}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <p id={`${id}-current-hint`} className="text-sm text-muted-foreground">
                {t('organisation.currentHint')}
              </p>
              <FieldError id={`${id}-current-error`} message={errors.current_election?.message} />
            </div>
          )}
        />
        <FormField
          label={t('admin.org.defaultLanguage')}
          description={t('admin.org.defaultLanguageHint')}
          error={errors.default_language?.message}
          className="sm:col-span-2 sm:max-w-md"
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
          pending={update.isPending}
          submitLabel={t('organisation.save')}
          pendingLabel={t('common.saving')}
          className="sm:col-span-2 sm:justify-start"
        />
      </form>
    </section>
  );
}
