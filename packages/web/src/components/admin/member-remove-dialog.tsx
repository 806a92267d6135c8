import { useState } from 'react';
import type { Member } from '@kura/contract';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/hooks/use-toast';
import { errorMessage, errorStatus } from '@/lib/errors';
import { useDeleteMember } from '@/lib/mutations';
import { useT } from '@/i18n';

/**
 * Remove member, confirmed (docs/screens.md "Staff pages"): DELETE members/{id}. A member who voted,
 * stands or is on a frozen roll stays; the dialog shows the server's reason.
 */
export function MemberRemoveDialog({ member, onClose }: { member: Member | null; onClose: () => void }) {
  return (
    <Dialog open={member !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent>{member && <MemberRemoveForm key={member.id} member={member} onClose={onClose} />}</DialogContent>
    </Dialog>
  );
}

function MemberRemoveForm({ member, onClose }: { member: Member; onClose: () => void }) {
  const { t, tReceived } = useT();
  const remove = useDeleteMember();
  const [refused, setRefused] = useState<string | null>(null);

  const confirm = async () => {
    try {
      await remove.mutateAsync({ params: { id: member.id } });
      toast({ variant: 'success', title: t('admin.memberRemove.removed') });
      onClose();
    } catch (err) {
      if (errorStatus(err) === 409) setRefused(errorMessage(err) ?? t('common.somethingWrong'));
    }
  };

  return (
    <div className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{t('admin.memberRemove.title')}</DialogTitle>
        <DialogDescription>{t('admin.memberRemove.description', { name: member.name, memberNo: member.member_no })}</DialogDescription>
      </DialogHeader>
      {refused && (
        <p role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2 text-sm">
          {tReceived(refused)}
        </p>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        {!refused && (
          <Button type="button" variant="destructive" disabled={remove.isPending} onClick={() => void confirm()}>
            {remove.isPending ? t('admin.memberRemove.busy') : t('admin.memberRemove.confirm')}
          </Button>
        )}
      </DialogFooter>
    </div>
  );
}
