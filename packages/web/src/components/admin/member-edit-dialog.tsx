import { useEffect, useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CONTACT_CHANGE_AFTER_VOTE, UpdateMemberBody, type Member } from '@kura/contract';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/hooks/use-toast';
import { api } from '@/lib/api';
import { errorIssue, errorMessage, fieldErrorsOf, firstFieldError, zodFieldErrors } from '@/lib/errors';
import { ContactFields, type ContactValues } from './contact-fields';
import { useBranches } from '@/hooks/use-admin-lists';
import { queryKeys } from '@/lib/queries';

type Values = ContactValues & { member_no: string };

const valuesOf = (m: Member | null): Values => ({
  name: m?.name ?? '',
  member_no: m?.member_no ?? '',
  phone: m?.phone ?? '',
  email: m?.email ?? '',
  county: m?.county ?? '',
});

/** Edit member dialog (docs/screens.md "Staff pages"): name, member no, phone, email and a branch select. */
export function MemberEditDialog({ member, onClose }: { member: Member | null; onClose: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const { branches, loading } = useBranches();
  const update = api.members.updateMember.useMutation();
  const [values, setValues] = useState<Values>(valuesOf(member));
  const [errors, setErrors] = useState<Record<string, string>>({});
  /** The server refused a phone or email change of a member who voted: the admin may confirm it. */
  const [confirmContact, setConfirmContact] = useState<string | null>(null);

  useEffect(() => {
    setValues(valuesOf(member));
    setErrors({});
    setConfirmContact(null);
  }, [member]);

  const set = (key: keyof Values, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: '' }));
    if (key === 'phone' || key === 'email') setConfirmContact(null);
  };

  const save = async (confirmed: boolean) => {
    if (!member) return;
    const parsed = UpdateMemberBody.safeParse(values);
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error.issues));
      return;
    }
    try {
      await update.mutateAsync({
        params: { id: member.id },
        body: { ...parsed.data, ...(confirmed ? { confirm_contact_change: true } : {}) },
      });
      toast({ variant: 'success', title: 'Member updated successfully' });
      await queryClient.invalidateQueries({ queryKey: queryKeys.members });
      onClose();
    } catch (err) {
      if (!confirmed && errorIssue(err) === CONTACT_CHANGE_AFTER_VOTE) {
        setConfirmContact(errorMessage(err) ?? CONTACT_CHANGE_AFTER_VOTE);
        return;
      }
      setErrors(fieldErrorsOf(err));
      toast({ variant: 'destructive', title: 'Error updating member', description: firstFieldError(err) ?? errorMessage(err) });
    }
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    void save(false);
  };

  return (
    <Dialog open={member !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Edit member</DialogTitle>
            <DialogDescription>Change the member's details and branch.</DialogDescription>
          </DialogHeader>
          <ContactFields id={id} values={values} errors={errors} onChange={set} branches={branches} branchesLoading={loading} />
          {confirmContact && (
            <div role="alert" className="grid gap-2 rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2 text-sm">
              <p>{confirmContact}.</p>
              <p>
                The member's sign-in codes will go to the new phone or email, and they will be told on the old one. Change it only if you
                are sure the member asked for it.
              </p>
              <Button type="button" variant="destructive" className="w-fit" disabled={update.isPending} onClick={() => void save(true)}>
                Confirm the contact change
              </Button>
            </div>
          )}
          <DialogFooter>
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? 'Saving…' : 'Save'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
