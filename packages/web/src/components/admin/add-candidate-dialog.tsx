import { useEffect, useId, useState } from 'react';
import { UpdateCandidateBody, type Member } from '@kura/contract';
import { Search } from 'lucide-react';
import { FieldError } from '@/components/auth/field-error';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useCandidatePositions } from '@/hooks/use-admin-lists';
import { api } from '@/lib/api';
import { errorMessage } from '@/lib/errors';
import { positionOptionLabel } from '@/lib/format';
import { CandidateMediaFields, candidateForm, useCandidateMedia, useCandidateSave } from './candidate-fields';

/** How many matches the member search shows (the first page of the search). */
const SEARCH_PAGE = 10;

/**
 * Add candidate (docs/screens.md "Staff pages"): choose a position, find a member by name, member
 * number, phone or email (the members search), add an optional photo and a statement to voters of
 * at most 2,000 characters. One multipart edit of that member: the member's positions plus this
 * one, the photo and the statement (left empty, the current one stays), all or nothing (a
 * position with votes answers 409).
 */
export function AddCandidateDialog({ open, positionId, onClose }: { open: boolean; positionId?: number; onClose: () => void }) {
  const id = useId();
  const media = useCandidateMedia();
  const { reset } = media;
  const { positions, loading: positionsLoading } = useCandidatePositions();
  const { save, pending } = useCandidateSave();
  const [position, setPosition] = useState('');
  const [text, setText] = useState('');
  const [results, setResults] = useState<Member[] | null>(null);
  const [searching, setSearching] = useState(false);
  const [member, setMember] = useState<Member | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    if (!open) return;
    setPosition(positionId ? String(positionId) : '');
    setText('');
    setResults(null);
    setMember(null);
    reset('');
    setErrors({});
  }, [open, positionId, reset]);

  const clearError = (key: string) => setErrors((e) => (e[key] ? { ...e, [key]: '' } : e));

  const search = async () => {
    const query = text.trim();
    if (!query) {
      setErrors((e) => ({ ...e, member: 'Type a name, member number, phone or email to search' }));
      return;
    }
    setSearching(true);
    clearError('member');
    try {
      const res = await api.members.searchMembers.query({ query: { query, page: 1, per_page: SEARCH_PAGE } });
      if (res.status !== 200) throw res;
      setResults(res.body.data);
      setMember(res.body.data.length === 1 ? res.body.data[0]! : null);
    } catch (err) {
      setResults(null);
      setErrors((e) => ({ ...e, member: errorMessage(err) ?? 'The members could not be searched. Please try again.' }));
    } finally {
      setSearching(false);
    }
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const wanted = Number(position);
    const problems: Record<string, string> = {};
    if (!wanted) problems.position = 'Choose the position they stand for';
    if (!member) problems.member = 'Search for the member and choose one';
    if (problems.position || problems.member) {
      setErrors((x) => ({ ...x, ...problems }));
      return;
    }
    const m = member!;
    const parsed = UpdateCandidateBody.safeParse({
      name: m.name,
      phone: m.phone,
      email: m.email,
      county: m.county,
      position_ids: [...new Set([...m.psk_position_ids, wanted])],
      statement: media.statement,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = String(issue.path[0] ?? '');
      setErrors((x) =>
        field === 'statement'
          ? { ...x, statement: issue.message }
          : { ...x, member: `${m.name}'s ${field}: ${issue.message}. Correct it on the Manage page first.` },
      );
      return;
    }
    const chosen = positions.find((p) => p.id === wanted);
    const saved = await save({
      id: m.id,
      // Absent keeps the statement a member standing elsewhere already has; only a typed one replaces it.
      form: candidateForm(parsed.data, media.image, 'omit'),
      saved: { title: 'Candidate added', description: chosen ? `${m.name} stands for ${positionOptionLabel(chosen)}.` : undefined },
      failed: 'Error adding candidate',
      onFieldErrors: (fields) =>
        setErrors((x) => ({
          ...x,
          ...(fields.statement ? { statement: fields.statement } : {}),
          ...(fields.image ? { image: fields.image } : {}),
        })),
    });
    if (saved) onClose();
  };

  const standsFor = (m: Member) => m.psk_position_ids.includes(Number(position));

  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto">
        <form onSubmit={(e) => void submit(e)} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Add Candidate</DialogTitle>
            <DialogDescription>A member stands for a position; voters see the photo and the statement on the ballot.</DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-position`}>Position</Label>
            <select
              id={`${id}-position`}
              value={position}
              disabled={positionsLoading}
              aria-invalid={errors.position ? true : undefined}
              aria-describedby={errors.position ? `${id}-position-error` : undefined}
              onChange={(e) => {
                setPosition(e.target.value);
                clearError('position');
              }}
              className="h-9 rounded-md border border-input bg-background px-2 text-sm"
            >
              <option value="">
                {positionsLoading ? 'Loading positions…' : positions.length === 0 ? 'There are no positions yet' : 'Choose a position'}
              </option>
              {positions.map((p) => (
                <option key={p.id} value={String(p.id)}>
                  {positionOptionLabel(p)}
                </option>
              ))}
            </select>
            <FieldError id={`${id}-position-error`} message={errors.position} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-search`}>Find the member</Label>
            <div className="flex gap-2">
              <Input
                id={`${id}-search`}
                type="search"
                value={text}
                placeholder="Name, member number, phone or email"
                autoComplete="off"
                onChange={(e) => setText(e.target.value)}
                onKeyDown={(e) => {
                  // Enter searches; it must not submit the whole dialog.
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    void search();
                  }
                }}
              />
              <Button type="button" variant="outline" onClick={() => void search()} disabled={searching}>
                <Search aria-hidden="true" />
                {searching ? 'Searching…' : 'Search'}
              </Button>
            </div>
            {results !== null && (
              <fieldset className="grid gap-1" aria-describedby={errors.member ? `${id}-member-error` : undefined}>
                <legend className="sr-only">Member</legend>
                {results.length === 0 ? (
                  <p className="text-sm text-muted-foreground" role="status">
                    No member matches “{text.trim()}”.
                  </p>
                ) : (
                  <ul className="grid max-h-48 gap-1 overflow-y-auto pr-1">
                    {results.map((m) => {
                      const rid = `${id}-member-${m.id}`;
                      return (
                        <li key={m.id} className="flex items-center gap-2">
                          <input
                            type="radio"
                            id={rid}
                            name={`${id}-member`}
                            checked={member?.id === m.id}
                            onChange={() => {
                              setMember(m);
                              clearError('member');
                            }}
                            className="size-4 accent-primary"
                          />
                          <label htmlFor={rid} className="text-sm">
                            {m.name} ({m.member_no}, {m.county}){standsFor(m) ? ' (already stands for it)' : ''}
                          </label>
                        </li>
                      );
                    })}
                  </ul>
                )}
              </fieldset>
            )}
            <FieldError id={`${id}-member-error`} message={errors.member} />
          </div>
          <CandidateMediaFields
            id={id}
            media={media}
            current={null}
            name={member?.name ?? 'the candidate'}
            errors={errors}
            setErrors={setErrors}
            note={
              member &&
              member.psk_position_ids.length > 0 && (
                <p className="text-xs text-muted-foreground">
                  {member.name} already stands for another position: an empty statement or no new photo keeps the current one.
                </p>
              )
            }
          />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? 'Adding…' : 'Add candidate'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
