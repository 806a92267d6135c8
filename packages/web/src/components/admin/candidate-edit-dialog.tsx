import { useEffect, useId, useState } from 'react';
import { UpdateCandidateBody, type Candidate } from '@kura/contract';
import { FieldError } from '@/components/auth/field-error';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { zodFieldErrors } from '@/lib/errors';
import { CandidateMediaFields, candidateForm, useCandidateMedia, useCandidateSave } from './candidate-fields';
import { ContactFields, type ContactValues } from './contact-fields';
import { useBranches, useCandidatePositions } from '@/hooks/use-admin-lists';
import { positionOptionLabel } from '@/lib/format';

const valuesOf = (c: Candidate | null): ContactValues => ({
  name: c?.name ?? '',
  phone: c?.phone ?? '',
  email: c?.email ?? '',
  county: c?.county ?? '',
});

/**
 * Edit Candidate dialog (docs/screens.md "Staff pages"): name, phone, email, branch select, position checkboxes, a
 * profile picture file (optional) with a preview and the statement to voters (at most 2,000 characters, with a
 * counter). Sent as multipart with position_ids[]; an emptied statement clears it.
 */
export function CandidateEditDialog({ candidate, onClose }: { candidate: Candidate | null; onClose: () => void }) {
  const id = useId();
  const media = useCandidateMedia();
  const { reset } = media;
  const { branches, loading: branchesLoading } = useBranches();
  const { positions, loading: positionsLoading, error: positionsError } = useCandidatePositions();
  const { save, pending } = useCandidateSave();
  const [values, setValues] = useState<ContactValues>(valuesOf(candidate));
  const [selected, setSelected] = useState<number[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    setValues(valuesOf(candidate));
    setSelected(candidate?.positions.map((p) => p.id) ?? []);
    reset(candidate?.statement ?? '');
    setErrors({});
  }, [candidate, reset]);

  const set = (key: keyof ContactValues, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: '' }));
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!candidate) return;
    const parsed = UpdateCandidateBody.safeParse({ ...values, position_ids: selected, statement: media.statement });
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error.issues));
      return;
    }
    const saved = await save({
      id: candidate.id,
      form: candidateForm(parsed.data, media.image, 'send'),
      saved: { title: 'Candidate updated successfully' },
      failed: 'Error updating candidate',
      onFieldErrors: setErrors,
    });
    if (saved) onClose();
  };

  return (
    <Dialog open={candidate !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Edit Candidate</DialogTitle>
            <DialogDescription>{candidate ? `Member no ${candidate.member_no}` : ''}</DialogDescription>
          </DialogHeader>
          <ContactFields id={id} values={values} errors={errors} onChange={set} branches={branches} branchesLoading={branchesLoading} />
          <fieldset className="grid gap-2" aria-describedby={errors.position_ids ? `${id}-positions-error` : undefined}>
            <legend className="mb-2 text-sm font-medium">Positions</legend>
            {positionsLoading ? (
              <Loading label="Loading positions…" />
            ) : positionsError ? (
              <ErrorState>The positions could not be loaded.</ErrorState>
            ) : positions.length === 0 ? (
              <EmptyState>There are no positions yet.</EmptyState>
            ) : (
              <ul className="grid max-h-48 gap-2 overflow-y-auto pr-1">
                {positions.map((p) => {
                  const cid = `${id}-position-${p.id}`;
                  return (
                    <li key={p.id} className="flex items-center gap-3">
                      <Checkbox
                        id={cid}
                        checked={selected.includes(p.id)}
                        onCheckedChange={(v) => setSelected((s) => (v === true ? [...new Set([...s, p.id])] : s.filter((x) => x !== p.id)))}
                      />
                      <label htmlFor={cid} className="text-sm">
                        {positionOptionLabel(p)}
                      </label>
                    </li>
                  );
                })}
              </ul>
            )}
            <FieldError id={`${id}-positions-error`} message={errors.position_ids} />
          </fieldset>
          <CandidateMediaFields
            id={id}
            media={media}
            current={candidate?.image_url ?? null}
            name={values.name}
            errors={errors}
            setErrors={setErrors}
          />
          <DialogFooter>
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? 'Saving…' : 'Save'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
