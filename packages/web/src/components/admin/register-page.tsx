import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { RulingBody, type Claim } from '@kura/contract';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FieldError, FormField, FormFooter, useZodForm } from '@/components/forms';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { DataTable, rowClass, Td } from '@/components/staff/data-table';
import { ElectionSwitcher } from '@/components/staff/election-switcher';
import { Pager } from '@/components/staff/pager';
import { SearchForm } from '@/components/staff/search-form';
import { StatusFilter } from '@/components/staff/status-filter';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { RollSummary } from '@/components/results/roll-summary';
import { ClaimStatusLine, windowState } from '@/components/voter/register-page';
import { toast } from '@/hooks/use-toast';
import { formatDateTime, useElection } from '@/lib/election';
import { useElectionParam } from '@/lib/election-search';
import { useRuleOnClaim } from '@/lib/mutations';
import { queries } from '@/lib/queries';
import { useT } from '@/i18n';

const FILTERS: (Claim['status'] | undefined)[] = ['pending', 'upheld', 'dismissed', undefined];
const DECISIONS: RulingBody['decision'][] = ['upheld', 'dismissed'];

/**
 * The returning officer's Register page (docs/api.md "The register"): of the election the switcher
 * chose (`?election=N`), else the current one, the roll as it stands (its size by branch, and once
 * frozen when and its hash; its members page by page), the inspection window, and the claims queue
 * with a ruling (upheld or dismissed, with a reason the claimant is told) asked for once more
 * before it is sent. A ruling never edits the register: the admin edits the member.
 */
export function RegisterPage() {
  const election = useElectionParam();
  return (
    <div className="grid max-w-5xl gap-6">
      <ElectionSwitcher />
      <ElectionRegister key={election ?? 'current'} election={election} />
    </div>
  );
}

function ElectionRegister({ election }: { election: number | undefined }) {
  const { t } = useT();
  const { election: shown, texts, query } = useElection(election);
  const id = election ?? shown?.id;
  if (query.isPending) return <Loading />;
  if (query.isError || id === undefined)
    return <ErrorState onRetry={() => void query.refetch()}>{t('admin.register.electionFailed')}</ErrorState>;
  return (
    <>
      <WindowSection election={id} zone={texts.timeZone} />
      <RollSection election={id} zone={texts.timeZone} />
      <ClaimsSection election={election} zone={texts.timeZone} />
    </>
  );
}

/** The inspection window (GET elections/{id}: GET election does not carry it), read afresh on each visit. */
function WindowSection({ election, zone }: { election: number; zone: string }) {
  const { t } = useT();
  const q = useQuery({ ...queries.electionById(election), refetchOnMount: 'always' });
  const shown = q.data?.body.data;
  const window = shown?.register ?? null;
  const state = windowState({ register: window, frozen: Boolean(shown?.roll_frozen_at) });
  return (
    <section aria-labelledby="register-window-h" className="grid gap-2">
      <h2 id="register-window-h" className="text-lg font-semibold">
        {t('register.window')}
      </h2>
      {q.isPending ? <Loading /> : null}
      {q.isError ? <ErrorState onRetry={() => void q.refetch()}>{t('admin.register.electionFailed')}</ErrorState> : null}
      {shown ? (
        <p className="text-sm" data-testid="admin-register-window">
          {window
            ? t('register.windowDates', { opens: formatDateTime(window.opens_at, zone), closes: formatDateTime(window.closes_at, zone) })
            : null}{' '}
          <strong>{t(`admin.register.windowState.${state}`)}</strong>
        </p>
      ) : null}
    </section>
  );
}

type RollFilters = { query: string; branch: string };
const NO_ROLL_FILTERS: RollFilters = { query: '', branch: '' };
const ANY_BRANCH = '__any__';

function RollSection({ election, zone }: { election: number; zone: string }) {
  const { t } = useT();
  const id = useId();
  const [page, setPage] = useState(1);
  const [draft, setDraft] = useState<RollFilters>(NO_ROLL_FILTERS);
  const [applied, setApplied] = useState<RollFilters>(NO_ROLL_FILTERS);
  const members = useQuery(queries.rollMembers(election, page, applied));
  const branches = useQuery(queries.roll(election)).data?.body.data.by_branch ?? [];
  const filtered = applied.query !== '' || applied.branch !== '';
  const filters = {
    draft,
    setField: (key: keyof RollFilters, value: string) => setDraft((d) => ({ ...d, [key]: value })),
    search: () => {
      setApplied({ query: draft.query.trim(), branch: draft.branch });
      setPage(1);
    },
    reset: () => {
      setDraft(NO_ROLL_FILTERS);
      setApplied(NO_ROLL_FILTERS);
      setPage(1);
    },
  };
  return (
    <section aria-labelledby="roll-h" className="grid gap-3">
      <h2 id="roll-h" className="text-lg font-semibold">
        {t('admin.register.roll')}
      </h2>
      <RollSummary election={election} zone={zone} />

      <h3 className="font-semibold">{t('admin.register.rollMembers')}</h3>
      <SearchForm
        label={t('admin.register.rollFilter')}
        fields={[{ key: 'query', label: t('admin.register.rollQuery'), maxLength: 150 }]}
        filters={filters}
        showReset={filtered}
        columns={2}
      >
        <div className="grid gap-2">
          <Label htmlFor={`${id}-branch`}>{t('admin.register.branch')}</Label>
          <Select value={draft.branch || ANY_BRANCH} onValueChange={(v) => filters.setField('branch', v === ANY_BRANCH ? '' : v)}>
            <SelectTrigger id={`${id}-branch`}>
              <SelectValue placeholder={t('admin.register.anyBranch')} />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ANY_BRANCH}>{t('admin.register.anyBranch')}</SelectItem>
              {branches.map((b) => (
                <SelectItem key={b.branch} value={b.branch}>
                  {b.branch}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </SearchForm>
      {members.data && filtered ? (
        <p className="text-sm" role="status">
          {t('admin.register.rollFound', { number: String(members.data.body.total), count: members.data.body.total })}
        </p>
      ) : null}
      {members.isPending ? <Loading /> : null}
      {members.isError ? <ErrorState onRetry={() => void members.refetch()}>{t('roll.loadFailed')}</ErrorState> : null}
      {members.data && members.data.body.data.length === 0 ? (
        <EmptyState>{filtered ? t('admin.register.rollNoneFound') : t('admin.register.rollEmpty')}</EmptyState>
      ) : null}
      {members.data && members.data.body.data.length > 0 ? (
        <>
          <DataTable
            caption={t('admin.register.rollMembers')}
            headers={[t('admin.register.memberNo'), t('admin.register.name'), t('admin.register.branch')]}
            minWidth="min-w-[20rem]"
            busy={members.isFetching}
          >
            {members.data.body.data.map((m) => (
              <tr key={m.member_no} className={rowClass}>
                <Td className="font-mono">{m.member_no}</Td>
                <Td>{m.name}</Td>
                <Td>{m.branch}</Td>
              </tr>
            ))}
          </DataTable>
          {members.data.body.last_page > 1 ? (
            <Pager
              page={page}
              lastPage={members.data.body.last_page}
              onPageChange={setPage}
              disabled={members.isFetching}
              label={t('admin.register.rollPager')}
            />
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function ClaimsSection({ election, zone }: { election: number | undefined; zone: string }) {
  const { t } = useT();
  const [status, setStatus] = useState<Claim['status'] | undefined>('pending');
  const [page, setPage] = useState(1);
  const q = useQuery(queries.claimQueue({ status, page }, election));
  return (
    <section aria-labelledby="claims-h" className="grid gap-3">
      <h2 id="claims-h" className="text-lg font-semibold">
        {t('admin.register.claims')}
      </h2>
      <StatusFilter
        statuses={FILTERS}
        value={status}
        onChange={(f) => {
          setStatus(f);
          setPage(1);
        }}
        label={t('admin.register.filter')}
        labelOf={(f) => (f ? t(`register.status.${f}`) : t('admin.register.all'))}
      />
      {q.isPending ? <Loading label={t('admin.register.claimsLoading')} /> : null}
      {q.isError ? <ErrorState onRetry={() => void q.refetch()}>{t('register.claimsFailed')}</ErrorState> : null}
      {q.data && q.data.body.data.length === 0 ? <EmptyState>{t('admin.register.noClaims')}</EmptyState> : null}
      {q.data && q.data.body.data.length > 0 ? (
        <ul className="grid gap-3" aria-labelledby="claims-h">
          {q.data.body.data.map((c) => (
            <li key={c.id}>
              <QueueCard claim={c} zone={zone} />
            </li>
          ))}
        </ul>
      ) : null}
      {q.data && q.data.body.last_page > 1 ? (
        <Pager
          page={page}
          lastPage={q.data.body.last_page}
          onPageChange={setPage}
          disabled={q.isFetching}
          label={t('admin.register.claimsPager')}
        />
      ) : null}
    </section>
  );
}

function QueueCard({ claim, zone }: { claim: Claim; zone: string }) {
  const { t } = useT();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">
          {t('admin.register.claimTitle', { kind: t(`register.kind.${claim.kind}`), name: claim.name, memberNo: claim.member_no })}
        </CardTitle>
        <p className="text-sm text-muted-foreground">{t('register.filedOn', { date: formatDateTime(claim.created_at, zone) })}</p>
      </CardHeader>
      <CardContent className="grid gap-2">
        {claim.subject_member_no ? <p className="text-sm">{t('admin.register.against', { memberNo: claim.subject_member_no })}</p> : null}
        <p className="text-sm break-words whitespace-pre-wrap">{claim.details}</p>
        <ClaimStatusLine claim={claim} zone={zone} />
        {claim.reason ? (
          <p className="text-sm break-words">
            {t('register.ruling')}: {claim.reason}
          </p>
        ) : null}
        {claim.status === 'pending' ? <RulingForm claim={claim} /> : null}
      </CardContent>
    </Card>
  );
}

function RulingForm({ claim }: { claim: Claim }) {
  const { t } = useT();
  const id = useId();
  const rule = useRuleOnClaim();
  const form = useZodForm(RulingBody, { defaultValues: { reason: '' } });
  const decision = form.watch('decision') as RulingBody['decision'] | undefined;
  const decisionError = form.formState.errors.decision?.message;
  const [asking, setAsking] = useState<RulingBody | null>(null);
  const confirm = async () => {
    if (!asking) return;
    // A refusal (already ruled, voting open) stays in the dialog with the server's reason.
    await rule.mutateAsync({ params: { id: claim.id }, body: asking });
    setAsking(null);
    toast({ variant: 'success', title: t(asking.decision === 'upheld' ? 'admin.register.ruledUpheld' : 'admin.register.ruledDismissed') });
  };
  const asked = asking?.decision ?? decision;
  return (
    <>
      <form
        className="mt-2 grid gap-3 border-t border-border pt-3"
        aria-label={t('admin.register.rulingFor', { name: claim.name })}
        noValidate
        onSubmit={(e) => void form.handleSubmit((values) => setAsking(values))(e)}
      >
        <fieldset className="grid gap-2" aria-describedby={decisionError ? `${id}-decision-error` : undefined}>
          <legend className="mb-1 text-sm font-medium">{t('admin.register.decision')}</legend>
          <RadioGroup
            value={decision ?? ''}
            aria-invalid={decisionError ? true : undefined}
            onValueChange={(v) =>
              form.setValue('decision', v === 'upheld' ? 'upheld' : 'dismissed', { shouldValidate: form.formState.isSubmitted })
            }
            className="flex flex-wrap gap-6"
          >
            {DECISIONS.map((d) => (
              <span key={d} className="flex items-center gap-2">
                <RadioGroupItem id={`${id}-${d}`} value={d} />
                <Label htmlFor={`${id}-${d}`}>{t(`admin.register.decision.${d}`)}</Label>
              </span>
            ))}
          </RadioGroup>
          <FieldError id={`${id}-decision-error`} message={decisionError} />
        </fieldset>
        <FormField
          label={t('admin.register.reason')}
          description={t('admin.register.reasonHint')}
          error={form.formState.errors.reason?.message}
        >
          <Textarea maxLength={2000} rows={3} {...form.register('reason')} />
        </FormField>
        <FormFooter pending={rule.isPending} submitLabel={t('admin.register.rule')} pendingLabel={t('admin.register.ruling')} />
      </form>
      <ConfirmDialog
        open={asking !== null}
        title={t(asked === 'upheld' ? 'admin.register.confirmUphold' : 'admin.register.confirmDismiss')}
        description={t('admin.register.confirmText', { name: claim.name, reason: asking?.reason ?? '' })}
        confirmLabel={t(asked === 'upheld' ? 'admin.register.uphold' : 'admin.register.dismiss')}
        destructive={asked === 'dismissed'}
        pending={rule.isPending}
        onConfirm={confirm}
        onClose={() => setAsking(null)}
      />
    </>
  );
}
