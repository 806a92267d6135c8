import { z } from 'zod';
import type { UseFormReturn } from 'react-hook-form';
import {
  CreatePositionBody,
  MAX_SEATS,
  UpdatePositionBody,
  type MotionThreshold,
  type Position,
  type PositionKind,
  type VotingMethod,
} from '@kura/contract';
import { FormField, FormFooter, useZodForm } from '@/components/forms';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { useBranches } from '@/hooks/use-admin-lists';
import { toast } from '@/hooks/use-toast';
import { useCreatePosition, useUpdatePosition } from '@/lib/mutations';
import { t, useT, type MessageKey } from '@/i18n';
import { TranslationFields, translationValues, useOtherLanguages } from '@/components/admin/translation-fields';
import { useElectionParam } from '@/lib/election-search';

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
  })
  .refine((v) => v.scope !== 'branch' || v.branch !== '', { message: 'Choose a branch', path: ['branch'] })
  .superRefine((v, ctx) => {
    if (v.kind === 'motion') checkQuorum(v, ctx);
  })
  .transform(({ scope, branch, kind, seats, method, threshold, quorum, rotate, ...rest }): CreatePositionBody => ({
    ...rest,
    ...(kind === 'motion' ? { kind, threshold, quorum_percent: quorumOf(quorum) } : { kind, seats, method }),
    ...(kind !== 'motion' && method === 'ranked' && rotate ? { rotate_candidates: true } : {}),
    ...(scope === 'every' ? { every_branch: true } : { branch_id: scope === 'branch' ? Number(branch) : null }),
  }));

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
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'motion') checkQuorum(v, ctx);
  })
  .transform(({ kind, seats, method, threshold, quorum, rotate, ...rest }): UpdatePositionBody => ({
    ...rest,
    ...(kind === 'motion' ? { threshold, quorum_percent: quorumOf(quorum) } : { seats, method }),
    ...(kind !== 'motion' && method === 'ranked' ? { rotate_candidates: rotate === true } : {}),
  }));

const selectClass = 'h-9 rounded-md border border-input bg-background px-2 text-sm';
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
  };
  const form = useZodForm(newPositionSchema, { defaultValues: empty });
  const scope = form.watch('scope');
  const kind = form.watch('kind');
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(async (body) => {
    if (await run(() => create.mutateAsync({ body }))) {
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
    },
  });
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit(async (body) => {
    if (await run(() => update.mutateAsync({ params: { id: position.id }, body }))) {
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
