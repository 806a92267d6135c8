import { useQuery } from '@tanstack/react-query';
import { Printer } from 'lucide-react';
import { isTallyResult, type FinalResult, type FinalResultsResponse } from '@kura/contract';
import { ErrorState, Loading } from '@/components/layout/page-states';
import { PublicLayout } from '@/components/layout/public-layout';
import { ElectionSwitcher } from '@/components/staff/election-switcher';
import { Button } from '@/components/ui/button';
import { errorMessage, errorStatus } from '@/lib/errors';
import { formatDateTime, useElection } from '@/lib/election';
import { useElectionParam } from '@/lib/election-search';
import { percentage } from '@/lib/format';
import { queries } from '@/lib/queries';
import { t, titleIn, useT } from '@/i18n';
import { MotionDeclaration, RankedDeclaration } from './declaration-sections';
import { DeclarationTable } from './declaration-table';
import { isStaffSession, RegisterSigningKey, SignedDeclaration } from './signed-declaration';

const share = (n: number, of: number) => (of > 0 ? `${((n / of) * 100).toFixed(1)}%` : '0.0%');

/**
 * The declared result of a closed election (GET psk/results/final): per position the seats, the
 * elected candidates, ties, counts and percentages; turnout overall and per branch; the final
 * commitment. It prints on A4 as the declaration the returning officer signs (styles.css @media print).
 * The election is the URL's (`/results?election=7`, an archived one too: its declaration stays
 * reachable by its address), else the current one; the switcher moves between them.
 */
export function ResultsPage() {
  const { tReceived } = useT();
  const election = useElectionParam();
  const q = useQuery({ ...queries.finalResults(election), retry: false });
  const named = useQuery({ ...queries.electionById(election ?? 0), enabled: election !== undefined, retry: false });
  const { election: current } = useElection();
  const shown = election === undefined ? current : named.data?.body.data;
  return (
    <PublicLayout wide>
      <div className="grid gap-6">
        <ElectionSwitcher className="print:hidden" />
        {shown?.title.trim() && (
          <p className="text-lg font-medium" data-testid="declaration-election">
            {shown.title}
            {shown.archived && <span className="ml-2 text-sm font-normal text-muted-foreground">({t('elections.archived')})</span>}
          </p>
        )}
        {q.isPending ? (
          <Loading label={t('declaration.loading')} />
        ) : q.isError || q.data.status !== 200 ? (
          errorStatus(q.error ?? q.data) === 403 ? (
            <div className="grid gap-2">
              <h1 className="text-2xl font-semibold">{t('declaration.title')}</h1>
              <p className="text-muted-foreground">{t('declaration.notYet')}</p>
              {/* Staff register their signing key before the close (docs/screens.md "Declaration"). */}
              {isStaffSession() && <RegisterSigningKey />}
            </div>
          ) : (
            <ErrorState>{tReceived(errorMessage(q.error)) || t('declaration.loadFailed')}</ErrorState>
          )
        ) : (
          <Declaration result={q.data.body} election={election} />
        )}
      </div>
    </PublicLayout>
  );
}

export function Declaration({ result, election }: { result: FinalResultsResponse; election?: number }) {
  const { turnout, commitment } = result;
  const { tRich } = useT();
  const { texts, election: shown } = useElection(election);
  const when = (iso: string) => formatDateTime(iso, texts.timeZone);
  // The signatures and the evidence belong to one election: the URL's, else the current one's.
  const electionId = election ?? shown?.id;
  return (
    <article className="declaration grid gap-8" aria-labelledby="declaration-title">
      <header className="grid gap-2">
        {/* The site's header does not print (styles.css): the declaration names its organisation itself. */}
        {texts.organisation && (
          <p className="text-lg font-semibold" data-testid="declaration-organisation">
            {texts.organisation}
          </p>
        )}
        <div className="flex flex-wrap items-start justify-between gap-4">
          <h1 id="declaration-title" className="text-2xl font-semibold">
            {t('declaration.heading')}
          </h1>
          <Button variant="outline" className="print:hidden" onClick={() => window.print()}>
            <Printer aria-hidden="true" />
            {t('declaration.print')}
          </Button>
        </div>
        <p className="text-muted-foreground">
          {tRich('declaration.closed', {
            time: (chunks) => <time dateTime={result.closed_at}>{chunks}</time>,
            date: when(result.closed_at),
            voted: String(turnout.voted),
            members: String(turnout.members),
            share: share(turnout.voted, turnout.members),
          })}
        </p>
      </header>

      {result.data.map((p) =>
        !isTallyResult(p) ? (
          p.kind === 'motion' ? (
            <MotionDeclaration key={p.position_id} result={p} />
          ) : (
            <RankedDeclaration key={p.position_id} result={p} election={election} />
          )
        ) : (
          <TallyDeclaration key={p.position_id} result={p} />
        ),
      )}

      <section className="declaration-position grid gap-2" aria-labelledby="turnout-h">
        <h2 id="turnout-h" className="text-lg font-semibold">
          {t('declaration.turnoutByBranch')}
        </h2>
        <DeclarationTable
          rowHeader={false}
          columns={[
            { label: t('declaration.branch') },
            { label: t('declaration.members'), numeric: true },
            { label: t('declaration.voted'), numeric: true },
            { label: t('declaration.turnout'), numeric: true },
          ]}
          rows={turnout.branches.map((b) => ({
            key: b.branch,
            cells: [b.branch, b.members, b.voted, share(b.voted, b.members)],
          }))}
        />
      </section>

      <section className="declaration-position grid gap-1 text-sm" aria-labelledby="commitment-h">
        <h2 id="commitment-h" className="text-lg font-semibold">
          {t('declaration.finalCommitment')}
        </h2>
        <p>
          {tRich('declaration.commitment', {
            time: (chunks) => <time dateTime={commitment.at}>{chunks}</time>,
            date: when(commitment.at),
            count: String(commitment.count),
          })}
        </p>
        <p className="break-all font-mono text-xs" data-testid="final-hash">
          {commitment.hash}
        </p>
        {result.audit && (
          <p>{t('declaration.audit', { ok: result.audit.ok ? 'yes' : 'no', problems: String(result.audit.problems.length) })}</p>
        )}
      </section>

      {electionId !== undefined && <SignedDeclaration electionId={electionId} />}

      <footer className="declaration-signature hidden gap-10 pt-10 text-sm print:grid">
        <p>{t('declaration.signature')}</p>
      </footer>
    </article>
  );
}

/** A plurality or approval position: each candidate's votes and share, the elected and the tied. */
function TallyDeclaration({ result: p }: { result: FinalResult }) {
  const { locale } = useT();
  // The position's name in the reader's language where the admin translated it (docs/i18n.md "Ballot content").
  const title = titleIn(locale, p);
  return (
    <section className="declaration-position grid gap-2" aria-labelledby={`pos-${p.position_id}`}>
      <h2 id={`pos-${p.position_id}`} className="text-lg font-semibold">
        {title}{' '}
        <span className="text-sm font-normal text-muted-foreground">{t('declaration.seatsVotes', { seats: p.seats, total: p.total })}</span>
      </h2>
      <DeclarationTable
        caption={t('declaration.votesFor', { title })}
        columns={[
          { label: t('declaration.candidate') },
          { label: t('declaration.votes'), numeric: true },
          { label: t('declaration.share'), numeric: true },
          { label: t('declaration.outcome'), cellClassName: 'font-medium' },
        ]}
        rows={p.values.map((v) => ({
          key: v.candidate_id,
          cells: [
            v.name,
            v.count,
            percentage(v.count, p.total),
            v.elected ? t('declaration.elected') : v.tied ? t('declaration.tied') : '',
          ],
        }))}
      />
      {p.values.some((v) => v.tied) && <p className="text-sm">{t('declaration.tie')}</p>}
    </section>
  );
}
