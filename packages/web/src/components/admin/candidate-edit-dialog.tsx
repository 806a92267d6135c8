import { useEffect, useId } from 'react';
import { z } from 'zod';
import { multipartIdListSchema, UpdateCandidateBody, type Candidate } from '@kura/contract';
import { FieldError, fieldMessages, FormFooter, setServerErrors, useZodForm } from '@/components/forms';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/hooks/use-toast';
import { fieldErrorsOf } from '@/lib/errors';
import { useUpdateCandidate } from '@/lib/mutations';
import { CandidateMediaFields, candidateForm, useFileInput } from './candidate-fields';
import { ContactFields } from './contact-fields';
import { TranslationFields, translationValues, useOtherLanguages } from './translation-fields';
import { useBranches, useCandidatePositions } from '@/hooks/use-admin-lists';
import { useShownElectionName } from '@/components/staff/election-switcher';
import { useElectionParam } from '@/lib/election-search';
import { positionOptionLabel } from '@/lib/format';
import { useT } from '@/i18n';

/** The contract's candidate edit, with the ticked position ids and the chosen photo. */
const candidateSchema = UpdateCandidateBody.extend({
  position_ids: z.array(z.number()).pipe(multipartIdListSchema),
  image: z.custom<File | null>(),
});

const valuesOf = (c: Candidate | null, languages: readonly string[]) => ({
  name: c?.name ?? '',
  phone: c?.phone ?? '',
  email: c?.email ?? '',
  county: c?.county ?? '',
  position_ids: c?.positions.map((p) => p.id) ?? [],
  statement: c?.statement ?? '',
  translations: translationValues(c?.translations, languages, ['statement']),
  image: null,
});

/**
 * Edit Candidate dialog (docs/screens.md "Staff pages"): name, phone, email, branch select, position checkboxes, a
 * profile picture file (optional) with a preview and the statement to voters (at most 2,000 characters, with a
 * counter), and the statement in each non-default language (optional). Sent as multipart with position_ids[]; an
 * emptied statement clears it. Acts on the election the page shows (`?election=N`), which it names while the
 * installation has more than one.
 */
export function CandidateEditDialog({ candidate, onClose }: { candidate: Candidate | null; onClose: () => void }) {
  const { t } = useT();
  const id = useId();
  const { fileRef, clear } = useFileInput();
  const { branches, loading: branchesLoading } = useBranches();
  // The election the page shows (`?election=N`), else the current one: its positions, and the edit sends its `?election_id`.
  const election = useElectionParam();
  const electionName = useShownElectionName();
  const { standable: positions, loading: positionsLoading, error: positionsError } = useCandidatePositions(election);
  const update = useUpdateCandidate(t('admin.candidate.updateError'), election);
  const languages = useOtherLanguages();
  const form = useZodForm(candidateSchema, { defaultValues: valuesOf(candidate, languages) });
  const { reset } = form;
  const values = form.watch();
  const errors = fieldMessages(form.formState.errors);
  const set = (key: 'name' | 'phone' | 'email' | 'county' | 'statement', value: string) =>
    form.setValue(key, value, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });

  const languageList = languages.join(',');
  useEffect(() => {
    reset(valuesOf(candidate, languageList ? languageList.split(',') : []));
    clear();
  }, [candidate, reset, clear, languageList]);

  const submit = form.handleSubmit(async (data) => {
    if (!candidate) return;
    try {
      await update.mutateAsync({ params: { id: candidate.id }, body: candidateForm(data, data.image, 'send') });
      toast({ variant: 'success', title: t('admin.candidate.updated') });
      onClose();
    } catch (err) {
      setServerErrors(form, fieldErrorsOf(err));
    }
  });

  const toggle = (positionId: number, on: boolean) => {
    const s = form.getValues('position_ids');
    form.setValue('position_ids', on ? [...new Set([...s, positionId])] : s.filter((x) => x !== positionId), { shouldDirty: true });
  };

  return (
    <Dialog open={candidate !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{t('admin.candidate.editTitle')}</DialogTitle>
            <DialogDescription>
              {candidate ? t('admin.candidate.memberNo', { number: candidate.member_no }) : ''}
              {electionName && <span className="block">{t('admin.candidate.election', { election: electionName })}</span>}
            </DialogDescription>
          </DialogHeader>
          <ContactFields
            id={id}
            values={{ ...values, email: values.email ?? '' }}
            errors={errors}
            onChange={(key, value) => key !== 'member_no' && set(key, value)}
            branches={branches}
            branchesLoading={branchesLoading}
          />
          <fieldset className="grid gap-2" aria-describedby={errors.position_ids ? `${id}-positions-error` : undefined}>
            <legend className="mb-2 text-sm font-medium">{t('admin.assign.positions')}</legend>
            {positionsLoading ? (
              <Loading label={t('admin.positions.loading')} />
            ) : positionsError ? (
              <ErrorState>{t('admin.positions.loadError')}</ErrorState>
            ) : positions.length === 0 ? (
              <EmptyState>{t('admin.positions.none')}</EmptyState>
            ) : (
              <ul className="grid max-h-48 gap-2 overflow-y-auto pr-1">
                {positions.map((p) => {
                  const cid = `${id}-position-${p.id}`;
                  return (
                    <li key={p.id} className="flex items-center gap-3">
                      <Checkbox id={cid} checked={values.position_ids.includes(p.id)} onCheckedChange={(v) => toggle(p.id, v === true)} />
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
            fileRef={fileRef}
            current={candidate?.image_url ?? null}
            name={values.name}
            image={values.image}
            onImage={(file) => form.setValue('image', file)}
            statement={values.statement ?? ''}
            onStatement={(v) => {
              set('statement', v);
              form.clearErrors('statement');
            }}
            errors={errors}
            onImageError={(message) => (message ? form.setError('image', { message }) : form.clearErrors('image'))}
          />
          <TranslationFields
            form={form}
            className="grid gap-2 rounded-md border border-border p-3"
            fields={[{ name: 'statement', label: 'admin.translation.statement', multiline: true }]}
          />
          <FormFooter pending={update.isPending} submitLabel={t('common.save')} pendingLabel={t('common.saving')} onCancel={onClose} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
