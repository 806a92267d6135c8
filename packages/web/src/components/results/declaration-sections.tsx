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

/** The share a threshold asks of Yes among Yes and No, and whether it is "more than" (majority) or "at least". */
const THRESHOLD_SHARE: Record<MotionThreshold, { share: number; strict: boolean }> = {
  majority: { share: 1 / 2, strict: true },
  two_thirds: { share: 2 / 3, strict: false },
  three_quarters: { share: 3 / 4, strict: false },
};

/** "46.7 %": one decimal, or none for a whole number (a quorum of 20 %); two where one would hide a difference. */
export function percentText(value: number): string {
  const n = Math.round(value * 10) / 10;
  return `${Number.isInteger(n) ? n.toFixed(0) : n.toFixed(1)} %`;
}

/** Whether Yes of Yes + No meets the threshold, exactly (as the count does). */
export function thresholdMet(yes: number, no: number, threshold: MotionThreshold): boolean {
  const cast = yes + no;
  if (cast === 0) return false;
  if (threshold === 'majority') return 2 * yes > cast;
  if (threshold === 'two_thirds') return 3 * yes >= 2 * cast;
  return 4 * yes >= 3 * cast;
}

/**
 * The arithmetic behind a motion's outcome (issue 37): "Yes 9 of 12 = 75 % ≥ 66.7 %" and, with a
 * quorum, "14 of 30 = 46.7 % ≥ 20 %". The signs follow the exact outcome, not the rounded figures.
 */
export function motionArithmetic(m: MotionResult): { threshold: string; quorum: string | null } {
  const cast = m.yes + m.no;
  const rule = THRESHOLD_SHARE[m.threshold];
  const met = thresholdMet(m.yes, m.no, m.threshold);
  const sign = met ? (rule.strict ? '>' : '≥') : rule.strict ? '≤' : '<';
  const threshold = t('declaration.motionShare', {
    yes: String(m.yes),
    cast: String(cast),
    share: percentText(cast > 0 ? (m.yes / cast) * 100 : 0),
    sign,
    needed: percentText(rule.share * 100),
    met: met ? 'yes' : 'no',
  });
  if (m.quorum_percent === null || m.roll === undefined || m.roll === null) return { threshold, quorum: null };
  const voted = m.yes + m.no + m.abstain;
  const quorum = t('declaration.quorumSum', {
    voted: String(voted),
    roll: String(m.roll),
    share: percentText(m.roll > 0 ? (voted / m.roll) * 100 : 0),
    sign: m.quorum_met ? '≥' : '<',
    quorum: percentText(m.quorum_percent),
    met: m.quorum_met ? 'yes' : 'no',
  });
  return { threshold, quorum };
}

/** A motion on the declaration: Yes, No, Abstain, the rule it was held to, and PASSED or NOT PASSED. */
export function MotionDeclaration({ result: m }: { result: MotionResult }) {
  const { locale } = useT();
  // The motion's name in the reader's language where the admin translated it (docs/i18n.md "Ballot content").
  const title = titleIn(locale, m);
  const sums = motionArithmetic(m);
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
      <ul className="grid gap-0.5 text-sm" data-testid={`motion-arithmetic-${m.position_id}`}>
        <li>{sums.threshold}</li>
        {sums.quorum && <li>{sums.quorum}</li>}
      </ul>
      <p className="font-semibold" data-testid={`motion-outcome-${m.position_id}`}>
        {t('declaration.outcomeLine', { passed: m.passed ? 'yes' : 'no' })}
      </p>
    </section>
  );
}

/** GET psk/results/ballots of one position of one election (the contract's getRankedBallots query). */
function bltHref(positionId: number, election?: number): string {
  const query = new URLSearchParams({
    position_id: String(positionId),
    ...(election === undefined ? {} : { election_id: String(election) }),
  });
  return `/api/v1/psk/results/ballots?${query}`;
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

/**
 * A ranked position on the declaration: the quota, the elected, and the count round by round (docs/decisions/005).
 * `election` is the declaration's (the URL's), undefined for the current one: the BLT link names it,
 * as the server looks the position up in the election the call names.
 */
export function RankedDeclaration({ result: r, election }: { result: RankedResult; election?: number }) {
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
            <a className="underline" href={bltHref(r.position_id, election)} download>
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
