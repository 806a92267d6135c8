import { useId, useState } from 'react';
import { z } from 'zod';
import { UpdateCandidateBody, type Member } from '@kura/contract';
import { Search } from 'lucide-react';
import { FieldError, fieldMessages, FormField, FormFooter, useZodForm, selectClass } from '@/components/forms';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/hooks/use-toast';
import { useCandidatePositions } from '@/hooks/use-admin-lists';
import { api } from '@/lib/api';
import { useShownElectionName } from '@/components/staff/election-switcher';
import { useElectionParam } from '@/lib/election-search';
import { errorMessage, fieldErrorsOf } from '@/lib/errors';
import { positionOptionLabel } from '@/lib/format';
import { useUpdateCandidate } from '@/lib/mutations';
import { CandidateMediaFields, candidateForm, useFileInput } from './candidate-fields';
import { says, useT } from '@/i18n';

/** How many matches the member search shows (the first page of the search). */
const SEARCH_PAGE = 10;

/** The dialog's choices; the member's own details are checked against the contract on submit. */
const addSchema = z.object({
  position: z.string().refine((v) => v.length > 0, says('admin.candidate.choosePosition')),
  member: z.custom<Member | null>().refine((m): m is Member => m !== null, says('admin.candidate.chooseMember')),
  statement: z.string(),
  image: z.custom<File | null>(),
});
const EMPTY = { position: '', member: null, statement: '', image: null };

/**
 * Add candidate (docs/screens.md "Staff pages"): choose a position, find a member by name, member
 * number, phone or email (the members search), add an optional photo and a statement to voters of
 * at most 2,000 characters. One multipart edit of that member: the member's positions plus this
 * one, the photo and the statement (left empty, the current one stays), all or nothing (a
 * position with votes answers 409).
 */
export function AddCandidateDialog({ open, positionId, onClose }: { open: boolean; positionId?: number; onClose: () => void }) {
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto">
        <AddCandidateForm positionId={positionId} onClose={onClose} />
      </DialogContent>
    </Dialog>
  );
}

/** The dialog's form, mounted afresh each time the dialog opens. */
function AddCandidateForm({ positionId, onClose }: { positionId?: number; onClose: () => void }) {
  const { t, tReceived } = useT();
  const id = useId();
  const { fileRef } = useFileInput();
  // The election the page shows (`?election=N`, the Set-up page of one election), else the current one.
  const election = useElectionParam();
  const electionName = useShownElectionName();
  const { standable: positions, positions: all, loading: positionsLoading } = useCandidatePositions(election);
  const update = useUpdateCandidate(t('admin.candidate.addError'), election);
  const form = useZodForm(addSchema, {
    reValidateMode: 'onSubmit',
    defaultValues: { ...EMPTY, position: positionId ? String(positionId) : '' },
  });
  const values = form.watch();
  const errors = fieldMessages(form.formState.errors);
  const [text, setText] = useState('');
  const [results, setResults] = useState<Member[] | null>(null);
  const [searching, setSearching] = useState(false);
  const position = values.position;
  const member = values.member;

  const chooseMember = (m: Member | null) => form.setValue('member', m);

  const search = async () => {
    const query = text.trim();
    if (!query) {
      form.setError('member', { message: t('admin.candidate.typeToSearch') });
      return;
    }
    setSearching(true);
    form.clearErrors('member');
    try {
      const res = await api.members.searchMembers.query({ query: { query, page: 1, per_page: SEARCH_PAGE } });
      if (res.status !== 200) throw res;
      setResults(res.body.data);
      chooseMember(res.body.data.length === 1 ? res.body.data[0]! : null);
    } catch (err) {
      setResults(null);
      form.setError('member', { message: errorMessage(err) ?? t('admin.candidate.searchFailed') });
    } finally {
      setSearching(false);
    }
  };

  const submit = form.handleSubmit(async ({ position: chosenId, member: m, statement, image }) => {
    const wanted = Number(chosenId);
    const parsed = UpdateCandidateBody.safeParse({
      name: m.name,
      phone: m.phone,
      email: m.email,
      county: m.county,
      // The edit replaces the member's positions in this election only: another election's are not named (422).
      position_ids: [...new Set([...m.psk_position_ids.filter((p) => all.some((q) => q.id === p)), wanted])],
      statement,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = String(issue.path[0] ?? '');
      if (field === 'statement') form.setError('statement', { message: issue.message });
      else
        form.setError('member', {
          message: t('admin.candidate.fixOnManage', { name: m.name, field, message: tReceived(issue.message) }),
        });
      return;
    }
    const chosen = positions.find((p) => p.id === wanted);
    try {
      // Absent keeps the statement a member standing elsewhere already has; only a typed one replaces it.
      await update.mutateAsync({ params: { id: m.id }, body: candidateForm(parsed.data, image, 'omit') });
      toast({
        variant: 'success',
        title: t('admin.candidate.added'),
        description: chosen ? t('admin.candidate.standsFor', { name: m.name, position: positionOptionLabel(chosen) }) : undefined,
      });
      onClose();
    } catch (err) {
      const fields = fieldErrorsOf(err);
      if (fields.statement) form.setError('statement', { message: fields.statement });
      if (fields.image) form.setError('image', { message: fields.image });
    }
  });

  const standsFor = (m: Member) => m.psk_position_ids.includes(Number(position));

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <DialogHeader>
        <DialogTitle>{t('admin.candidate.addTitle')}</DialogTitle>
        <DialogDescription>
          {t('admin.candidate.addDescription')}
          {electionName && <span className="block">{t('admin.candidate.election', { election: electionName })}</span>}
        </DialogDescription>
      </DialogHeader>
      <FormField id={`${id}-position`} label={t('admin.vvpat.position')} error={errors.position}>
        <select
          disabled={positionsLoading}
          className={selectClass}
          {...form.register('position', { onChange: () => form.clearErrors('position') })}
        >
          <option value="">
            {positionsLoading
              ? t('admin.positions.loading')
              : positions.length === 0
                ? t('admin.candidate.noPositions')
                : t('admin.candidate.choosePositionOption')}
          </option>
          {positions.map((p) => (
            <option key={p.id} value={String(p.id)}>
              {positionOptionLabel(p)}
            </option>
          ))}
        </select>
      </FormField>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-search`}>{t('admin.candidate.find')}</Label>
        <div className="flex gap-2">
          <Input
            id={`${id}-search`}
            type="search"
            value={text}
            placeholder={t('admin.candidate.findPlaceholder')}
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
            {searching ? t('admin.candidate.searching') : t('admin.members.search')}
          </Button>
        </div>
        {results !== null && (
          <fieldset className="grid gap-1" aria-describedby={errors.member ? `${id}-member-error` : undefined}>
            <legend className="sr-only">{t('admin.candidate.member')}</legend>
            {results.length === 0 ? (
              <p className="text-sm text-muted-foreground" role="status">
                {t('admin.candidate.noMatch', { text: text.trim() })}
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
                          chooseMember(m);
                          form.clearErrors('member');
                        }}
                        className="size-4 accent-primary"
                      />
                      <label htmlFor={rid} className="text-sm">
                        {t(standsFor(m) ? 'admin.candidate.optionStands' : 'admin.candidate.option', {
                          name: m.name,
                          number: m.member_no,
                          branch: m.county,
                        })}
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
        fileRef={fileRef}
        current={null}
        name={member?.name ?? t('admin.candidate.theCandidate')}
        image={values.image}
        onImage={(file) => form.setValue('image', file)}
        statement={values.statement}
        onStatement={(v) => {
          form.setValue('statement', v);
          form.clearErrors('statement');
        }}
        errors={errors}
        onImageError={(message) => (message ? form.setError('image', { message }) : form.clearErrors('image'))}
        note={
          member &&
          member.psk_position_ids.length > 0 && (
            <p className="text-xs text-muted-foreground">{t('admin.candidate.alreadyStands', { name: member.name })}</p>
          )
        }
      />
      <FormFooter
        pending={update.isPending}
        submitLabel={t('admin.candidates.add')}
        pendingLabel={t('admin.candidate.adding')}
        onCancel={onClose}
      />
    </form>
  );
}
