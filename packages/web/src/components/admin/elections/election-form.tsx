import { useId } from 'react';
import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { CreateElectionBody, RESULTS_VISIBILITY, type ResultsVisibility } from '@kura/contract';
import { FormField, FormFooter, setServerErrors, useZodForm } from '@/components/forms';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { Textarea } from '@/components/ui/textarea';
import { useBranches } from '@/hooks/use-admin-lists';
import { toast } from '@/hooks/use-toast';
import { fieldErrorsOf } from '@/lib/errors';
import { useCreateElection } from '@/lib/mutations';
import { fromZonedInput, timeZoneLabel } from '@/lib/zoned-time';
import { useT, type MessageKey } from '@/i18n';

const fields = CreateElectionBody.innerType().shape;

/** The visibility modes as the new-election form names them (SECURITY.md "Results visibility"). */
export const VISIBILITY_KEY: Record<ResultsVisibility, MessageKey> = {
  live: 'admin.schedule.live',
  staff: 'admin.schedule.staff',
  after_close: 'admin.schedule.afterClose',
};

export const CHOOSE_BRANCH = 'Choose at least one branch';

/**
 * The new-election form: the contract's title and description rules; the schedule as wall-clock
 * times in the organisation's zone (sent as ISO with the offset); the electorate every member or
 * the chosen branches.
 */
export const newElectionSchema = z
  .object({
    title: fields.title,
    description: z.string().trim().max(2000, 'Must be at most 2000 characters long'),
    opens_at: z.string(),
    closes_at: z.string(),
    results_visibility: fields.results_visibility.unwrap(),
    electorate: z.enum(['all', 'branches']),
    branch_ids: z.array(z.number().int()),
  })
  .refine((v) => v.electorate === 'all' || v.branch_ids.length > 0, { message: CHOOSE_BRANCH, path: ['branch_ids'] });
export type NewElectionValues = z.input<typeof newElectionSchema>;

/** POST elections: on success `onDone` (the dialog closes); a refusal's field messages go on the fields. */
export function NewElectionForm({ timeZone, onDone }: { timeZone: string; onDone: () => void }) {
  const { t } = useT();
  const id = useId();
  const create = useCreateElection();
  const { branches, loading: branchesLoading } = useBranches();
  const form = useZodForm(newElectionSchema, {
    defaultValues: {
      title: '',
      description: '',
      opens_at: '',
      closes_at: '',
      results_visibility: 'live',
      electorate: 'all',
      branch_ids: [],
    },
  });
  const electorate = form.watch('electorate');

  const onSubmit = form.handleSubmit(async (v) => {
    const opens = fromZonedInput(v.opens_at, timeZone);
    const closes = fromZonedInput(v.closes_at, timeZone);
    try {
      const res = await create.mutateAsync({
        body: {
          title: v.title,
          ...(v.description ? { description: v.description } : {}),
          ...(opens ? { opens_at: opens } : {}),
          ...(closes ? { closes_at: closes } : {}),
          results_visibility: v.results_visibility,
          electorate: { branch_ids: v.electorate === 'all' ? null : v.branch_ids },
        },
      });
      toast({ variant: 'success', title: t('elections.created', { title: res.body.data.title }) });
      onDone();
    } catch (err) {
      // the hook toasted it; its field messages go under the fields
      setServerErrors(form, fieldErrorsOf(err));
    }
  });

  const errors = form.formState.errors;
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4">
      <FormField label={t('elections.field.title')} error={errors.title?.message}>
        <Input autoComplete="off" {...form.register('title')} />
      </FormField>
      <FormField label={t('elections.field.description')} error={errors.description?.message}>
        <Textarea rows={3} {...form.register('description')} />
      </FormField>
      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">{t('elections.field.schedule')}</legend>
        <p className="text-sm text-muted-foreground" id={`${id}-zone`}>
          {t('elections.field.scheduleHint', { zone: timeZoneLabel(timeZone) })}
        </p>
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField label={t('admin.schedule.opens')} error={errors.opens_at?.message}>
            <Input type="datetime-local" step={1} {...form.register('opens_at')} />
          </FormField>
          <FormField label={t('admin.schedule.closes')} error={errors.closes_at?.message}>
            <Input type="datetime-local" step={1} {...form.register('closes_at')} />
          </FormField>
        </div>
      </fieldset>
      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">{t('admin.schedule.visibility')}</legend>
        <Controller
          control={form.control}
          name="results_visibility"
          render={({ field }) => (
            <RadioGroup value={field.value} onValueChange={(v) => field.onChange(v as ResultsVisibility)} className="grid gap-3">
              {RESULTS_VISIBILITY.map((mode) => (
                <span key={mode} className="flex items-start gap-2">
                  <RadioGroupItem id={`${id}-${mode}`} value={mode} className="mt-0.5" />
                  <Label htmlFor={`${id}-${mode}`} className="font-normal leading-snug">
                    {t(VISIBILITY_KEY[mode])}
                  </Label>
                </span>
              ))}
            </RadioGroup>
          )}
        />
      </fieldset>
      <fieldset className="grid gap-2" aria-describedby={errors.branch_ids ? `${id}-branches-error` : undefined}>
        <legend className="text-sm font-medium">{t('elections.field.electorate')}</legend>
        <Controller
          control={form.control}
          name="electorate"
          render={({ field }) => (
            <RadioGroup value={field.value} onValueChange={(v) => field.onChange(v)} className="grid gap-3">
              <span className="flex items-center gap-2">
                <RadioGroupItem id={`${id}-all`} value="all" />
                <Label htmlFor={`${id}-all`} className="font-normal">
                  {t('elections.field.everyMember')}
                </Label>
              </span>
              <span className="flex items-center gap-2">
                <RadioGroupItem id={`${id}-branches`} value="branches" />
                <Label htmlFor={`${id}-branches`} className="font-normal">
                  {t('elections.field.chosenBranches')}
                </Label>
              </span>
            </RadioGroup>
          )}
        />
        {electorate === 'branches' && (
          <Controller
            control={form.control}
            name="branch_ids"
            render={({ field }) => (
              <ul className="ml-7 grid gap-2" aria-label={t('elections.field.branches')}>
                {branchesLoading && <li className="text-sm text-muted-foreground">{t('admin.branch.loading')}</li>}
                {!branchesLoading && branches.length === 0 && <li className="text-sm text-muted-foreground">{t('admin.branches.none')}</li>}
                {branches.map((b) => (
                  <li key={b.id} className="flex items-center gap-2">
                    <Checkbox
                      id={`${id}-branch-${b.id}`}
                      checked={field.value.includes(b.id)}
                      onCheckedChange={(on) =>
                        field.onChange(on === true ? [...field.value, b.id] : field.value.filter((x: number) => x !== b.id))
                      }
                    />
                    <Label htmlFor={`${id}-branch-${b.id}`} className="font-normal">
                      {b.name}
                    </Label>
                  </li>
                ))}
              </ul>
            )}
          />
        )}
        {errors.branch_ids?.message && (
          <p id={`${id}-branches-error`} role="alert" className="text-sm text-destructive">
            {t('elections.field.chooseBranch')}
          </p>
        )}
      </fieldset>
      <FormFooter pending={create.isPending} submitLabel={t('elections.create')} pendingLabel={t('common.saving')} onCancel={onDone} />
    </form>
  );
}
