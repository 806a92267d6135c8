import { useEffect, useId, useState } from 'react';
import { z } from 'zod';
import { branchRefSchema, CONTACT_CHANGE_AFTER_VOTE, UpdateMemberBody, type Member } from '@kura/contract';
import { fieldMessages, FormFooter, setServerErrors, useZodForm } from '@/components/forms';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/hooks/use-toast';
import { errorIssue, errorMessage, fieldErrorsOf } from '@/lib/errors';
import { useUpdateMember } from '@/lib/mutations';
import { ContactFields } from './contact-fields';
import { useBranches } from '@/hooks/use-admin-lists';

/** The contract's body; the branch select holds the branch's name. */
const memberSchema = UpdateMemberBody.omit({ confirm_contact_change: true }).extend({ county: z.string().pipe(branchRefSchema) });

const valuesOf = (m: Member | null) => ({
  name: m?.name ?? '',
  member_no: m?.member_no ?? '',
  phone: m?.phone ?? '',
  email: m?.email ?? '',
  county: m?.county ?? '',
});

/** Edit member dialog (docs/screens.md "Staff pages"): name, member no, phone, email and a branch select. */
export function MemberEditDialog({ member, onClose }: { member: Member | null; onClose: () => void }) {
  const id = useId();
  const { branches, loading } = useBranches();
  const update = useUpdateMember();
  const form = useZodForm(memberSchema, { defaultValues: valuesOf(member) });
  const { reset } = form;
  /** The server refused a phone or email change of a member who voted: the admin may confirm it. */
  const [confirmContact, setConfirmContact] = useState<string | null>(null);

  useEffect(() => {
    reset(valuesOf(member));
    setConfirmContact(null);
  }, [member, reset]);

  const save = (confirmed: boolean) =>
    form.handleSubmit(async (body) => {
      if (!member) return;
      try {
        await update.mutateAsync({ params: { id: member.id }, body: { ...body, ...(confirmed ? { confirm_contact_change: true } : {}) } });
        toast({ variant: 'success', title: 'Member updated successfully' });
        onClose();
      } catch (err) {
        if (!confirmed && errorIssue(err) === CONTACT_CHANGE_AFTER_VOTE) {
          setConfirmContact(errorMessage(err) ?? CONTACT_CHANGE_AFTER_VOTE);
          return;
        }
        setServerErrors(form, fieldErrorsOf(err));
      }
    });

  return (
    <Dialog open={member !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent>
        <form onSubmit={save(false)} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Edit member</DialogTitle>
            <DialogDescription>Change the member's details and branch.</DialogDescription>
          </DialogHeader>
          <ContactFields
            id={id}
            values={form.watch()}
            errors={fieldMessages(form.formState.errors)}
            onChange={(key, value) => {
              form.setValue(key, value, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
              if (key === 'phone' || key === 'email') setConfirmContact(null);
            }}
            branches={branches}
            branchesLoading={loading}
          />
          {confirmContact && (
            <div role="alert" className="grid gap-2 rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2 text-sm">
              <p>{confirmContact}.</p>
              <p>
                The member's sign-in codes will go to the new phone or email, and they will be told on the old one. Change it only if you
                are sure the member asked for it.
              </p>
              <Button type="button" variant="destructive" className="w-fit" disabled={update.isPending} onClick={() => void save(true)()}>
                Confirm the contact change
              </Button>
            </div>
          )}
          <FormFooter pending={update.isPending} submitLabel="Save" pendingLabel="Saving…" onCancel={onClose} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
