import { useEffect, useId, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { UpdateCandidateBody, type Candidate } from '@kura/contract';
import { FieldError } from '@/components/auth/field-error';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/hooks/use-toast';
import { api } from '@/lib/api';
import { errorMessage, fieldErrorsOf, firstFieldError, zodFieldErrors } from '@/lib/errors';
import { PhotoField, StatementField } from './candidate-fields';
import { ContactFields, type ContactValues } from './contact-fields';
import { useBranches, useCandidatePositions } from '@/hooks/use-admin-lists';
import { positionOptionLabel } from '@/lib/format';
import { queryKeys } from '@/lib/queries';

const valuesOf = (c: Candidate | null): ContactValues => ({ name: c?.name ?? '', phone: c?.phone ?? '', email: c?.email ?? '', county: c?.county ?? '' });

/**
 * Edit Candidate dialog (docs/screens.md "Staff pages"): name, phone, email, branch select, position checkboxes, a
 * profile picture file (optional) with a preview and the statement to voters (at most 2,000 characters, with a
 * counter). Sent as multipart with position_ids[]; an emptied statement clears it.
 */
export function CandidateEditDialog({ candidate, onClose }: { candidate: Candidate | null; onClose: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const fileRef = useRef<HTMLInputElement>(null);
  const { branches, loading: branchesLoading } = useBranches();
  const { positions, loading: positionsLoading, error: positionsError } = useCandidatePositions();
  const update = api.candidates.updateCandidate.useMutation();
  const [values, setValues] = useState<ContactValues>(valuesOf(candidate));
  const [selected, setSelected] = useState<number[]>([]);
  const [image, setImage] = useState<File | null>(null);
  const [statement, setStatement] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    setValues(valuesOf(candidate));
    setSelected(candidate?.positions.map((p) => p.id) ?? []);
    setStatement(candidate?.statement ?? '');
    setImage(null);
    setErrors({});
    if (fileRef.current) fileRef.current.value = '';
  }, [candidate]);

  const set = (key: keyof ContactValues, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: '' }));
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!candidate) return;
    const parsed = UpdateCandidateBody.safeParse({ ...values, position_ids: selected, statement });
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error.issues));
      return;
    }
    const form = new FormData();
    if (image) form.append('image', image);
    form.append('name', parsed.data.name);
    form.append('phone', parsed.data.phone);
    form.append('email', parsed.data.email);
    form.append('county', parsed.data.county);
    for (const pid of parsed.data.position_ids) form.append('position_ids[]', String(pid));
    form.append('statement', parsed.data.statement ?? '');
    try {
      await update.mutateAsync({ params: { id: candidate.id }, body: form });
      toast({ variant: 'success', title: 'Candidate updated successfully' });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.candidates }),
        queryClient.invalidateQueries({ queryKey: queryKeys.members }),
      ]);
      onClose();
    } catch (err) {
      setErrors(fieldErrorsOf(err));
      toast({ variant: 'destructive', title: 'Error updating candidate', description: firstFieldError(err) ?? errorMessage(err) ?? 'Please try again.' });
    }
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
          <PhotoField
            id={id}
            fileRef={fileRef}
            current={candidate?.image_url ?? null}
            name={values.name}
            image={image}
            error={errors.image}
            onImage={setImage}
            onError={(message) => setErrors((e) => ({ ...e, image: message }))}
          />
          <StatementField
            id={id}
            value={statement}
            error={errors.statement}
            onChange={(v) => {
              setStatement(v);
              if (errors.statement) setErrors((e) => ({ ...e, statement: '' }));
            }}
          />
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
