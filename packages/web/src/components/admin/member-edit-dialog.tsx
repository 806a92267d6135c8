import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { branchRefSchema, CONTACT_CHANGE_AFTER_VOTE, UpdateMemberBody, type Member } from '@kura/contract';
import { fieldMessages, FormFooter, setServerErrors, useZodForm } from '@/components/forms';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/hooks/use-toast';
import { errorIssue, errorMessage, fieldErrorsOf } from '@/lib/errors';
import { useUpdateMember } from '@/lib/mutations';
import { ContactFields } from './contact-fields';
import { MemberLanguageField } from './member-language-field';
import { useBranches } from '@/hooks/use-admin-lists';
import { queries } from '@/lib/queries';
import { attributeInput, changedAttributes, invalidAttributeMessage, MemberAttributeFields } from './member-attribute-fields';
import { useT } from '@/i18n';

/** The contract's body; the branch select holds the branch's name. */
const memberSchema = UpdateMemberBody.omit({ confirm_contact_change: true, attributes: true }).extend({
  county: z.string().pipe(branchRefSchema),
});

const valuesOf = (m: Member) => ({
  name: m.name,
  member_no: m.member_no,
  phone: m.phone ?? '',
  email: m.email ?? '',
  county: m.county ?? '',
  language: m.language ?? '',
});

/**
 * Edit member dialog (docs/screens.md "Staff pages"): name, member no, phone, email, a branch
 * select, the language, and the organisation's attributes (docs/api.md "The register": only those
 * changed are sent, an emptied one as null).
 */
export function MemberEditDialog({ member, onClose }: { member: Member | null; onClose: () => void }) {
  return (
    <Dialog open={member !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent>{member && <MemberEditForm key={member.id} member={member} onClose={onClose} />}</DialogContent>
    </Dialog>
  );
}

/** The dialog's form, mounted afresh for each member. */
function MemberEditForm({ member, onClose }: { member: Member; onClose: () => void }) {
  const { t, tReceived } = useT();
  const id = useId();
  const { branches, loading } = useBranches();
  const update = useUpdateMember();
  const form = useZodForm(memberSchema, { defaultValues: valuesOf(member) });
  /** The server refused a phone or email change of a member who voted: the admin may confirm it. */
  const [confirmContact, setConfirmContact] = useState<string | null>(null);
  const defs = useQuery(queries.memberAttributes()).data?.body.data ?? [];
  /** The attribute fields the admin touched, by key (the others show the stored value). */
  const [edited, setEdited] = useState<Record<string, string>>({});
  const [attributeErrors, setAttributeErrors] = useState<Partial<Record<string, string>>>({});
  const attributeValues = Object.fromEntries(defs.map((d) => [d.key, edited[d.key] ?? attributeInput(member.attributes?.[d.key])]));

  const save = (confirmed: boolean) =>
    form.handleSubmit(async (body) => {
      const { attributes, invalid } = changedAttributes(defs, member.attributes, edited);
      setAttributeErrors(Object.fromEntries(Object.entries(invalid).map(([key, type]) => [key, invalidAttributeMessage(type, t)])));
      if (Object.keys(invalid).length > 0) return;
      try {
        await update.mutateAsync({
          params: { id: member.id },
          body: {
            ...body,
            ...(Object.keys(attributes).length > 0 ? { attributes } : {}),
            ...(confirmed ? { confirm_contact_change: true } : {}),
          },
        });
        toast({ variant: 'success', title: t('admin.memberEdit.updated') });
        onClose();
      } catch (err) {
        if (!confirmed && errorIssue(err) === CONTACT_CHANGE_AFTER_VOTE) {
          setConfirmContact(errorMessage(err) ?? CONTACT_CHANGE_AFTER_VOTE);
          return;
        }
        const fields = fieldErrorsOf(err);
        // "attributes.shares": under that attribute's field
        setAttributeErrors(
          Object.fromEntries(
            Object.entries(fields)
              .filter(([k]) => k.startsWith('attributes.'))
              .map(([k, m]) => [k.slice('attributes.'.length), m]),
          ),
        );
        setServerErrors(form, Object.fromEntries(Object.entries(fields).filter(([k]) => !k.startsWith('attributes.'))));
      }
    });

  return (
    <form onSubmit={save(false)} className="grid gap-4" noValidate>
      <DialogHeader>
        <DialogTitle>{t('admin.memberEdit.title')}</DialogTitle>
        <DialogDescription>{t('admin.memberEdit.description')}</DialogDescription>
      </DialogHeader>
      <ContactFields
        id={id}
        values={{ ...form.watch(), email: form.watch('email') ?? '' }}
        errors={fieldMessages(form.formState.errors)}
        onChange={(key, value) => {
          form.setValue(key, value, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
          if (key === 'phone' || key === 'email') setConfirmContact(null);
        }}
        branches={branches}
        branchesLoading={loading}
      />
      <MemberLanguageField
        id={id}
        value={form.watch('language') ?? ''}
        onChange={(v) => form.setValue('language', v, { shouldDirty: true })}
        error={form.formState.errors.language?.message}
      />
      <MemberAttributeFields
        id={id}
        defs={defs}
        values={attributeValues}
        errors={attributeErrors}
        onChange={(key, value) => setEdited((was) => ({ ...was, [key]: value }))}
      />
      {confirmContact && (
        <div role="alert" className="grid gap-2 rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2 text-sm">
          <p>{tReceived(confirmContact)}.</p>
          <p>{t('admin.memberEdit.contactWarning')}</p>
          <Button type="button" variant="destructive" className="w-fit" disabled={update.isPending} onClick={() => void save(true)()}>
            {t('admin.memberEdit.confirmContact')}
          </Button>
        </div>
      )}
      <FormFooter pending={update.isPending} submitLabel={t('common.save')} pendingLabel={t('common.saving')} onCancel={onClose} />
    </form>
  );
}
