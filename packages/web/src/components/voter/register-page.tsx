import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, XCircle } from 'lucide-react';
import { CLAIM_KINDS, ClaimBody, type Claim, type MyRegisterEntry } from '@kura/contract';
import { FormField, FormFooter, setServerErrors, useZodForm } from '@/components/forms';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { formatDateTime, useElection } from '@/lib/election';
import { useElectionParam } from '@/lib/election-search';
import { errorMessage, fieldErrorsOf } from '@/lib/errors';
import { useFileClaim } from '@/lib/mutations';
import { queries } from '@/lib/queries';
import { cn } from '@/lib/utils';
import { useT } from '@/i18n';

/** Where the inspection window stands now: none set, not open yet, open, or closed (or the roll frozen). */
export type WindowState = 'none' | 'upcoming' | 'open' | 'closed';

export function windowState(entry: Pick<MyRegisterEntry, 'register' | 'frozen'>, now = Date.now()): WindowState {
  const w = entry.register;
  if (!w) return 'none';
  if (entry.frozen || now >= Date.parse(w.closes_at)) return 'closed';
  if (now < Date.parse(w.opens_at)) return 'upcoming';
  return 'open';
}

/**
 * The member's "Am I on the roll?" page (docs/api.md "The register"): for the election in
 * `?election=N` (else the current one) whether they are on its roll and, when not, each rule they
 * do not meet in their language; the inspection window; while it is open, a claim (a correction,
 * their inclusion, or an objection to another member); and their claims with the returning
 * officer's ruling and reason.
 */
export function RegisterCheck() {
  const { t } = useT();
  const election = useElectionParam();
  const { texts } = useElection(election);
  const entry = useQuery(queries.myRegisterEntry(election));
  const claims = useQuery(queries.myClaims(election));

  if (entry.isPending) return <Loading label={t('register.loading')} />;
  if (entry.isError)
    return (
      <ErrorState onRetry={() => void entry.refetch()}>
        {t('register.failed')} {errorMessage(entry.error) ? <RefusalText text={errorMessage(entry.error)!} /> : null}
      </ErrorState>
    );
  const me = entry.data.body.data;
  const state = windowState(me);
  const zone = texts.timeZone;

  return (
    <div className="grid w-full max-w-3xl gap-6">
      <section aria-labelledby="roll-status" className="grid gap-3">
        <h2 id="roll-status" className="text-lg font-semibold">
          {t('register.heading')}
        </h2>
        <Card className={cn('border-2', me.on_roll ? 'border-green-700' : 'border-destructive')}>
          <CardHeader>
            <CardTitle className="flex items-start gap-2 text-base sm:text-lg">
              {me.on_roll ? (
                <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-green-700" aria-hidden="true" />
              ) : (
                <XCircle className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden="true" />
              )}
              <span data-testid="roll-answer">
                {me.on_roll
                  ? t('register.onRoll', { election: texts.title || t('register.thisElection') })
                  : t('register.notOnRoll', { election: texts.title || t('register.thisElection') })}
              </span>
            </CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3">
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="font-medium">{t('register.memberNo')}</dt>
              <dd className="font-mono break-all">{me.member_no}</dd>
              <dt className="font-medium">{t('register.name')}</dt>
              <dd>{me.name}</dd>
              <dt className="font-medium">{t('register.branch')}</dt>
              <dd>{me.branch}</dd>
            </dl>
            <div className="grid gap-1">
              <h3 id="roll-reasons" className="text-sm font-semibold">
                {t('register.reasons')}
              </h3>
              {me.reasons.length === 0 ? (
                <p className="text-sm">{me.on_roll ? t('register.meetsAll') : t('register.noReasons')}</p>
              ) : (
                <ul aria-labelledby="roll-reasons" className="grid gap-1 text-sm">
                  {me.reasons.map((r, i) => (
                    <li key={i} className="flex items-start gap-2">
                      <XCircle className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
                      <span>
                        <span className="sr-only">{t('register.notMet')}: </span>
                        {r}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
            {me.frozen ? <p className="text-sm text-muted-foreground">{t('register.frozen')}</p> : null}
          </CardContent>
        </Card>
      </section>

      <section aria-labelledby="register-window" className="grid gap-3">
        <h2 id="register-window" className="text-lg font-semibold">
          {t('register.window')}
        </h2>
        <p data-testid="register-window-state" className="text-sm">
          {me.register
            ? t('register.windowDates', {
                opens: formatDateTime(me.register.opens_at, zone),
                closes: formatDateTime(me.register.closes_at, zone),
              })
            : null}{' '}
          <strong>{t(`register.windowState.${state}`)}</strong>
        </p>
        {state === 'open' ? <ClaimForm election={election} /> : null}
      </section>

      <section aria-labelledby="my-claims" className="grid gap-3">
        <h2 id="my-claims" className="text-lg font-semibold">
          {t('register.myClaims')}
        </h2>
        {claims.isPending ? <Loading label={t('register.claimsLoading')} /> : null}
        {claims.isError ? <ErrorState onRetry={() => void claims.refetch()}>{t('register.claimsFailed')}</ErrorState> : null}
        {claims.data && claims.data.body.data.length === 0 ? <EmptyState>{t('register.noClaims')}</EmptyState> : null}
        {claims.data && claims.data.body.data.length > 0 ? (
          <ul className="grid gap-3" aria-labelledby="my-claims">
            {claims.data.body.data.map((c) => (
              <li key={c.id}>
                <ClaimCard claim={c} zone={zone} />
              </li>
            ))}
          </ul>
        ) : null}
      </section>
    </div>
  );
}

/** A message from the server (already in the reader's language), or a contract message said by its code. */
function RefusalText({ text }: { text: string }) {
  const { tReceived } = useT();
  return <>{tReceived(text)}</>;
}

/** A claim's kind, status and ruling, as the member and the returning officer both read it. */
export function ClaimStatusLine({ claim, zone }: { claim: Claim; zone: string }) {
  const { t } = useT();
  return (
    <p className="text-sm">
      {t('register.claimStatus')}:{' '}
      <strong className={cn(claim.status === 'upheld' && 'text-green-800', claim.status === 'dismissed' && 'text-destructive')}>
        {t(`register.status.${claim.status}`)}
      </strong>
      {claim.decided_at ? ` (${formatDateTime(claim.decided_at, zone)})` : ''}
    </p>
  );
}

function ClaimCard({ claim, zone }: { claim: Claim; zone: string }) {
  const { t } = useT();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">
          {claim.kind === 'objection' && claim.subject_member_no
            ? t('register.claimTitleObjection', { memberNo: claim.subject_member_no })
            : t(`register.kind.${claim.kind}`)}
        </CardTitle>
        <p className="text-sm text-muted-foreground">{t('register.filedOn', { date: formatDateTime(claim.created_at, zone) })}</p>
      </CardHeader>
      <CardContent className="grid gap-2">
        <p className="text-sm break-words whitespace-pre-wrap">{claim.details}</p>
        <ClaimStatusLine claim={claim} zone={zone} />
        {claim.reason ? (
          <p className="text-sm break-words">
            {t('register.ruling')}: {claim.reason}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

function ClaimForm({ election }: { election: number | undefined }) {
  const { t } = useT();
  const id = useId();
  const file = useFileClaim(election);
  const form = useZodForm(ClaimBody, { defaultValues: { kind: 'correction', details: '', subject_member_no: '' } });
  const kind = form.watch('kind');
  const errors = form.formState.errors;
  const submit = form.handleSubmit(async (values) => {
    const body = {
      kind: values.kind,
      details: values.details,
      ...(values.kind === 'objection' ? { subject_member_no: values.subject_member_no ?? '' } : {}),
    };
    const res = await file.mutateAsync({ body }).catch((err: unknown) => {
      setServerErrors(form, fieldErrorsOf(err));
      return null;
    });
    if (!res) return;
    toast({ variant: 'success', title: t('register.claimMade') });
    form.reset({ kind: 'correction', details: '', subject_member_no: '' });
  });
  return (
    <form
      className="grid gap-4 rounded-lg border border-border bg-card p-4 shadow-sm"
      aria-labelledby={`${id}-h`}
      noValidate
      onSubmit={(e) => void submit(e)}
    >
      <h3 id={`${id}-h`} className="font-semibold">
        {t('register.makeClaim')}
      </h3>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">{t('register.kindLegend')}</legend>
        <RadioGroup
          value={kind}
          onValueChange={(v) => form.setValue('kind', v as Claim['kind'], { shouldValidate: form.formState.isSubmitted })}
          className="grid gap-3"
        >
          {CLAIM_KINDS.map((k) => (
            <div key={k} className="flex items-start gap-2">
              <RadioGroupItem id={`${id}-${k}`} value={k} aria-describedby={`${id}-${k}-hint`} className="mt-0.5" />
              <div className="grid gap-0.5">
                <Label htmlFor={`${id}-${k}`}>{t(`register.kind.${k}`)}</Label>
                <p id={`${id}-${k}-hint`} className="text-sm text-muted-foreground">
                  {t(`register.kindHint.${k}`)}
                </p>
              </div>
            </div>
          ))}
        </RadioGroup>
      </fieldset>
      {kind === 'objection' ? (
        <FormField label={t('register.subject')} error={errors.subject_member_no?.message}>
          <Input maxLength={64} autoComplete="off" {...form.register('subject_member_no')} />
        </FormField>
      ) : null}
      <FormField label={t('register.details')} description={t('register.detailsHint')} error={errors.details?.message}>
        <Textarea maxLength={2000} rows={4} {...form.register('details')} />
      </FormField>
      <FormFooter pending={file.isPending} submitLabel={t('register.submit')} pendingLabel={t('register.submitting')} />
    </form>
  );
}
