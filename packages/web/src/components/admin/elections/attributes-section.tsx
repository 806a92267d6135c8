import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ATTRIBUTE_TYPES, AttributeDef, type AttributeType } from '@kura/contract';
import { Pencil, Trash2 } from 'lucide-react';
import { FormField, useZodForm, selectClass } from '@/components/forms';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toast } from '@/hooks/use-toast';
import { errorMessage, firstFieldError } from '@/lib/errors';
import { usePutAttributes } from '@/lib/mutations';
import { queries } from '@/lib/queries';
import { useT, type MessageKey } from '@/i18n';

/** Each attribute type in words (the type select and the list). */
export const ATTRIBUTE_TYPE_WORDS: Record<AttributeType, MessageKey> = {
  number: 'attributes.type.number',
  date: 'attributes.type.date',
  text: 'attributes.type.text',
  boolean: 'attributes.type.boolean',
};

/** The add form: the contract's rules for one attribute, and a key not taken yet (checked on submit). */
const newAttributeSchema = AttributeDef;
/** The edit form: a key stays (a rule names it); the label and the type change. */
const editAttributeSchema = AttributeDef.pick({ label: true, type: true });

/**
 * The organisation's member attributes (docs/api.md "The register"): what the register holds of a
 * member beyond the built-in columns (shares, date joined, subscription paid), which eligibility
 * rules name. Every change replaces the whole list (PUT organisation/attributes); removing or
 * retyping a key a rule uses is refused (409), and the refusal shows above the list.
 */
export function AttributesSection() {
  const { t, tReceived } = useT();
  const id = useId();
  const attributes = useQuery(queries.memberAttributes());
  const put = usePutAttributes();
  const [editing, setEditing] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const list = attributes.data?.body.data ?? [];
  const form = useZodForm(newAttributeSchema, { defaultValues: { key: '', label: '', type: 'number' } });

  /** Replaces the list; answers whether the server took it. */
  const save = async (next: AttributeDef[]) => {
    setProblem(null);
    try {
      await put.mutateAsync({ body: { data: next } });
      return true;
    } catch (err) {
      setProblem(firstFieldError(err) ?? errorMessage(err) ?? t('common.somethingWrong'));
      return false;
    }
  };

  const onAdd = form.handleSubmit(async (def) => {
    if (list.some((a) => a.key === def.key)) return form.setError('key', { type: 'taken', message: t('attributes.keyTaken') });
    if (await save([...list, def])) {
      toast({ variant: 'success', title: t('attributes.added', { label: def.label }) });
      form.reset({ key: '', label: '', type: form.getValues('type') });
    }
  });
  const onRemove = async (def: AttributeDef) => {
    if (await save(list.filter((a) => a.key !== def.key)))
      toast({ variant: 'success', title: t('attributes.removed', { label: def.label }) });
  };

  return (
    <section aria-labelledby={`${id}-h`} className="mt-6 grid gap-3 rounded-lg border border-border bg-card p-4 shadow-sm">
      <h2 id={`${id}-h`} className="text-lg font-semibold">
        {t('attributes.heading')}
      </h2>
      <p className="text-sm text-muted-foreground">{t('attributes.hint')}</p>
      {problem && (
        <p role="alert" className="text-sm text-destructive">
          {tReceived(problem)}
        </p>
      )}
      {attributes.isError && <p className="text-sm text-destructive">{t('attributes.loadError')}</p>}
      <ul className="grid gap-2" aria-label={t('attributes.heading')}>
        {attributes.isSuccess && list.length === 0 && <li className="text-sm text-muted-foreground">{t('attributes.none')}</li>}
        {list.map((a) => (
          <li key={a.key} className="flex flex-wrap items-center gap-2 rounded-md border border-border p-2">
            {editing === a.key ? (
              <EditAttributeForm
                def={a}
                pending={put.isPending}
                onSave={async (changed) => {
                  if (await save(list.map((x) => (x.key === a.key ? { ...x, ...changed } : x)))) {
                    toast({ variant: 'success', title: t('attributes.updated', { label: changed.label }) });
                    setEditing(null);
                  }
                }}
                onCancel={() => setEditing(null)}
              />
            ) : (
              <>
                <span className="min-w-0 flex-1 text-sm break-words">
                  <span className="font-medium">{a.label}</span>{' '}
                  <span className="text-muted-foreground">
                    ({a.key} · {t(ATTRIBUTE_TYPE_WORDS[a.type])})
                  </span>
                </span>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  aria-label={t('attributes.edit', { label: a.label })}
                  onClick={() => setEditing(a.key)}
                >
                  <Pencil aria-hidden="true" />
                </Button>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  aria-label={t('attributes.remove', { label: a.label })}
                  disabled={put.isPending}
                  onClick={() => void onRemove(a)}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </>
            )}
          </li>
        ))}
      </ul>
      <form onSubmit={(e) => void onAdd(e)} noValidate className="grid gap-3 sm:grid-cols-[1fr_1fr_auto_auto] sm:items-start">
        <FormField
          label={t('attributes.key')}
          description={t('attributes.keyHint')}
          error={form.formState.errors.key?.message}
          className="gap-1"
        >
          <Input autoComplete="off" {...form.register('key')} />
        </FormField>
        <FormField label={t('attributes.label')} error={form.formState.errors.label?.message} className="gap-1">
          <Input autoComplete="off" {...form.register('label')} />
        </FormField>
        <FormField label={t('attributes.typeLabel')} error={form.formState.errors.type?.message} className="gap-1">
          <select className={selectClass} {...form.register('type')}>
            {ATTRIBUTE_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(ATTRIBUTE_TYPE_WORDS[type])}
              </option>
            ))}
          </select>
        </FormField>
        <Button type="submit" className="sm:mt-6" disabled={put.isPending}>
          {t('attributes.add')}
        </Button>
      </form>
    </section>
  );
}

function EditAttributeForm({
  def,
  pending,
  onSave,
  onCancel,
}: {
  def: AttributeDef;
  pending: boolean;
  onSave: (changed: z.output<typeof editAttributeSchema>) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useT();
  const form = useZodForm(editAttributeSchema, { defaultValues: { label: def.label, type: def.type } });
  const onSubmit = form.handleSubmit(onSave);
  return (
    <form className="flex flex-1 flex-wrap items-start gap-2" noValidate onSubmit={(e) => void onSubmit(e)}>
      <FormField
        label={t('attributes.labelOf', { key: def.key })}
        error={form.formState.errors.label?.message}
        className="min-w-48 flex-1 gap-1"
      >
        <Input autoComplete="off" {...form.register('label')} />
      </FormField>
      <FormField label={t('attributes.typeOf', { key: def.key })} error={form.formState.errors.type?.message} className="gap-1">
        <select className={selectClass} {...form.register('type')}>
          {ATTRIBUTE_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(ATTRIBUTE_TYPE_WORDS[type])}
            </option>
          ))}
        </select>
      </FormField>
      <Button type="submit" size="sm" className="mt-6" disabled={pending}>
        {t('common.save')}
      </Button>
      <Button type="button" size="sm" variant="ghost" className="mt-6" onClick={onCancel}>
        {t('common.cancel')}
      </Button>
    </form>
  );
}
