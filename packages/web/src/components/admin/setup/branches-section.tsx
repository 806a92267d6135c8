import { useId, useState } from 'react';
import { BranchBody, type Branch } from '@kura/contract';
import { Pencil, Trash2 } from 'lucide-react';
import { FormField, useZodForm } from '@/components/forms';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useBranches } from '@/hooks/use-admin-lists';
import { toast } from '@/hooks/use-toast';
import { useCreateBranch, useDeleteBranch, useRenameBranch } from '@/lib/mutations';
import { SectionProblem, useProblem } from './section-problem';
import { useT } from '@/i18n';

/** Branches: add, rename, delete; the server's refusal (409) shown above the list. */
export function BranchesSection() {
  const { t } = useT();
  const id = useId();
  const { branches } = useBranches();
  const create = useCreateBranch();
  const remove = useDeleteBranch();
  const [editing, setEditing] = useState<number | null>(null);
  const problem = useProblem();
  const form = useZodForm(BranchBody, { defaultValues: { name: '' } });

  const onAdd = form.handleSubmit(async (body) => {
    if (await problem.run(() => create.mutateAsync({ body }))) {
      toast({ variant: 'success', title: t('admin.branches.added') });
      form.reset({ name: '' });
    }
  });
  const onDelete = async (b: Branch) => {
    if (await problem.run(() => remove.mutateAsync({ params: { id: b.id } })))
      toast({ variant: 'success', title: t('admin.branches.deleted') });
  };

  return (
    <section aria-labelledby={`${id}-h`} className="rounded-lg border border-border bg-card p-4 shadow-sm">
      <h2 id={`${id}-h`} className="mb-3 text-lg font-semibold">
        {t('admin.setup.branches')}
      </h2>
      <SectionProblem problem={problem.text} />
      <ul className="mb-3 grid gap-2" aria-label={t('admin.setup.branches')}>
        {branches.length === 0 && <li className="text-sm text-muted-foreground">{t('admin.branches.none')}</li>}
        {branches.map((b) => (
          <li key={b.id} className="flex flex-wrap items-center gap-2">
            {editing === b.id ? (
              <RenameBranchForm branch={b} run={problem.run} onDone={() => setEditing(null)} />
            ) : (
              <>
                <span className="min-w-0 flex-1 break-words">{b.name}</span>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  aria-label={t('admin.branches.rename', { name: b.name })}
                  onClick={() => setEditing(b.id)}
                >
                  <Pencil aria-hidden="true" />
                </Button>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  aria-label={t('admin.branches.delete', { name: b.name })}
                  onClick={() => void onDelete(b)}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </>
            )}
          </li>
        ))}
      </ul>
      <form onSubmit={(e) => void onAdd(e)} noValidate className="flex flex-wrap items-end gap-2">
        <FormField label={t('admin.branches.newName')} error={form.formState.errors.name?.message} className="gap-1">
          <Input className="w-56" {...form.register('name')} />
        </FormField>
        <Button type="submit" disabled={create.isPending}>
          {t('admin.branches.add')}
        </Button>
      </form>
    </section>
  );
}

function RenameBranchForm({
  branch,
  run,
  onDone,
}: {
  branch: Branch;
  run: (work: () => Promise<unknown>) => Promise<boolean>;
  onDone: () => void;
}) {
  const { t } = useT();
  const rename = useRenameBranch();
  const form = useZodForm(BranchBody, { defaultValues: { name: branch.name } });
  const onSubmit = form.handleSubmit(async (body) => {
    if (await run(() => rename.mutateAsync({ params: { id: branch.id }, body }))) {
      toast({ variant: 'success', title: t('admin.branches.renamed') });
      onDone();
    }
  });
  return (
    <form className="flex flex-wrap items-start gap-2" noValidate onSubmit={(e) => void onSubmit(e)}>
      <FormField
        label={<span className="sr-only">{t('admin.branches.newNameOf', { name: branch.name })}</span>}
        error={form.formState.errors.name?.message}
        className="gap-1"
      >
        <Input className="w-48" {...form.register('name')} />
      </FormField>
      <Button type="submit" size="sm" disabled={rename.isPending}>
        {t('common.save')}
      </Button>
      <Button type="button" size="sm" variant="ghost" onClick={onDone}>
        {t('common.cancel')}
      </Button>
    </form>
  );
}
