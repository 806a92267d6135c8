import { useEffect, useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Member } from '@kura/contract';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/hooks/use-toast';
import { api } from '@/lib/api';
import { useCandidatePositions } from '@/hooks/use-admin-lists';
import { positionOptionLabel } from '@/lib/format';
import { queryKeys } from '@/lib/queries';

/**
 * Assign Position dialog (docs/screens.md "Staff pages"): the member number and a checkbox list of positions
 * ('name - level'). Saving sends the member number and the ticked position ids (docs/screens.md "Staff pages"),
 * which replace the member's set.
 */
export function AssignPositionDialog({ member, onClose }: { member: Member | null; onClose: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const { positions, loading, error } = useCandidatePositions();
  const assign = api.members.assignPositions.useMutation();
  const [selected, setSelected] = useState<number[]>(member?.psk_position_ids ?? []);

  useEffect(() => {
    setSelected(member?.psk_position_ids ?? []);
  }, [member]);

  const toggle = (positionId: number, on: boolean) =>
    setSelected((s) => (on ? [...new Set([...s, positionId])] : s.filter((x) => x !== positionId)));

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!member) return;
    try {
      await assign.mutateAsync({ body: { member_no: member.member_no, position_ids: selected } });
      toast({ variant: 'success', title: 'Position assigned successfully' });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.members }),
        queryClient.invalidateQueries({ queryKey: queryKeys.candidates }),
      ]);
      onClose();
    } catch {
      toast({ variant: 'destructive', title: 'Error assigning position', description: 'Please try again.' });
    }
  };

  return (
    <Dialog open={member !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Assign Position</DialogTitle>
            <DialogDescription>{member ? `Positions ${member.name} stands for.` : ''}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-member-no`}>Member no</Label>
            <Input id={`${id}-member-no`} value={member?.member_no ?? ''} readOnly />
          </div>
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">Positions</legend>
            {loading ? (
              <Loading label="Loading positions…" />
            ) : error ? (
              <ErrorState>The positions could not be loaded.</ErrorState>
            ) : positions.length === 0 ? (
              <EmptyState>There are no positions yet.</EmptyState>
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
          <DialogFooter>
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={assign.isPending || loading}>
              {assign.isPending ? 'Saving…' : 'Assign'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
