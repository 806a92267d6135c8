import { useQuery } from '@tanstack/react-query';
import { Printer } from 'lucide-react';
import { isTallyResult, type FinalResult, type FinalResultsResponse } from '@kura/contract';
import { ErrorState, Loading } from '@/components/layout/page-states';
import { PublicLayout } from '@/components/layout/public-layout';
import { Button } from '@/components/ui/button';
import { errorMessage, errorStatus } from '@/lib/errors';
import { formatDateTime, useElection } from '@/lib/election';
import { percentage } from '@/lib/format';
import { queries } from '@/lib/queries';
import { MotionDeclaration, RankedDeclaration } from './declaration-sections';
import { DeclarationTable } from './declaration-table';

const share = (n: number, of: number) => (of > 0 ? `${((n / of) * 100).toFixed(1)}%` : '0.0%');

/**
 * The declared result of the closed election (GET psk/results/final): per position the seats, the
 * elected candidates, ties, counts and percentages; turnout overall and per branch; the final
 * commitment. It prints on A4 as the declaration the returning officer signs (styles.css @media print).
 */
export function ResultsPage() {
  const q = useQuery({ ...queries.finalResults(), retry: false });
  return (
    <PublicLayout wide>
      {q.isPending ? (
        <Loading label="Loading the results…" />
      ) : q.isError || q.data.status !== 200 ? (
        errorStatus(q.error ?? q.data) === 403 ? (
          <div className="grid gap-2">
            <h1 className="text-2xl font-semibold">Results</h1>
            <p className="text-muted-foreground">The result is declared here when the election closes.</p>
          </div>
        ) : (
          <ErrorState>{errorMessage(q.error) ?? 'The results could not be loaded. Please try again later.'}</ErrorState>
        )
      ) : (
        <Declaration result={q.data.body} />
      )}
    </PublicLayout>
  );
}

export function Declaration({ result }: { result: FinalResultsResponse }) {
  const { turnout, commitment } = result;
  const { texts } = useElection();
  const when = (iso: string) => formatDateTime(iso, texts.timeZone);
  return (
    <article className="declaration grid gap-8" aria-labelledby="declaration-title">
      <header className="grid gap-2">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <h1 id="declaration-title" className="text-2xl font-semibold">
            Declaration of results
          </h1>
          <Button variant="outline" className="print:hidden" onClick={() => window.print()}>
            <Printer aria-hidden="true" />
            Print / Save as PDF
          </Button>
        </div>
        <p className="text-muted-foreground">
          Voting closed on <time dateTime={result.closed_at}>{when(result.closed_at)}</time>. Turnout: {turnout.voted} of {turnout.members}{' '}
          members ({share(turnout.voted, turnout.members)}).
        </p>
      </header>

      {result.data.map((p) =>
        !isTallyResult(p) ? (
          p.kind === 'motion' ? (
            <MotionDeclaration key={p.position_id} result={p} />
          ) : (
            <RankedDeclaration key={p.position_id} result={p} />
          )
        ) : (
          <TallyDeclaration key={p.position_id} result={p} />
        ),
      )}

      <section className="declaration-position grid gap-2" aria-labelledby="turnout-h">
        <h2 id="turnout-h" className="text-lg font-semibold">
          Turnout by branch
        </h2>
        <DeclarationTable
          rowHeader={false}
          columns={[
            { label: 'Branch' },
            { label: 'Members', numeric: true },
            { label: 'Voted', numeric: true },
            { label: 'Turnout', numeric: true },
          ]}
          rows={turnout.branches.map((b) => ({
            key: b.branch,
            cells: [b.branch, b.members, b.voted, share(b.voted, b.members)],
          }))}
        />
      </section>

      <section className="declaration-position grid gap-1 text-sm" aria-labelledby="commitment-h">
        <h2 id="commitment-h" className="text-lg font-semibold">
          Final commitment
        </h2>
        <p>
          {commitment.count} ballots, recorded <time dateTime={commitment.at}>{when(commitment.at)}</time>. SHA-256:
        </p>
        <p className="break-all font-mono text-xs" data-testid="final-hash">
          {commitment.hash}
        </p>
        {result.audit && (
          <p>
            Audit at close:{' '}
            {result.audit.ok
              ? 'passed (tallies and commitment recomputed from the ballots)'
              : `found ${result.audit.problems.length} problem(s)`}
            .
          </p>
        )}
      </section>

      <footer className="declaration-signature hidden gap-10 pt-10 text-sm print:grid">
        <p>Returning officer: ______________________________ Signature: ____________________ Date: ____________</p>
      </footer>
    </article>
  );
}

/** A plurality or approval position: each candidate's votes and share, the elected and the tied. */
function TallyDeclaration({ result: p }: { result: FinalResult }) {
  return (
    <section className="declaration-position grid gap-2" aria-labelledby={`pos-${p.position_id}`}>
      <h2 id={`pos-${p.position_id}`} className="text-lg font-semibold">
        {p.title}{' '}
        <span className="text-sm font-normal text-muted-foreground">
          ({p.seats} {p.seats === 1 ? 'seat' : 'seats'}, {p.total} {p.total === 1 ? 'vote' : 'votes'})
        </span>
      </h2>
      <DeclarationTable
        caption={`Votes for ${p.title}`}
        columns={[
          { label: 'Candidate' },
          { label: 'Votes', numeric: true },
          { label: 'Share', numeric: true },
          { label: 'Outcome', cellClassName: 'font-medium' },
        ]}
        rows={p.values.map((v) => ({
          key: v.candidate_id,
          cells: [v.name, v.count, percentage(v.count, p.total), v.elected ? 'Elected' : v.tied ? 'Tied for the last seat' : ''],
        }))}
      />
      {p.values.some((v) => v.tied) && (
        <p className="text-sm">A tie across the last seat: none of the tied candidates is declared elected.</p>
      )}
    </section>
  );
}
