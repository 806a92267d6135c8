import type { MotionResult, MotionThreshold, RankedResult } from '@kura/contract';
import { DeclarationTable } from './declaration-table';

/** A motion's threshold in words (docs/api.md "Motions"). */
export const THRESHOLD_WORDS: Record<MotionThreshold, string> = {
  majority: 'more than half of Yes and No',
  two_thirds: 'at least two thirds of Yes and No',
  three_quarters: 'at least three quarters of Yes and No',
};

const ACTION_WORDS = { elect: 'Elected', transfer: 'Surplus transferred from', exclude: 'Excluded' } as const;

/** A motion on the declaration: Yes, No, Abstain, the rule it was held to, and PASSED or NOT PASSED. */
export function MotionDeclaration({ result: m }: { result: MotionResult }) {
  const headingId = `pos-${m.position_id}`;
  const outcome = m.passed ? 'PASSED' : 'NOT PASSED';
  return (
    <section className="declaration-position grid gap-2" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        {m.title} <span className="text-sm font-normal text-muted-foreground">(motion)</span>
      </h2>
      <DeclarationTable
        className="max-w-md"
        caption={`Votes on the motion ${m.title}`}
        columns={[{ label: 'Option' }, { label: 'Votes', numeric: true }]}
        rows={(
          [
            ['Yes', m.yes],
            ['No', m.no],
            ['Abstain', m.abstain],
          ] as const
        ).map(([label, n]) => ({ key: label, cells: [label, n] }))}
      />
      <p className="text-sm">
        To pass it needed {THRESHOLD_WORDS[m.threshold]}
        {m.quorum_percent === null
          ? ', with no quorum.'
          : `, and a quorum of ${m.quorum_percent}% of the members on the roll voting on it (abstentions count towards the quorum): the quorum was ${m.quorum_met ? 'met' : 'not met'}.`}
      </p>
      <p className="font-semibold" data-testid={`motion-outcome-${m.position_id}`}>
        Outcome: {outcome}
      </p>
    </section>
  );
}

type Tie = NonNullable<RankedResult['rounds'][number]['tie']>;

/** How a round's tie was broken, under its action: by an earlier round, or by lot (recountable with its seed). */
function TieNote({ tie, nameOf }: { tie: Tie; nameOf: (id: number) => string }) {
  const others = tie.candidate_ids.filter((id) => id !== tie.chosen).map(nameOf);
  const between = `${nameOf(tie.chosen)} and ${others.join(', ')}`;
  return (
    <span className="block text-xs text-muted-foreground">
      {tie.by === 'lot'
        ? `Tie between ${between}, equal at every round: decided by lot (seed ${tie.seed?.slice(0, 12) ?? ''}…).`
        : `Tie between ${between}: decided by the votes at the end of round ${tie.stage}.`}
    </span>
  );
}

/** A ranked position on the declaration: the quota, the elected, and the count round by round (docs/decisions/005). */
export function RankedDeclaration({ result: r }: { result: RankedResult }) {
  const headingId = `pos-${r.position_id}`;
  const names = new Map(r.values.map((v) => [v.candidate_id, v.name]));
  const nameOf = (id: number) => names.get(id) ?? `Candidate ${id}`;
  const elected = r.values.filter((v) => v.elected);
  // Candidates in the order of the values (the count's own order), each a column of the round table.
  const columns = r.values.map((v) => v.candidate_id);
  return (
    <section className="declaration-position grid gap-2" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        {r.title}{' '}
        <span className="text-sm font-normal text-muted-foreground">
          ({r.seats} {r.seats === 1 ? 'seat' : 'seats'}, single transferable vote, {r.ballots} valid{' '}
          {r.ballots === 1 ? 'ballot' : 'ballots'})
        </span>
      </h2>
      <p className="text-sm">
        Quota: <span className="tabular-nums">{r.quota}</span>. Elected:{' '}
        {elected.length > 0 ? elected.map((v) => v.name).join(', ') : 'none'}.
      </p>
      {/* On a narrow screen the table scrolls sideways: the keyboard can reach it (focusable, named). */}
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={`Rounds of ${r.title}`}>
        <DeclarationTable
          caption={`Count of ${r.title}, round by round`}
          showCaption
          columns={[
            { label: 'Round', cellClassName: 'tabular-nums' },
            { label: 'Action' },
            ...columns.map((id) => ({ label: nameOf(id), numeric: true })),
            { label: 'Non-transferable', numeric: true },
          ]}
          rows={r.rounds.map((round) => ({
            key: round.round,
            cells: [
              round.round,
              <>
                {ACTION_WORDS[round.action]} {round.candidate_ids.map(nameOf).join(', ')}
                {round.tie && <TieNote tie={round.tie} nameOf={nameOf} />}
              </>,
              ...columns.map((id) => round.votes[String(id)] ?? ''),
              round.nontransferable,
            ],
          }))}
        />
      </div>
      <p className="text-sm print:hidden">
        <a className="underline" href={`/api/v1/psk/results/ballots?position_id=${r.position_id}`} download>
          Download the ballots (BLT)
        </a>{' '}
        to recount them with <code>kura count</code>
        {r.rounds.some((round) => round.tie?.by === 'lot') && (
          <>
            {' '}
            (with <code>--seed</code> and the final commitment&apos;s hash, the count draws the same lot)
          </>
        )}
        .
      </p>
    </section>
  );
}
