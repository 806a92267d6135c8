import { z } from 'zod';
import { CreatePositionBody, MAX_SEATS, UpdatePositionBody, type Position } from '@kura/contract';
import { FormField, FormFooter, useZodForm } from '@/components/forms';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { useBranches } from '@/hooks/use-admin-lists';
import { toast } from '@/hooks/use-toast';
import { useCreatePosition, useUpdatePosition } from '@/lib/mutations';

/** The contract's rules for a position's fields (POST positions, PATCH positions/{id}). */
const fields = CreatePositionBody.innerType().innerType().shape;
const editable = UpdatePositionBody.shape;

const SCOPES = { national: 'All members (national)', branch: 'One branch', every: 'Every branch (one position per branch)' } as const;
type Scope = keyof typeof SCOPES;

/** The add form: the fields, and who elects it (a select, sent as branch_id or every_branch). */
export const newPositionSchema = z
  .object({
    name: fields.name,
    seats: fields.seats.unwrap(),
    description: fields.description.unwrap(),
    scope: z.enum(Object.keys(SCOPES) as [Scope, ...Scope[]]),
    branch: z.string(),
  })
  .refine((v) => v.scope !== 'branch' || v.branch !== '', { message: 'Choose a branch', path: ['branch'] })
  .transform(({ scope, branch, ...rest }): CreatePositionBody => ({
    ...rest,
    ...(scope === 'every' ? { every_branch: true } : { branch_id: scope === 'branch' ? Number(branch) : null }),
  }));

export const editPositionSchema = z.object({
  name: editable.name.unwrap(),
  seats: editable.seats.unwrap(),
  description: editable.description.unwrap(),
});

const selectClass = 'h-9 rounded-md border border-input bg-background px-2 text-sm';
const seatsInput = { type: 'number', min: 1, max: MAX_SEATS } as const;

export function NewPositionForm({ run }: { run: (work: () => Promise<unknown>) => Promise<boolean> }) {
  const { branches } = useBranches();
  const create = useCreatePosition();
  const empty = { name: '', seats: 1, description: '', scope: 'national' as Scope, branch: '' };
  const form = useZodForm(newPositionSchema, { defaultValues: empty });
  const scope = form.watch('scope');
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(async (body) => {
    if (await run(() => create.mutateAsync({ body }))) {
      toast({ variant: 'success', title: 'Position added' });
      form.reset({ ...form.getValues(), name: '', description: '', seats: 1 });
    }
  });

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-3 sm:grid-cols-2">
      <FormField label="New position name" error={errors.name?.message} className="gap-1">
        <Input {...form.register('name')} />
      </FormField>
      <FormField label="Seats" error={errors.seats?.message} className="gap-1">
        <Input {...seatsInput} {...form.register('seats', { valueAsNumber: true })} />
      </FormField>
      <FormField label="Elected by" error={errors.scope?.message} className="gap-1">
        <select className={selectClass} {...form.register('scope')}>
          {Object.entries(SCOPES).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </FormField>
      {scope === 'branch' && (
        <FormField label="Branch" error={errors.branch?.message} className="gap-1">
          <select className={selectClass} {...form.register('branch')}>
            <option value="">Choose a branch</option>
            {branches.map((b) => (
              <option key={b.id} value={String(b.id)}>
                {b.name}
              </option>
            ))}
          </select>
        </FormField>
      )}
      <FormField label="Description (optional)" error={errors.description?.message} className="gap-1 sm:col-span-2">
        <Textarea {...form.register('description')} />
      </FormField>
      <FormFooter pending={create.isPending} submitLabel="Add position" pendingLabel="Adding…" className="sm:justify-start" />
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
  const update = useUpdatePosition();
  const form = useZodForm(editPositionSchema, {
    defaultValues: { name: position.name, seats: position.seats, description: position.description ?? '' },
  });
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit(async (body) => {
    if (await run(() => update.mutateAsync({ params: { id: position.id }, body }))) {
      toast({ variant: 'success', title: 'Position updated' });
      onDone();
    }
  });
  return (
    <form className="grid gap-2 sm:grid-cols-[1fr_6rem]" noValidate onSubmit={(e) => void onSubmit(e)}>
      <FormField label="Name" error={errors.name?.message} className="gap-1">
        <Input {...form.register('name')} />
      </FormField>
      <FormField label="Seats" error={errors.seats?.message} className="gap-1">
        <Input {...seatsInput} {...form.register('seats', { valueAsNumber: true })} />
      </FormField>
      <FormField label="Description" error={errors.description?.message} className="gap-1 sm:col-span-2">
        <Textarea {...form.register('description')} />
      </FormField>
      <FormFooter
        pending={update.isPending}
        submitLabel="Save"
        pendingLabel="Saving…"
        onCancel={onDone}
        className="sm:col-span-2 sm:justify-start"
      />
    </form>
  );
}
