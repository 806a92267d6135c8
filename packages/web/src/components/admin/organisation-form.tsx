import { useId, useState } from 'react';
import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { UpdateElectionBody, UpdateOrganisationBody, type Election } from '@kura/contract';
import {
  FieldError,
  FormField,
  FormFooter,
  setServerErrors,
  StoredChangedNote,
  useStoredValues,
  useZodForm,
  selectClass,
} from '@/components/forms';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { fieldErrorsOf } from '@/lib/errors';
import { knownTimeZones } from '@/lib/zoned-time';
import { LANGUAGE_NAMES, SHIPPED_LANGUAGES, useT } from '@/i18n';
import { useElectionName } from '@/components/staff/election-switcher';
import { Loading } from '@/components/layout/page-states';

const org = UpdateOrganisationBody.shape;
const election = UpdateElectionBody.innerType().shape;
/** An empty optional field is sent as null (no website, no support e-mail). */
const blankIsNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
/** The select's value for "no current election set": the server picks (the only open one, else the newest). */
export const AUTOMATIC = 'auto';

/**
 * The organisation's form, checked by the contract's rules (PUT organisation's; PUT election takes
 * the same texts by the same rules): its name, website and support e-mail; on Set-up the
 * election's title before them; on the Organisation page its time zone, current election and
 * default language after them. A field the place does not show is absent from its values and
 * not checked.
 */
export const organisationSchema = z.object({
  title: election.title.unwrap().optional(),
  name: org.name.unwrap(),
  website: z.preprocess(blankIsNull, org.website.unwrap()),
  support_email: z.preprocess(blankIsNull, org.support_email.unwrap()),
  time_zone: org.time_zone.unwrap().optional(),
  current_election: z.string().optional(),
  /** The language of members who chose none (docs/api.md "Languages"). */
  default_language: org.default_language.unwrap().optional(),
  /** The member-number format (docs/api.md "Register formats"): empty, the default rule. */
  member_no_pattern: org.member_no_pattern.unwrap().optional(),
});
export type OrganisationValues = z.input<typeof organisationSchema>;
export type OrganisationSaved = z.output<typeof organisationSchema>;

/** A refusal's field names that differ from the form's: PUT election's `organisation`, PUT organisation's `current_election_id`. */
const FORM_FIELD: Record<string, keyof OrganisationValues> = { organisation: 'name', current_election_id: 'current_election' };

const EMPTY = {
  election: { title: '', name: '', website: '', support_email: '' },
  organisation: {
    name: '',
    website: '',
    support_email: '',
    time_zone: 'UTC',
    current_election: AUTOMATIC,
    default_language: 'en',
    member_no_pattern: '',
  },
} satisfies Record<string, OrganisationValues>;

type Props = {
  heading: string;
  submitLabel: string;
  /** The values read from the server, undefined until then: the form follows them while nothing is typed, never over what the admin typed (useStoredValues). */
  stored: OrganisationValues | undefined;
  pending: boolean;
  /**
   * Sends the values and says so; on a refusal it throws (the mutation hook toasted it) and the
   * refusal's field messages go under their fields.
   */
  onSave: (values: OrganisationSaved) => Promise<void>;
} & (
  | /** Set-up: the election's title and the organisation's texts (PUT election). */ { fields: 'election' }
    /** The Organisation page: the texts, the time zone, the current election (Automatic, or one of `elections` not archived) and the default language (PUT organisation). */
  | { fields: 'organisation'; elections: Election[] }
);

/**
 * The one form of the organisation's texts (docs/screens.md): Set-up's Organisation section and
 * the Organisation page render it, each with its own fields around the shared texts, its request
 * and its words.
 */
export function OrganisationForm(props: Props) {
  const { heading, submitLabel, stored, pending, onSave, fields } = props;
  const { t } = useT();
  const id = useId();
  const name = useElectionName();
  const [zones] = useState(knownTimeZones);
  const form = useZodForm(organisationSchema, { defaultValues: EMPTY[fields] });
  // Filled from the server and again each time it is read anew, but never over what the admin is typing.
  const changedElsewhere = useStoredValues(form, stored);

  const onSubmit = form.handleSubmit(async (values) => {
    const sent = form.getValues();
    try {
      await onSave(values);
      // clean again, with what was saved: the values read anew fill the fields from here on
      form.reset(sent);
    } catch (err) {
      // the hook toasted it; a field's message goes under the field
      const messages = Object.entries(fieldErrorsOf(err)).map(([field, message]) => [FORM_FIELD[field] ?? field, message]);
      setServerErrors(form, Object.fromEntries(messages));
    }
  });

  // Only an election that is not archived may be the current one (the server refuses others: 422).
  const choices = props.fields === 'organisation' ? props.elections.filter((e) => e.id !== undefined && !e.archived) : [];
  const errors = form.formState.errors;
  // The fields appear with the stored values in them (useStoredValues): not empty and typed into while they load.
  if (!stored) {
    return (
      <section aria-labelledby={`${id}-h`} className="rounded-lg border border-border bg-card p-4 shadow-sm">
        <h2 id={`${id}-h`} className="mb-3 text-lg font-semibold">
          {heading}
        </h2>
        <Loading label={t('common.loading')} />
      </section>
    );
  }
  return (
    <section aria-labelledby={`${id}-h`} className="rounded-lg border border-border bg-card p-4 shadow-sm">
      <h2 id={`${id}-h`} className="mb-3 text-lg font-semibold">
        {heading}
      </h2>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4 sm:grid-cols-2">
        {fields === 'election' && (
          <FormField label={t('admin.org.title')} error={errors.title?.message}>
            <Input {...form.register('title')} />
          </FormField>
        )}
        <FormField label={t('admin.org.name')} error={errors.name?.message}>
          <Input autoComplete="organization" {...form.register('name')} />
        </FormField>
        <FormField label={t('admin.org.website')} error={errors.website?.message}>
          <Input type="url" {...form.register('website')} />
        </FormField>
        <FormField label={t('admin.org.supportEmail')} error={errors.support_email?.message}>
          <Input type="email" {...form.register('support_email')} />
        </FormField>
        {fields === 'organisation' && (
          <>
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
              <select className={selectClass} {...form.register('default_language')}>
                {SHIPPED_LANGUAGES.map((code) => (
                  <option key={code} value={code} lang={code}>
                    {LANGUAGE_NAMES[code]}
                  </option>
                ))}
              </select>
            </FormField>
            <FormField
              label={t('organisation.memberNoPattern')}
              description={t('organisation.memberNoPatternHint')}
              error={errors.member_no_pattern?.message}
              className="sm:col-span-2 sm:max-w-md"
            >
              <Input autoComplete="off" spellCheck={false} className="font-mono" {...form.register('member_no_pattern')} />
            </FormField>
          </>
        )}
        <StoredChangedNote show={changedElsewhere} className="sm:col-span-2" />
        <FormFooter
          pending={pending}
          submitLabel={submitLabel}
          pendingLabel={t('common.saving')}
          className="sm:col-span-2 sm:justify-start"
        />
      </form>
    </section>
  );
}
