import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CreateElectionBody, MAX_APPEAL_DAYS, said, type Election, type Rule, type UpdateElectionByIdBody } from '@kura/contract';
import { fieldMessages, FormField, FormFooter, setServerErrors, useZodForm, selectClass } from '@/components/forms';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { Textarea } from '@/components/ui/textarea';
import { useBranches } from '@/hooks/use-admin-lists';
import { toast } from '@/hooks/use-toast';
import { errorMessage, fieldErrorsOf } from '@/lib/errors';
import { useCreateElection, useUpdateElectionById } from '@/lib/mutations';
import { queries } from '@/lib/queries';
import { fromZonedInput, toZonedInput } from '@/lib/zoned-time';
import { says, t, useT } from '@/i18n';
import { ScheduleFields, scheduleShape, scheduleValues } from '../schedule-fields';
import { checkRuleRows, draftOf, RuleDraft, RuleEditor } from '../rule-editor';

const fields = CreateElectionBody.innerType().shape;

/**
 * The new-election form: the contract's title and description rules; the schedule as wall-clock
 * times in the organisation's zone (sent as ISO with the offset); the electorate every member or
 * the chosen branches, the rules every voter must meet (rows checked against the attributes on
 * submit) and, for a delegates' meeting, the election (and positions) its voters were elected in.
 */
export const newElectionSchema = z
  .object({
    title: fields.title,
    description: z
      .string()
      .trim()
      .max(2000, said('field.maxLength', { n: 2000 })),
    ...scheduleShape,
    electorate: z.enum(['all', 'branches']),
    branch_ids: z.array(z.number().int()),
    rules: z.array(RuleDraft),
    /** the election's id, '' for none */
    elected_in: z.string(),
    /** none: any position of that election */
    elected_positions: z.array(z.number().int()),
    /** docs/api.md "Nominations": whether members nominate, the window on the organisation's clock, the appeal days */
    nominations: z.boolean(),
    nominations_opens: z.string(),
    nominations_closes: z.string(),
    appeal_days: z
      .number({ invalid_type_error: said('field.mustBeNumber', { field: 'appeal_days' }) })
      .int(said('field.mustBeWhole', { field: 'appeal_days' }))
      .min(0, said('field.mustBeAtLeast', { field: 'appeal_days', n: 0 }))
      .max(MAX_APPEAL_DAYS, said('field.mustBeAtMost', { field: 'appeal_days', n: MAX_APPEAL_DAYS })),
  })
  .refine((v) => v.electorate === 'all' || v.branch_ids.length > 0, says('elections.field.chooseBranch', ['branch_ids']))
  .superRefine((v, ctx) => {
    if (!v.nominations) return;
    if (!v.nominations_opens)
      ctx.addIssue({ code: 'custom', message: t('elections.field.nominationsOpenRequired'), path: ['nominations_opens'] });
    if (!v.nominations_closes)
      ctx.addIssue({ code: 'custom', message: t('elections.field.nominationsCloseRequired'), path: ['nominations_closes'] });
    // Wall-clock times of one zone, compared as such (read as UTC: '08:00' and '08:00:00' are the same time).
    else if (
      v.nominations_opens &&
      (fromZonedInput(v.nominations_closes, 'UTC') ?? '') <= (fromZonedInput(v.nominations_opens, 'UTC') ?? '')
    )
      ctx.addIssue({ code: 'custom', message: said('field.nominationsCloseAfterOpen'), path: ['nominations_closes'] });
  });
export type NewElectionValues = z.input<typeof newElectionSchema>;

/** The form's values of an election being edited (its schedule as wall-clock times in `timeZone`). */
export function electionValues(e: Election, timeZone: string): NewElectionValues {
  const branchIds = e.electorate?.branch_ids ?? null;
  return {
    title: e.title,
    description: e.description ?? '',
    ...scheduleValues(e, timeZone),
    electorate: branchIds === null ? 'all' : 'branches',
    branch_ids: branchIds ?? [],
    rules: (e.electorate?.rules ?? []).map(draftOf),
    elected_in: e.electorate?.elected_in ? String(e.electorate.elected_in.election_id) : '',
    elected_positions: e.electorate?.elected_in?.position_ids ?? [],
    nominations: Boolean(e.nominations),
    nominations_opens: toZonedInput(e.nominations?.opens_at ?? null, timeZone),
    nominations_closes: toZonedInput(e.nominations?.closes_at ?? null, timeZone),
    appeal_days: e.nominations?.appeal_days ?? DEFAULT_APPEAL_DAYS,
  };
}

/** The appeal window a new nominations window starts with, in days. */
const DEFAULT_APPEAL_DAYS = 7;

/** The form's nominations window as the API takes it (instants in UTC), or null for none. */
function nominationsOf(v: NewElectionValues, timeZone: string) {
  if (!v.nominations) return null;
  return {
    opens_at: fromZonedInput(v.nominations_opens, timeZone) ?? '',
    closes_at: fromZonedInput(v.nominations_closes, timeZone) ?? '',
    appeal_days: v.appeal_days,
  };
}
/** The same window, compared as instants (the server answers its own spelling of a time). */
const sameWindow = (a: { opens_at: string; closes_at: string; appeal_days: number } | null, b: typeof a | undefined) =>
  (a === null && !b) ||
  (a !== null &&
    !!b &&
    Date.parse(a.opens_at) === Date.parse(b.opens_at) &&
    Date.parse(a.closes_at) === Date.parse(b.closes_at) &&
    a.appeal_days === b.appeal_days);

/** The form's `elected_in` as the API takes it. */
const electedInOf = (v: NewElectionValues) =>
  v.elected_in
    ? {
        election_id: Number(v.elected_in),
        position_ids: v.elected_positions.length ? [...v.elected_positions].sort((a, b) => a - b) : null,
      }
    : null;
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const sameIds = (a: number[], b: number[]) => a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);

/**
 * PATCH elections/{id} sends what changed only: the server refuses the schedule, visibility and
 * electorate of a closed election (and the electorate once the roll froze) even unchanged.
 */
export function changedFields(e: Election, v: NewElectionValues, timeZone: string, rules: Rule[]): UpdateElectionByIdBody {
  const was = electionValues(e, timeZone);
  const body: UpdateElectionByIdBody = {};
  if (v.title.trim() !== was.title.trim()) body.title = v.title.trim();
  if (v.description.trim() !== was.description.trim()) body.description = v.description.trim() || null;
  // Compared as instants: a browser shows 08:00:00 as 08:00.
  const opens = fromZonedInput(v.opens_at, timeZone);
  const closes = fromZonedInput(v.closes_at, timeZone);
  if (opens !== fromZonedInput(was.opens_at, timeZone)) body.opens_at = opens;
  if (closes !== fromZonedInput(was.closes_at, timeZone)) body.closes_at = closes;
  if (v.results_visibility !== was.results_visibility) body.results_visibility = v.results_visibility;
  const branchIds = v.electorate === 'all' ? null : (v.branch_ids ?? []);
  const branchesChanged = v.electorate !== was.electorate || (branchIds !== null && !sameIds(branchIds, was.branch_ids ?? []));
  const rulesChanged = !sameJson(rules, e.electorate?.rules ?? []);
  const electedIn = electedInOf(v);
  const electedChanged = !sameJson(electedIn, electedInOf(was));
  // The electorate goes whole-or-not (the server refuses it once the roll froze): its branches, and what else changed.
  if (branchesChanged || rulesChanged || electedChanged)
    body.electorate = { branch_ids: branchIds, ...(rulesChanged ? { rules } : {}), ...(electedChanged ? { elected_in: electedIn } : {}) };
  const nominations = nominationsOf(v, timeZone);
  if (!sameWindow(nominations, e.nominations)) body.nominations = nominations;
  return body;
}

/** POST elections (New): on success `onDone` (the dialog closes); a refusal's field messages go on the fields. */
export function NewElectionForm({ timeZone, onDone }: { timeZone: string; onDone: () => void }) {
  return <ElectionForm timeZone={timeZone} onDone={onDone} />;
}

const EMPTY: NewElectionValues = {
  title: '',
  description: '',
  opens_at: '',
  closes_at: '',
  results_visibility: 'live',
  electorate: 'all',
  branch_ids: [],
  rules: [],
  elected_in: '',
  elected_positions: [],
  nominations: false,
  nominations_opens: '',
  nominations_closes: '',
  appeal_days: DEFAULT_APPEAL_DAYS,
};

/**
 * The election form, New (POST elections) or Edit (PATCH elections/{id}, `election` given): on
 * success `onDone`; a refusal's field messages go on the fields, a 409 (a closed election's
 * schedule, visibility or electorate, a frozen roll's electorate) shows above the buttons.
 */
export function ElectionForm({
  timeZone,
  election,
  onDone,
}: {
  timeZone: string;
  election?: Election & { id: number };
  onDone: () => void;
}) {
  const { t, tReceived } = useT();
  const id = useId();
  const create = useCreateElection();
  const update = useUpdateElectionById();
  const { branches, loading: branchesLoading } = useBranches();
  const form = useZodForm(newElectionSchema, { defaultValues: election ? electionValues(election, timeZone) : EMPTY });
  const [problem, setProblem] = useState<string | null>(null);
  const electorate = form.watch('electorate');
  const attributes = useQuery(queries.memberAttributes());
  const defs = attributes.data?.body.data ?? [];
  const elections = useQuery(queries.elections()).data?.body.data ?? [];
  const electedIn = form.watch('elected_in');
  const electedPositions = useQuery({ ...queries.positions(Number(electedIn)), enabled: electedIn !== '' }).data?.body.data ?? [];
  /** Each rule row's message, by index; the list's own (the server's). */
  const [ruleErrors, setRuleErrors] = useState<(string | undefined)[]>([]);
  const [listErrors, setListErrors] = useState<{ rules?: string; elected_in?: string }>({});

  /** A refusal's field messages: the electorate's under the rules and the delegates' choice, the others on their fields. */
  const placeErrors = (fields: Record<string, string>) => {
    const rows: (string | undefined)[] = [];
    const lists: { rules?: string; elected_in?: string } = {};
    const rest: Record<string, string> = {};
    for (const [key, message] of Object.entries(fields)) {
      const row = /^electorate\.rules\.(\d+)/.exec(key);
      if (row) rows[Number(row[1])] = message;
      else if (key.startsWith('electorate.rules')) lists.rules = message;
      else if (key.startsWith('electorate.elected_in')) lists.elected_in = message;
      else if (key === 'nominations.opens_at' || key === 'nominations') rest.nominations_opens = message;
      else if (key === 'nominations.closes_at') rest.nominations_closes = message;
      else if (key === 'nominations.appeal_days') rest.appeal_days = message;
      else rest[key] = message;
    }
    setRuleErrors(rows);
    setListErrors(lists);
    setServerErrors(form, rest);
    return Object.keys(fields).length;
  };

  const save = async (e: Election & { id: number }, v: NewElectionValues, rules: Rule[]) => {
    const body = changedFields(e, v, timeZone, rules);
    if (Object.keys(body).length === 0) return onDone();
    try {
      const res = await update.mutateAsync({ params: { id: e.id }, body });
      toast({ variant: 'success', title: t('elections.saved', { title: res.body.data.title }) });
      onDone();
    } catch (err) {
      // the hook toasted it; field messages go under the fields, a refusal (409) stays in the form
      if (placeErrors(fieldErrorsOf(err)) === 0) setProblem(errorMessage(err) ?? t('common.somethingWrong'));
    }
  };

  const onSubmit = form.handleSubmit(async (v) => {
    setProblem(null);
    const checked = checkRuleRows(v.rules, attributes.isSuccess ? defs : undefined, election?.electorate?.rules ?? []);
    setRuleErrors(checked.problems);
    setListErrors({ rules: checked.listProblem });
    if (!checked.ok) return;
    if (election) return save(election, v, checked.rules);
    const electedIn = electedInOf(v);
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
          electorate: {
            branch_ids: v.electorate === 'all' ? null : v.branch_ids,
            ...(checked.rules.length ? { rules: checked.rules } : {}),
            ...(electedIn ? { elected_in: electedIn } : {}),
          },
          ...(v.nominations ? { nominations: nominationsOf(v, timeZone) } : {}),
        },
      });
      toast({ variant: 'success', title: t('elections.created', { title: res.body.data.title }) });
      onDone();
    } catch (err) {
      // the hook toasted it; its field messages go under the fields
      placeErrors(fieldErrorsOf(err));
    }
  });

  const closed = election?.phase === 'closed';
  const nominate = form.watch('nominations');
  const frozen = Boolean(election?.roll_frozen_at);

  const errors = form.formState.errors;
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4">
      {closed && <p className="text-sm text-muted-foreground">{t('elections.field.closedHint')}</p>}
      <FormField label={t('elections.field.title')} error={errors.title?.message}>
        <Input autoComplete="off" {...form.register('title')} />
      </FormField>
      <FormField label={t('elections.field.description')} error={errors.description?.message}>
        <Textarea rows={3} {...form.register('description')} />
      </FormField>
      <ScheduleFields
        id={id}
        values={form.watch()}
        errors={fieldMessages(errors)}
        // the organisation's zone is not a field here (no `time_zone` in the values)
        onChange={(key, value) =>
          key !== 'time_zone' && form.setValue(key, value, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })
        }
        zone={timeZone}
      />
      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">{t('elections.field.nominations')}</legend>
        <Controller
          control={form.control}
          name="nominations"
          render={({ field }) => (
            <span className="flex items-center gap-2">
              <Checkbox id={`${id}-nominations`} checked={field.value} onCheckedChange={(on) => field.onChange(on === true)} />
              <Label htmlFor={`${id}-nominations`} className="font-normal">
                {t('elections.field.nominate')}
              </Label>
            </span>
          )}
        />
        {nominate ? (
          <div className="ml-7 grid gap-4 sm:grid-cols-2">
            <FormField
              id={`${id}-nominations-opens`}
              label={t('elections.field.nominationsOpen')}
              error={errors.nominations_opens?.message}
            >
              <Input type="datetime-local" step={1} {...form.register('nominations_opens')} />
            </FormField>
            <FormField
              id={`${id}-nominations-closes`}
              label={t('elections.field.nominationsClose')}
              error={errors.nominations_closes?.message}
            >
              <Input type="datetime-local" step={1} {...form.register('nominations_closes')} />
            </FormField>
            <FormField
              id={`${id}-appeal-days`}
              label={t('elections.field.appealDays')}
              description={t('elections.field.appealDaysHint')}
              error={errors.appeal_days?.message}
            >
              <Input
                type="number"
                min={0}
                max={MAX_APPEAL_DAYS}
                inputMode="numeric"
                {...form.register('appeal_days', { valueAsNumber: true })}
              />
            </FormField>
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">{t('elections.field.noNominations')}</p>
        )}
      </fieldset>
      <fieldset
        className="grid gap-2"
        aria-describedby={
          [frozen ? `${id}-frozen` : '', errors.branch_ids ? `${id}-branches-error` : ''].filter(Boolean).join(' ') || undefined
        }
      >
        <legend className="text-sm font-medium">{t('elections.field.electorate')}</legend>
        {frozen && (
          <p id={`${id}-frozen`} className="text-sm text-muted-foreground">
            {t('elections.field.rollFrozen')}
          </p>
        )}
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
        <Controller
          control={form.control}
          name="rules"
          render={({ field }) => (
            <RuleEditor
              id={id}
              legend={t('rules.electorate')}
              hint={t('rules.electorateHint')}
              defs={defs}
              drafts={field.value}
              onChange={field.onChange}
              errors={ruleErrors}
              error={listErrors.rules}
            />
          )}
        />
        <FormField
          id={`${id}-elected-in`}
          label={t('elections.field.electedIn')}
          description={t('elections.field.electedInHint')}
          error={listErrors.elected_in}
        >
          <select
            className={selectClass}
            value={electedIn}
            onChange={(e) => {
              form.setValue('elected_in', e.target.value, { shouldDirty: true });
              form.setValue('elected_positions', [], { shouldDirty: true });
            }}
          >
            <option value="">{t('elections.field.electedInNone')}</option>
            {elections
              .filter((x) => x.id !== undefined && x.id !== election?.id)
              .map((x) => (
                <option key={x.id} value={String(x.id)}>
                  {x.title}
                </option>
              ))}
          </select>
        </FormField>
        {electedIn !== '' && electedPositions.length > 0 && (
          <Controller
            control={form.control}
            name="elected_positions"
            render={({ field }) => (
              <ul className="ml-7 grid gap-2" aria-label={t('elections.field.electedPositions')}>
                {electedPositions
                  .filter((p) => p.kind !== 'motion')
                  .map((p) => (
                    <li key={p.id} className="flex items-center gap-2">
                      <Checkbox
                        id={`${id}-elected-${p.id}`}
                        checked={field.value.includes(p.id)}
                        onCheckedChange={(on) =>
                          field.onChange(on === true ? [...field.value, p.id] : field.value.filter((x: number) => x !== p.id))
                        }
                      />
                      <Label htmlFor={`${id}-elected-${p.id}`} className="font-normal">
                        {p.level === 'National' ? p.name : `${p.name} - ${p.level}`}
                      </Label>
                    </li>
                  ))}
              </ul>
            )}
          />
        )}
      </fieldset>
      {problem && (
        <p role="alert" className="text-sm text-destructive">
          {tReceived(problem)}
        </p>
      )}
      <FormFooter
        pending={create.isPending || update.isPending}
        submitLabel={election ? t('elections.save') : t('elections.create')}
        pendingLabel={t('common.saving')}
        onCancel={onDone}
        // In the dialog (which scrolls), Save and Cancel stay in view at the bottom edge (issue 37: 1280×900).
        className="sticky -bottom-6 -mx-6 border-t border-border bg-background px-6 py-3"
      />
    </form>
  );
}
