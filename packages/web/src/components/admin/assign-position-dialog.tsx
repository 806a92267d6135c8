import { useEffect, useId } from 'react';
import { AssignPositionsBody, type Member } from '@kura/contract';
import { FormField, FormFooter, useZodForm } from '@/components/forms';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { toast } from '@/hooks/use-toast';
import { useCandidatePositions } from '@/hooks/use-admin-lists';
import { positionOptionLabel } from '@/lib/format';
import { useAssignPositions } from '@/lib/mutations';
import { useT } from '@/i18n';

/**
 * Assign Position dialog (docs/screens.md "Staff pages"): the member number and a checkbox list of positions
 * ('name - level'). Saving sends the member number and the ticked position ids (docs/screens.md "Staff pages"),
 * which replace the member's set.
 */
export function AssignPositionDialog({ member, onClose }: { member: Member | null; onClose: () => void }) {
  const { t } = useT();
  const id = useId();
  const { standable: positions, loading, error } = useCandidatePositions();
  const assign = useAssignPositions();
  const form = useZodForm(AssignPositionsBody, {
    defaultValues: { member_no: member?.member_no ?? '', position_ids: member?.psk_position_ids ?? [] },
  });
  const { reset } = form;
  const selected = form.watch('position_ids');

  useEffect(() => {
    reset({ member_no: member?.member_no ?? '', position_ids: member?.psk_position_ids ?? [] });
  }, [member, reset]);

  const toggle = (positionId: number, on: boolean) =>
    form.setValue('position_ids', on ? [...new Set([...selected, positionId])] : selected.filter((x) => x !== positionId));

  const submit = form.handleSubmit(async (body) => {
    if (!member) return;
    try {
      await assign.mutateAsync({ body });
      toast({ variant: 'success', title: t('admin.assign.success') });
      onClose();
    } catch {
      // the hook toasts the failure
    }
  });

  return (
    <Dialog open={member !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{t('admin.assign.title')}</DialogTitle>
            <DialogDescription>{member ? t('admin.assign.description', { name: member.name }) : ''}</DialogDescription>
          </DialogHeader>
          <FormField id={`${id}-member-no`} label={t('admin.field.memberNo')} error={form.formState.errors.member_no?.message}>
            <Input readOnly {...form.register('member_no')} />
          </FormField>
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">{t('admin.assign.positions')}</legend>
            {loading ? (
              <Loading label={t('admin.positions.loading')} />
            ) : error ? (
              <ErrorState>{t('admin.positions.loadError')}</ErrorState>
            ) : positions.length === 0 ? (
              <EmptyState>{t('admin.positions.none')}</EmptyState>
            ) : (
              <ul className="grid max-h-64 gap-2 overflow-y-auto pr-1">
                {positions.map((p) => {
                  const cid = `${id}-position-${p.id}`;
                  return (
                    <li key={p.id} className="flex items-center gap-3">
                      <Checkbox id={cid} checked={selected.includes(p.id)} onCheckedChange={(v) => toggle(p.id, v === true)} />
                      <label htmlFor={cid} className="text-sm">
                        {positionOptionLabel(p)}
                      </label>
                    </li>
                  );
                })}
              </ul>
            )}
          </fieldset>
          <FormFooter
            pending={assign.isPending}
            disabled={loading}
            submitLabel={t('admin.members.assign')}
            pendingLabel={t('common.saving')}
            onCancel={onClose}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
