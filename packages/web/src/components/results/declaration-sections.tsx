import type { MotionResult, MotionThreshold, RankedResult } from '@kura/contract';
import { DeclarationTable } from './declaration-table';
import { t, titleIn, useT, type MessageKey } from '@/i18n';

/** A motion's threshold in words (docs/api.md "Motions"). */
export const THRESHOLD_WORDS: Record<MotionThreshold, string> = {
  majority: 'more than half of Yes and No',
  two_thirds: 'at least two thirds of Yes and No',
  three_quarters: 'at least three quarters of Yes and No',
};

const ACTION_WORDS: Record<RankedResult['rounds'][number]['action'], MessageKey> = {
  elect: 'declaration.actionElect',
  transfer: 'declaration.actionTransfer',
  exclude: 'declaration.actionExclude',
};

/** A motion on the declaration: Yes, No, Abstain, the rule it was held to, and PASSED or NOT PASSED. */
export function MotionDeclaration({ result: m }: { result: MotionResult }) {
  const { locale } = useT();
  // The motion's name in the reader's language where the admin translated it (docs/i18n.md "Ballot content").
  const title = titleIn(locale, m);
  const headingId = `pos-${m.position_id}`;
  return (
    <section className="declaration-position grid gap-2" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        {title} <span className="text-sm font-normal text-muted-foreground">{t('declaration.motion')}</span>
      </h2>
      <DeclarationTable
        className="max-w-md"
        caption={t('declaration.votesOnMotion', { title })}
        columns={[{ label: t('declaration.option') }, { label: t('declaration.votes'), numeric: true }]}
        rows={(
          [
            [t('ballot.motionYes'), m.yes],
            [t('ballot.motionNo'), m.no],
            [t('ballot.motionAbstain'), m.abstain],
          ] as const
        ).map(([label, n]) => ({ key: label, cells: [label, n] }))}
      />
      <p className="text-sm">
        {t('declaration.needed', { share: m.threshold })}
        {m.quorum_percent === null
          ? t('declaration.noQuorum')
          : t('declaration.quorum', { quorum: m.quorum_percent, met: m.quorum_met ? 'yes' : 'no' })}
      </p>
      <p className="font-semibold" data-testid={`motion-outcome-${m.position_id}`}>
        {t('declaration.outcomeLine', { passed: m.passed ? 'yes' : 'no' })}
      </p>
    </section>
  );
}

type Tie = NonNullable<RankedResult['rounds'][number]['tie']>;

/** How a round's tie was broken, under its action: by an earlier round, or by lot (recountable with its seed). */
function TieNote({ tie, nameOf }: { tie: Tie; nameOf: (id: number) => string }) {
  const others = tie.candidate_ids
    .filter((id) => id !== tie.chosen)
    .map(nameOf)
    .join(', ');
  return (
    <span className="block text-xs text-muted-foreground">
      {tie.by === 'lot'
        ? t('declaration.tieByLot', { chosen: nameOf(tie.chosen), others, seed: tie.seed?.slice(0, 12) ?? '' })
        : t('declaration.tieByStage', { chosen: nameOf(tie.chosen), others, stage: tie.stage ?? 0 })}
    </span>
  );
}

/** A ranked position on the declaration: the quota, the elected, and the count round by round (docs/decisions/005). */
export function RankedDeclaration({ result: r }: { result: RankedResult }) {
  const { tRich, locale } = useT();
  const title = titleIn(locale, r);
  const headingId = `pos-${r.position_id}`;
  const names = new Map(r.values.map((v) => [v.candidate_id, v.name]));
  const nameOf = (id: number) => names.get(id) ?? t('declaration.candidateN', { id });
  const elected = r.values.filter((v) => v.elected);
  // Candidates in the order of the values (the count's own order), each a column of the round table.
  const columns = r.values.map((v) => v.candidate_id);
  return (
    <section className="declaration-position grid gap-2" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        {title}{' '}
        <span className="text-sm font-normal text-muted-foreground">
          {t('declaration.rankedSummary', { seats: r.seats, ballots: r.ballots })}
        </span>
      </h2>
      <p className="text-sm">
        {tRich('declaration.quotaElected', {
          num: (chunks) => <span className="tabular-nums">{chunks}</span>,
          quota: r.quota,
          elected: elected.length > 0 ? elected.map((v) => v.name).join(', ') : t('declaration.none'),
        })}
      </p>
      {/* On a narrow screen the table scrolls sideways: the keyboard can reach it (focusable, named). */}
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={t('declaration.rounds', { title })}>
        <DeclarationTable
          caption={t('declaration.roundsCaption', { title })}
          showCaption
          columns={[
            { label: t('declaration.round'), cellClassName: 'tabular-nums' },
            { label: t('declaration.action') },
            ...columns.map((id) => ({ label: nameOf(id), numeric: true })),
            { label: t('declaration.nonTransferable'), numeric: true },
          ]}
          rows={r.rounds.map((round) => ({
            key: round.round,
            cells: [
              round.round,
              <>
                {t(ACTION_WORDS[round.action])} {round.candidate_ids.map(nameOf).join(', ')}
                {round.tie && <TieNote tie={round.tie} nameOf={nameOf} />}
              </>,
              ...columns.map((id) => round.votes[String(id)] ?? ''),
              round.nontransferable,
            ],
          }))}
        />
      </div>
      <p className="text-sm print:hidden">
        {tRich('declaration.downloadBlt', {
          link: (chunks) => (
            <a className="underline" href={`/api/v1/psk/results/ballots?position_id=${r.position_id}`} download>
              {chunks}
            </a>
          ),
          code: (chunks) => <code>{chunks}</code>,
        })}
        {r.rounds.some((round) => round.tie?.by === 'lot') && (
          <> {tRich('declaration.lotSeed', { code: (chunks) => <code>{chunks}</code> })}</>
        )}
      </p>
    </section>
  );
}
