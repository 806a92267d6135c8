import { useId, useState } from 'react';
import { z } from 'zod';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import {
  CreatePositionBody,
  MAX_SEATS,
  MAX_SUPPORTERS,
  PositionNominationInput,
  said,
  type PositionNomination,
  type Rule,
  UpdatePositionBody,
  type MotionThreshold,
  type Position,
  type PositionKind,
  type VotingMethod,
} from '@kura/contract';
import { FormField, FormFooter, useZodForm, selectClass } from '@/components/forms';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { useBranches } from '@/hooks/use-admin-lists';
import { toast } from '@/hooks/use-toast';
import { useCreatePosition, useUpdatePosition } from '@/lib/mutations';
import { says, t, useT, type MessageKey } from '@/i18n';
import { TranslationFields, translationValues, useOtherLanguages } from '@/components/admin/translation-fields';
import { useElectionParam } from '@/lib/election-search';
import { queries } from '@/lib/queries';
import { checkRuleRows, draftOf, RuleDraft, RuleEditor } from '@/components/admin/rule-editor';

/** The contract's rules for a position's fields (POST positions, PATCH positions/{id}). */
const fields = CreatePositionBody.innerType().innerType().shape;
const editable = UpdatePositionBody.shape;

const SCOPES = {
  national: 'admin.position.scope.national',
  branch: 'admin.position.scope.branch',
  every: 'admin.position.scope.every',
} as const satisfies Record<string, MessageKey>;
type Scope = keyof typeof SCOPES;

/** docs/api.md "Many elections, motions and ranked counts": what is elected and how. */
export const KINDS: Record<PositionKind, MessageKey> = {
  candidates: 'admin.position.kind.candidates',
  motion: 'admin.position.kind.motion',
};
export const METHODS: Record<VotingMethod, MessageKey> = {
  plurality: 'admin.position.methodOption.plurality',
  approval: 'admin.position.methodOption.approval',
  ranked: 'admin.position.methodOption.ranked',
};
export const THRESHOLDS: Record<MotionThreshold, MessageKey> = {
  majority: 'admin.position.thresholdOption.majority',
  two_thirds: 'admin.position.thresholdOption.two_thirds',
  three_quarters: 'admin.position.thresholdOption.three_quarters',
};
const keysOf = <K extends string>(o: Record<K, string>) => Object.keys(o) as [K, ...K[]];

const quorumRule = fields.quorum_percent.unwrap();
/** The quorum box: empty for none, else the contract's 1..100 rule, its message on the field. */
const checkQuorum = (v: { quorum: string }, ctx: z.RefinementCtx) => {
  if (v.quorum.trim() === '') return;
  const r = quorumRule.safeParse(Number(v.quorum));
  if (!r.success)
    ctx.addIssue({ code: 'custom', path: ['quorum'], message: r.error.issues[0]?.message ?? t('admin.position.invalidQuorum') });
};
const quorumOf = (q: string): number | null => (q.trim() === '' ? null : Number(q));

/** The fields of a position's kind: seats and method for candidates, threshold and quorum for a motion. */
const kindFields = {
  method: z.enum(keysOf(METHODS)),
  threshold: z.enum(keysOf(THRESHOLDS)),
  /** a text box: empty for no quorum */
  quorum: z.string(),
  /** ranked only: rotate_candidates (docs/api.md "Rotating the candidates' order") */
  rotate: z.boolean().optional(),
};

/**
 * Who may stand and how members nominate (docs/api.md "The register", "Nominations"): candidates
 * positions only. The rules' rows are checked against the attributes on submit (the form component
 * holds them); the nomination rule by the contract's PositionNominationInput while `nominate` is on.
 */
const candidacyFields = {
  rules: z.array(RuleDraft),
  nominate: z.boolean(),
  proposers: z.number({ invalid_type_error: said('field.mustBeNumber', { field: 'proposers' }) }),
  seconders: z.number({ invalid_type_error: said('field.mustBeNumber', { field: 'seconders' }) }),
  same_branch: z.boolean(),
  self: z.boolean(),
};
type CandidacyValues = { [K in keyof typeof candidacyFields]: z.infer<(typeof candidacyFields)[K]> };
const checkNomination = (v: CandidacyValues & { kind: PositionKind }, ctx: z.RefinementCtx) => {
  if (v.kind === 'motion' || !v.nominate) return;
  const r = PositionNominationInput.safeParse({ proposers: v.proposers, seconders: v.seconders, same_branch: v.same_branch, self: v.self });
  if (!r.success) for (const issue of r.error.issues) ctx.addIssue({ ...issue, path: issue.path.length ? issue.path : ['proposers'] });
};
const nominationOf = (v: CandidacyValues): PositionNomination | null =>
  v.nominate ? { proposers: v.proposers, seconders: v.seconders, same_branch: v.same_branch, self: v.self } : null;
/** The form's candidacy values of a position (none: no rules, staff enter the candidates). */
export function candidacyValues(p?: Pick<Position, 'eligibility' | 'nomination'>): CandidacyValues {
  const n = p?.nomination;
  return {
    rules: (p?.eligibility ?? []).map(draftOf),
    nominate: Boolean(n),
    proposers: n?.proposers ?? 1,
    seconders: n?.seconders ?? 1,
    same_branch: n?.same_branch ?? false,
    self: n?.self ?? false,
  };
}

/** The add form: the fields, what it elects (candidates or a motion), and who elects it (sent as branch_id or every_branch). */
export const newPositionSchema = z
  .object({
    name: fields.name,
    kind: z.enum(keysOf(KINDS)),
    seats: fields.seats.unwrap(),
    ...kindFields,
    description: fields.description.unwrap(),
    scope: z.enum(Object.keys(SCOPES) as [Scope, ...Scope[]]),
    branch: z.string(),
    ...candidacyFields,
  })
  .refine((v) => v.scope !== 'branch' || v.branch !== '', says('admin.position.chooseBranch', ['branch']))
  .superRefine((v, ctx) => {
    if (v.kind === 'motion') checkQuorum(v, ctx);
    checkNomination(v, ctx);
  })
  .transform(
    ({
      scope,
      branch,
      kind,
      seats,
      method,
      threshold,
      quorum,
      rotate,
      rules,
      nominate,
      proposers,
      seconders,
      same_branch,
      self,
      ...rest
    }): { body: CreatePositionBody; rules: RuleDraft[] } => {
      const nomination = kind === 'motion' ? null : nominationOf({ rules, nominate, proposers, seconders, same_branch, self });
      return {
        body: {
          ...rest,
          ...(kind === 'motion' ? { kind, threshold, quorum_percent: quorumOf(quorum) } : { kind, seats, method }),
          ...(kind !== 'motion' && method === 'ranked' && rotate ? { rotate_candidates: true } : {}),
          ...(scope === 'every' ? { every_branch: true } : { branch_id: scope === 'branch' ? Number(branch) : null }),
          ...(nomination ? { nomination } : {}),
        },
        rules: kind === 'motion' ? [] : rules,
      };
    },
  );

/** The edit form: a position keeps its kind; a motion has no seats and no method, a candidates position no threshold. */
export const editPositionSchema = z
  .object({
    name: editable.name.unwrap(),
    kind: z.enum(keysOf(KINDS)),
    seats: editable.seats.unwrap(),
    ...kindFields,
    description: editable.description.unwrap(),
    /** language → {name, description}: optional, empty is none (docs/i18n.md "Ballot content") */
    translations: editable.translations.unwrap(),
    ...candidacyFields,
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'motion') checkQuorum(v, ctx);
    checkNomination(v, ctx);
  })
  .transform(
    ({
      kind,
      seats,
      method,
      threshold,
      quorum,
      rotate,
      rules,
      nominate,
      proposers,
      seconders,
      same_branch,
      self,
      ...rest
    }): { body: UpdatePositionBody; rules: RuleDraft[] | null } => ({
      body: {
        ...rest,
        ...(kind === 'motion'
          ? { threshold, quorum_percent: quorumOf(quorum) }
          : { seats, method, nomination: nominationOf({ rules, nominate, proposers, seconders, same_branch, self }) }),
        ...(kind !== 'motion' && method === 'ranked' ? { rotate_candidates: rotate === true } : {}),
      },
      // a motion takes no candidates: its (empty) rules are not sent
      rules: kind === 'motion' ? null : rules,
    }),
  );

const seatsInput = { type: 'number', min: 1, max: MAX_SEATS } as const;

const options = (o: Record<string, MessageKey>) =>
  Object.entries(o).map(([value, label]) => (
    <option key={value} value={value}>
      {t(label)}
    </option>
  ));

const quorumInput = { type: 'number', min: 1, max: 100, inputMode: 'numeric' } as const;

/** What both position forms hold for a position's kind (kindFields, with the kind and its seats). */
type KindFieldValues = {
  kind: PositionKind;
  seats: number;
  method: VotingMethod;
  threshold: MotionThreshold;
  quorum: string;
  rotate?: boolean;
};

/**
 * A position's kind and the fields that go with it, in the add and the edit form alike: a motion
 * has a threshold and a quorum, a candidates position a voting method and seats. The kind can be
 * chosen only when adding (`chooseKind`); a position keeps its kind.
 */
export function PositionKindFields<T extends KindFieldValues>({
  form: typed,
  chooseKind = false,
}: {
  form: UseFormReturn<T, unknown, any>;
  chooseKind?: boolean;
}) {
  // Both forms' values extend KindFieldValues, so these names are theirs too.
  const { t } = useT();
  const form = typed as unknown as UseFormReturn<KindFieldValues>;
  const kind = form.watch('kind');
  const errors = form.formState.errors;
  return (
    <>
      {chooseKind && (
        <FormField label={t('admin.position.kind')} error={errors.kind?.message} className="gap-1">
          <select className={selectClass} {...form.register('kind')}>
            {options(KINDS)}
          </select>
        </FormField>
      )}
      {kind === 'motion' ? (
        <>
          <FormField label={t('admin.position.threshold')} error={errors.threshold?.message} className="gap-1">
            <select className={selectClass} {...form.register('threshold')}>
              {options(THRESHOLDS)}
            </select>
          </FormField>
          <FormField
            label={t('admin.position.quorum')}
            description={t('admin.position.quorumHint')}
            error={errors.quorum?.message}
            className="gap-1"
          >
            <Input {...quorumInput} {...form.register('quorum')} />
          </FormField>
        </>
      ) : (
        <>
          <FormField label={t('admin.position.method')} error={errors.method?.message} className="gap-1">
            <select className={selectClass} {...form.register('method')}>
              {options(METHODS)}
            </select>
          </FormField>
          <FormField label={t('admin.position.seats')} error={errors.seats?.message} className="gap-1">
            <Input {...seatsInput} {...form.register('seats', { valueAsNumber: true })} />
          </FormField>
          {form.watch('method') === 'ranked' && (
            <label className="flex items-center gap-2 text-sm sm:col-span-2">
              <input type="checkbox" className="size-4" {...form.register('rotate')} />
              {t('admin.position.rotateCandidates')}
            </label>
          )}
        </>
      )}
    </>
  );
}

/** The nomination rule's check boxes: field and label. */
const BOXES = {
  nominate: { name: 'nominate', label: 'admin.position.nominate' },
  same_branch: { name: 'same_branch', label: 'admin.position.sameBranch' },
  self: { name: 'self', label: 'admin.position.selfNomination' },
} as const satisfies Record<string, { name: string; label: MessageKey }>;

/**
 * A candidates position's rules on who may stand, each said in words, and its nomination rule:
 * whether members nominate its candidates, with how many proposers and seconders, of the
 * nominee's branch or not, and whether a member may nominate themselves. `ruleErrors` are the
 * rows' messages from the last submit.
 */
export function CandidacyFields<T extends CandidacyValues & { kind: PositionKind }>({
  form: typed,
  ruleErrors,
  listError,
}: {
  form: UseFormReturn<T, unknown, any>;
  ruleErrors: (string | undefined)[];
  listError?: string;
}) {
  const { t } = useT();
  const id = useId();
  const form = typed as unknown as UseFormReturn<CandidacyValues & { kind: PositionKind }>;
  const defs = useQuery(queries.memberAttributes()).data?.body.data ?? [];
  const nominate = form.watch('nominate');
  const errors = form.formState.errors;
  if (form.watch('kind') === 'motion') return null;
  const count = { type: 'number', min: 0, max: MAX_SUPPORTERS, inputMode: 'numeric' } as const;
  const check = ({ name, label }: { name: 'nominate' | 'same_branch' | 'self'; label: MessageKey }) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <span className="flex items-center gap-2">
          <Checkbox id={`${id}-${name}`} checked={field.value} onCheckedChange={(on) => field.onChange(on === true)} />
          <Label htmlFor={`${id}-${name}`} className="font-normal">
            {t(label)}
          </Label>
        </span>
      )}
    />
  );
  return (
    <>
      <div className="sm:col-span-2">
        <Controller
          control={form.control}
          name="rules"
          render={({ field }) => (
            <RuleEditor
              id={id}
              legend={t('rules.eligibility')}
              hint={t('rules.eligibilityHint')}
              defs={defs}
              drafts={field.value}
              onChange={field.onChange}
              errors={ruleErrors}
              error={listError ?? (errors as { eligibility?: { message?: string } }).eligibility?.message}
            />
          )}
        />
      </div>
      <fieldset className="grid gap-2 sm:col-span-2">
        <legend className="text-sm font-medium">{t('admin.position.nomination')}</legend>
        {check(BOXES.nominate)}
        {nominate && (
          <div className="ml-7 grid gap-3 sm:grid-cols-2">
            <FormField label={t('admin.position.proposers')} error={errors.proposers?.message} className="gap-1">
              <Input {...count} {...form.register('proposers', { valueAsNumber: true })} />
            </FormField>
            <FormField label={t('admin.position.seconders')} error={errors.seconders?.message} className="gap-1">
              <Input {...count} {...form.register('seconders', { valueAsNumber: true })} />
            </FormField>
            <div className="grid gap-2 sm:col-span-2">
              {check(BOXES.same_branch)}
              {check(BOXES.self)}
            </div>
          </div>
        )}
        {!nominate && <p className="text-sm text-muted-foreground">{t('admin.position.staffOnly')}</p>}
      </fieldset>
    </>
  );
}

/** The rows as rules (`stored`: the position's, sent as they were while the attributes are not read), or null and their messages. */
function useRuleRows(stored: Rule[] = []) {
  const attributes = useQuery(queries.memberAttributes());
  const [errors, setErrors] = useState<(string | undefined)[]>([]);
  const [listError, setListError] = useState<string | undefined>();
  const check = (drafts: RuleDraft[]) => {
    const checked = checkRuleRows(drafts, attributes.isSuccess ? attributes.data.body.data : undefined, stored);
    setErrors(checked.problems);
    setListError(checked.listProblem);
    return checked.ok ? checked.rules : null;
  };
  return { errors, listError, check };
}

export function NewPositionForm({ run }: { run: (work: () => Promise<unknown>) => Promise<boolean> }) {
  const { t } = useT();
  const { branches } = useBranches();
  const create = useCreatePosition(useElectionParam());
  const empty = {
    name: '',
    kind: 'candidates' as PositionKind,
    seats: 1,
    method: 'plurality' as VotingMethod,
    threshold: 'majority' as MotionThreshold,
    quorum: '',
    description: '',
    scope: 'national' as Scope,
    branch: '',
    ...candidacyValues(),
  };
  const form = useZodForm(newPositionSchema, { defaultValues: empty });
  const rows = useRuleRows();
  const scope = form.watch('scope');
  const kind = form.watch('kind');
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(async ({ body, rules }) => {
    const eligibility = rows.check(rules);
    if (!eligibility) return;
    if (await run(() => create.mutateAsync({ body: { ...body, ...(eligibility.length ? { eligibility } : {}) } }))) {
      toast({ variant: 'success', title: kind === 'motion' ? t('admin.position.motionAdded') : t('admin.position.added') });
      form.reset({ ...form.getValues(), name: '', description: '', seats: 1, quorum: '' });
    }
  });

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-3 sm:grid-cols-2">
      <FormField label={t('admin.position.newName')} error={errors.name?.message} className="gap-1">
        <Input {...form.register('name')} />
      </FormField>
      <PositionKindFields form={form} chooseKind />
      <FormField label={t('admin.position.electedBy')} error={errors.scope?.message} className="gap-1">
        <select className={selectClass} {...form.register('scope')}>
          {options(SCOPES)}
        </select>
      </FormField>
      {scope === 'branch' && (
        <FormField label={t('admin.position.branch')} error={errors.branch?.message} className="gap-1">
          <select className={selectClass} {...form.register('branch')}>
            <option value="">{t('admin.position.chooseBranch')}</option>
            {branches.map((b) => (
              <option key={b.id} value={String(b.id)}>
                {b.name}
              </option>
            ))}
          </select>
        </FormField>
      )}
      <FormField
        label={kind === 'motion' ? t('admin.position.motionTextOptional') : t('admin.position.descriptionOptional')}
        description={kind === 'motion' ? t('admin.position.motionHint') : undefined}
        error={errors.description?.message}
        className="gap-1 sm:col-span-2"
      >
        <Textarea {...form.register('description')} />
      </FormField>
      <CandidacyFields form={form} ruleErrors={rows.errors} listError={rows.listError} />
      <FormFooter
        pending={create.isPending}
        submitLabel={t('admin.position.add')}
        pendingLabel={t('admin.candidate.adding')}
        className="sm:justify-start"
      />
    </form>
  );
}

export function EditPositionForm({
  position,
  run,
  onDone,
}: {
  position: Position;
  run: (work: () => Promise<unknown>) => Promise<boolean>;
  onDone: () => void;
}) {
  const { t } = useT();
  const update = useUpdatePosition();
  const languages = useOtherLanguages();
  const kind: PositionKind = position.kind ?? 'candidates';
  const form = useZodForm(editPositionSchema, {
    defaultValues: {
      name: position.name,
      kind,
      seats: position.seats,
      method: position.method ?? 'plurality',
      threshold: position.threshold ?? 'majority',
      quorum: position.quorum_percent == null ? '' : String(position.quorum_percent),
      rotate: position.rotate_candidates ?? false,
      description: position.description ?? '',
      translations: translationValues(position.translations, languages, ['name', 'description']),
      ...candidacyValues(position),
    },
  });
  const rows = useRuleRows(position.eligibility);
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit(async ({ body, rules }) => {
    const eligibility = rules === null ? null : rows.check(rules);
    if (rules !== null && !eligibility) return;
    if (await run(() => update.mutateAsync({ params: { id: position.id }, body: { ...body, ...(eligibility ? { eligibility } : {}) } }))) {
      toast({ variant: 'success', title: t('admin.position.updated') });
      onDone();
    }
  });
  return (
    <form className="grid gap-2 sm:grid-cols-2" noValidate onSubmit={(e) => void onSubmit(e)}>
      <FormField label={t('admin.field.name')} error={errors.name?.message} className="gap-1 sm:col-span-2">
        <Input {...form.register('name')} />
      </FormField>
      <PositionKindFields form={form} />
      <FormField
        label={kind === 'motion' ? t('admin.position.motionText') : t('admin.position.description')}
        error={errors.description?.message}
        className="gap-1 sm:col-span-2"
      >
        <Textarea {...form.register('description')} />
      </FormField>
      <CandidacyFields form={form} ruleErrors={rows.errors} listError={rows.listError} />
      <TranslationFields
        form={form}
        fields={[
          { name: 'name', label: 'admin.translation.name' },
          {
            name: 'description',
            label: kind === 'motion' ? 'admin.translation.motionText' : 'admin.translation.description',
            multiline: true,
          },
        ]}
      />
      <FormFooter
        pending={update.isPending}
        submitLabel={t('common.save')}
        pendingLabel={t('common.saving')}
        onCancel={onDone}
        className="sm:col-span-2 sm:justify-start"
      />
    </form>
  );
}
