import type { MotionResult, MotionThreshold, RankedResult } from '@kura/contract';
import { t, useT, type MessageKey } from '@/i18n';

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
  useT();
  const headingId = `pos-${m.position_id}`;
  return (
    <section className="declaration-position grid gap-2" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        {m.title} <span className="text-sm font-normal text-muted-foreground">{t('declaration.motion')}</span>
      </h2>
      <table className="w-full max-w-md border-collapse text-left text-sm">
        <caption className="sr-only">{t('declaration.votesOnMotion', { title: m.title })}</caption>
        <thead>
          <tr className="border-b border-border">
            <th scope="col" className="py-1 pr-2">
              {t('declaration.option')}
            </th>
            <th scope="col" className="py-1 text-right">
              {t('declaration.votes')}
            </th>
          </tr>
        </thead>
        <tbody>
          {(
            [
              [t('ballot.motionYes'), m.yes],
              [t('ballot.motionNo'), m.no],
              [t('ballot.motionAbstain'), m.abstain],
            ] as const
          ).map(([label, n]) => (
            <tr key={label} className="border-b border-border/60">
              <th scope="row" className="py-1 pr-2 font-normal">
                {label}
              </th>
              <td className="py-1 text-right tabular-nums">{n}</td>
            </tr>
          ))}
        </tbody>
      </table>
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

/** A ranked position on the declaration: the quota, the elected, and the count round by round (docs/decisions/005). */
export function RankedDeclaration({ result: r }: { result: RankedResult }) {
  const { tRich } = useT();
  const headingId = `pos-${r.position_id}`;
  const names = new Map(r.values.map((v) => [v.candidate_id, v.name]));
  const nameOf = (id: number) => names.get(id) ?? t('declaration.candidateN', { id });
  const elected = r.values.filter((v) => v.elected);
  // Candidates in the order of the values (the count's own order), each a column of the round table.
  const columns = r.values.map((v) => v.candidate_id);
  return (
    <section className="declaration-position grid gap-2" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        {r.title}{' '}
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
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={t('declaration.rounds', { title: r.title })}>
        <table className="w-full border-collapse text-left text-sm">
          <caption className="py-1 text-left text-sm font-medium">{t('declaration.roundsCaption', { title: r.title })}</caption>
          <thead>
            <tr className="border-b border-border">
              <th scope="col" className="py-1 pr-2">
                {t('declaration.round')}
              </th>
              <th scope="col" className="py-1 pr-2">
                {t('declaration.action')}
              </th>
              {columns.map((id) => (
                <th key={id} scope="col" className="py-1 pr-2 text-right">
                  {nameOf(id)}
                </th>
              ))}
              <th scope="col" className="py-1 text-right">
                {t('declaration.nonTransferable')}
              </th>
            </tr>
          </thead>
          <tbody>
            {r.rounds.map((round) => (
              <tr key={round.round} className="border-b border-border/60">
                <th scope="row" className="py-1 pr-2 font-normal tabular-nums">
                  {round.round}
                </th>
                <td className="py-1 pr-2">
                  {t(ACTION_WORDS[round.action])} {round.candidate_ids.map(nameOf).join(', ')}
                </td>
                {columns.map((id) => (
                  <td key={id} className="py-1 pr-2 text-right tabular-nums">
                    {round.votes[String(id)] ?? ''}
                  </td>
                ))}
                <td className="py-1 text-right tabular-nums">{round.nontransferable}</td>
              </tr>
            ))}
          </tbody>
        </table>
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
      </p>
    </section>
  );
}
