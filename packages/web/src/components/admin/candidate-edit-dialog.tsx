import { useEffect, useId, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { UpdateCandidateBody, type Candidate } from '@kura/contract';
import { FieldError } from '@/components/auth/field-error';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { staffKeys } from '@/components/staff/staff-queries';
import { api, errorMessage, firstFieldError } from '@/lib/api';
import { CandidatePhoto } from './candidate-photo';
import { ContactFields, type ContactValues } from './contact-fields';
import { fieldErrorsOf, positionOptionLabel, useBranches, useCandidatePositions, zodFieldErrors } from './use-admin-lists';

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The server checks the bytes; this catches the obvious mistakes before the upload. */
export function imageProblem(file: File): string | null {
  if (!IMAGE_TYPES.includes(file.type)) return 'Images must be JPEG, PNG or WebP files';
  if (file.size > MAX_IMAGE_BYTES) return 'The image must be at most 5 MB';
  return null;
}

const valuesOf = (c: Candidate | null): ContactValues => ({ name: c?.name ?? '', phone: c?.phone ?? '', email: c?.email ?? '', county: c?.county ?? '' });

/**
 * Edit Candidate dialog (docs/screens.md "Staff pages"): name, phone, email, branch select, position checkboxes and a
 * profile picture file (optional; docs/screens.md "Staff pages") with a preview. Sent as multipart with position_ids[].
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
  const [preview, setPreview] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    setValues(valuesOf(candidate));
    setSelected(candidate?.positions.map((p) => p.id) ?? []);
    setImage(null);
    setErrors({});
    if (fileRef.current) fileRef.current.value = '';
  }, [candidate]);

  useEffect(() => {
    if (!image || typeof URL.createObjectURL !== 'function') {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(image);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [image]);

  const set = (key: keyof ContactValues, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: '' }));
  };

  const onFile = (file: File | undefined) => {
    if (!file) {
      setImage(null);
      return;
    }
    const problem = imageProblem(file);
    setErrors((e) => ({ ...e, image: problem ?? '' }));
    setImage(problem ? null : file);
    if (problem && fileRef.current) fileRef.current.value = '';
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!candidate) return;
    const parsed = UpdateCandidateBody.safeParse({ ...values, position_ids: selected });
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
    try {
      await update.mutateAsync({ params: { id: candidate.id }, body: form });
      toast({ variant: 'success', title: 'Candidate updated successfully' });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: staffKeys.candidates }),
        queryClient.invalidateQueries({ queryKey: staffKeys.members }),
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
          <div className="grid gap-2">
            <Label htmlFor={`${id}-image`}>Profile picture (optional)</Label>
            <div className="flex items-center gap-3">
              <CandidatePhoto src={preview ?? candidate?.image_url ?? null} name={values.name} className="size-16" />
              <input
                ref={fileRef}
                id={`${id}-image`}
                type="file"
                accept="image/jpeg,image/png,image/webp"
                aria-invalid={errors.image ? true : undefined}
                aria-describedby={errors.image ? `${id}-image-error` : undefined}
                onChange={(ev) => onFile(ev.target.files?.[0])}
                className="min-w-0 text-sm file:mr-3 file:rounded-md file:border file:border-input file:bg-background file:px-3 file:py-1.5"
              />
            </div>
            {preview && <p className="text-xs text-muted-foreground">Preview of the new picture; it is saved with the form.</p>}
            <FieldError id={`${id}-image-error`} message={errors.image} />
          </div>
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
