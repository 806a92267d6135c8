import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Nomination, NominationStatus } from '@kura/contract';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { Supporters } from '@/components/nominations/supporters';
import { ElectionSwitcher } from '@/components/staff/election-switcher';
import { Pager } from '@/components/staff/pager';
import { StatusFilter } from '@/components/staff/status-filter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/hooks/use-toast';
import { useElectionParam } from '@/lib/election-search';
import { useDecideAppeal, useDecideNomination } from '@/lib/mutations';
import { queries } from '@/lib/queries';
import { useT } from '@/i18n';

const FILTERS: (NominationStatus | undefined)[] = [
  undefined,
  'submitted',
  'valid',
  'invalid',
  'awaiting_support',
  'awaiting_acceptance',
  'withdrawn',
];

/**
 * The returning officer's Nominations page (docs/screens.md "Nominations"): the queue with each
 * nomination's checks, a decision with its reason (and the reason for overriding a failed check),
 * and the appeals pending. Voting does not open while one submitted is undecided.
 */
export function NominationsPage() {
  const election = useElectionParam();
  return (
    <div className="grid max-w-4xl gap-6">
      <ElectionSwitcher />
      <ElectionNominations key={election ?? 'current'} election={election} />
    </div>
  );
}

/** One election's queue and appeals (`?election=N`, else the current election's). */
function ElectionNominations({ election }: { election: number | undefined }) {
  const { t } = useT();
  const [status, setStatus] = useState<NominationStatus | undefined>('submitted');
  const [page, setPage] = useState(1);
  const q = useQuery(queries.nominationQueue({ status, page }, election));
  const appeals = useQuery(queries.nominationQueue({ status: 'invalid', page: 1 }, election));
  const pending = (appeals.data?.body.data ?? []).filter((n) => n.appeal?.status === 'pending');

  return (
    <div className="grid gap-6">
      {pending.length > 0 ? (
        <section aria-labelledby="appeals" className="grid gap-3">
          <h2 id="appeals" className="text-lg font-semibold">
            {t('admin.nominations.appeals')}
          </h2>
          {pending.map((n) => (
            <AppealCard key={n.id} nomination={n} />
          ))}
        </section>
      ) : null}
      <section aria-labelledby="queue" className="grid gap-3">
        <h2 id="queue" className="text-lg font-semibold">
          {t('admin.nominations.queue')}
        </h2>
        <StatusFilter
          statuses={FILTERS}
          value={status}
          onChange={(f) => {
            setStatus(f);
            setPage(1);
          }}
          label={t('admin.nominations.filter')}
          labelOf={(f) => (f ? t(`nominations.status.${f}`) : t('admin.nominations.all'))}
        />
        {q.isPending ? <Loading /> : null}
        {q.isError ? <ErrorState onRetry={() => void q.refetch()}>{t('nominations.failed')}</ErrorState> : null}
        {q.data && q.data.body.data.length === 0 ? <EmptyState>{t('admin.nominations.empty')}</EmptyState> : null}
        {q.data?.body.data.map((n) => (
          <QueueCard key={n.id} nomination={n} />
        ))}
        {q.data && q.data.body.last_page > 1 ? (
          <Pager page={page} lastPage={q.data.body.last_page} onPageChange={setPage} disabled={q.isFetching} />
        ) : null}
      </section>
    </div>
  );
}

function Summary({ nomination }: { nomination: Nomination }) {
  const { t } = useT();
  return (
    <CardHeader>
      <CardTitle>
        {t('nominations.heading', { name: nomination.nominee.name, memberNo: nomination.nominee.member_no, position: nomination.position })}
      </CardTitle>
      <p className="text-sm">
        {t('nominations.status')}: <strong>{t(`nominations.status.${nomination.status}`)}</strong>
        {nomination.decision?.reason ? ` — ${nomination.decision.reason}` : ''}
      </p>
      <Supporters nomination={nomination} />
      {nomination.statement ? <p className="text-sm">{nomination.statement}</p> : null}
      <ul aria-label={t('admin.nominations.checks')} className="text-sm">
        {nomination.checks.length === 0 ? <li>{t('admin.nominations.noChecks')}</li> : null}
        {nomination.checks.map((c) => (
          <li key={c.rule}>
            {c.met ? t('admin.nominations.met') : t('admin.nominations.notMet')}: {c.rule}
          </li>
        ))}
      </ul>
    </CardHeader>
  );
}

function QueueCard({ nomination }: { nomination: Nomination }) {
  const { t } = useT();
  const id = useId();
  const decide = useDecideNomination();
  const [reason, setReason] = useState('');
  const [override, setOverride] = useState('');
  const failed = nomination.checks.some((c) => !c.met);
  const send = async (valid: boolean) => {
    const body = { valid, ...(reason ? { reason } : {}), ...(valid && failed ? { override_reason: override } : {}) };
    const res = await decide.mutateAsync({ params: { id: nomination.id }, body }).catch(() => null);
    if (res) toast({ variant: 'success', title: t(valid ? 'admin.nominations.decidedValid' : 'admin.nominations.decidedInvalid') });
  };
  return (
    <Card>
      <Summary nomination={nomination} />
      {nomination.status === 'submitted' ? (
        <CardContent className="grid gap-2">
          <Label htmlFor={`${id}-reason`}>{t('admin.nominations.reason')}</Label>
          <Input id={`${id}-reason`} maxLength={1000} value={reason} onChange={(e) => setReason(e.target.value)} />
          {failed ? (
            <>
              <Label htmlFor={`${id}-override`}>{t('admin.nominations.override')}</Label>
              <Input id={`${id}-override`} maxLength={1000} value={override} onChange={(e) => setOverride(e.target.value)} />
            </>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button disabled={decide.isPending || (failed && override.trim() === '')} onClick={() => void send(true)}>
              {t('admin.nominations.valid')}
            </Button>
            <Button variant="destructive" disabled={decide.isPending || reason.trim() === ''} onClick={() => void send(false)}>
              {t('admin.nominations.invalid')}
            </Button>
          </div>
        </CardContent>
      ) : null}
    </Card>
  );
}

function AppealCard({ nomination }: { nomination: Nomination }) {
  const { t } = useT();
  const id = useId();
  const decide = useDecideAppeal();
  const [reason, setReason] = useState('');
  const send = async (upheld: boolean) => {
    const res = await decide.mutateAsync({ params: { id: nomination.id }, body: { upheld, reason } }).catch(() => null);
    if (res) toast({ variant: 'success', title: t(upheld ? 'admin.nominations.upheld' : 'admin.nominations.dismissed') });
  };
  return (
    <Card>
      <Summary nomination={nomination} />
      <CardContent className="grid gap-2">
        <p className="text-sm">
          {t('admin.nominations.grounds')}: {nomination.appeal?.grounds}
        </p>
        <Label htmlFor={`${id}-reason`}>{t('admin.nominations.reason')}</Label>
        <Input id={`${id}-reason`} maxLength={1000} value={reason} onChange={(e) => setReason(e.target.value)} />
        <div className="flex flex-wrap gap-2">
          <Button disabled={decide.isPending || reason.trim() === ''} onClick={() => void send(true)}>
            {t('admin.nominations.uphold')}
          </Button>
          <Button variant="outline" disabled={decide.isPending || reason.trim() === ''} onClick={() => void send(false)}>
            {t('admin.nominations.dismiss')}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
