import { useId } from 'react';
import { z } from 'zod';
import { branchRefSchema, CreateMemberBody } from '@kura/contract';
import { fieldMessages, FormFooter, setServerErrors, useZodForm } from '@/components/forms';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/hooks/use-toast';
import { fieldErrorsOf } from '@/lib/errors';
import { useCreateMember } from '@/lib/mutations';
import { useBranches } from '@/hooks/use-admin-lists';
import { ContactFields } from './contact-fields';
import { MemberLanguageField } from './member-language-field';
import { useT } from '@/i18n';

/** The contract's body with the branch select's name under `county`, as the edit dialog holds it. */
const addSchema = CreateMemberBody.omit({ branch: true }).extend({ county: z.string().pipe(branchRefSchema) });

const EMPTY = { name: '', member_no: '', phone: '', email: '', county: '', language: '' };

/** Add member dialog (docs/screens.md "Staff pages"): POST members with the import's rules for one line. */
export function MemberAddDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent>{open && <MemberAddForm onClose={onClose} />}</DialogContent>
    </Dialog>
  );
}

function MemberAddForm({ onClose }: { onClose: () => void }) {
  const { t } = useT();
  const id = useId();
  const { branches, loading } = useBranches();
  const create = useCreateMember();
  const form = useZodForm(addSchema, { defaultValues: EMPTY });

  const save = form.handleSubmit(async ({ county, ...body }) => {
    try {
      await create.mutateAsync({ body: { ...body, branch: county } });
      toast({ variant: 'success', title: t('admin.memberAdd.added') });
      onClose();
    } catch (err) {
      // The server names the branch `branch`; the form holds it as `county`.
      const errors = fieldErrorsOf(err);
      if (errors?.branch) errors.county = errors.branch;
      setServerErrors(form, errors);
    }
  });

  return (
    <form onSubmit={save} className="grid gap-4" noValidate>
      <DialogHeader>
        <DialogTitle>{t('admin.memberAdd.title')}</DialogTitle>
        <DialogDescription>{t('admin.memberAdd.description')}</DialogDescription>
      </DialogHeader>
      <ContactFields
        id={id}
        values={{ ...form.watch(), email: form.watch('email') ?? '' }}
        errors={fieldMessages(form.formState.errors)}
        onChange={(key, value) => form.setValue(key, value, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
        branches={branches}
        branchesLoading={loading}
      />
      <MemberLanguageField
        id={id}
        value={form.watch('language') ?? ''}
        onChange={(v) => form.setValue('language', v, { shouldDirty: true })}
        error={form.formState.errors.language?.message}
      />
      <FormFooter
        pending={create.isPending}
        submitLabel={t('admin.memberAdd.submit')}
        pendingLabel={t('common.saving')}
        onCancel={onClose}
      />
    </form>
  );
}
