import { z } from 'zod';
import { c, errors, meta, MotionThreshold, ResultValue } from './common';
import { ElectionQuery, pathIdSchema } from './validation';
import { Commitment, Election } from './elections';
import { TranslatedText } from './languages';

/** language → {title}, when the position's name is translated (docs/i18n.md); absent otherwise */
const titleTranslations = TranslatedText.optional();

/** A candidate's final count: elected within the seats, or tied across the last seat (then not elected). */
export const FinalValue = ResultValue.extend({ elected: z.boolean(), tied: z.boolean() });
export type FinalValue = z.infer<typeof FinalValue>;

export const FinalResult = z.object({
  position_id: z.number().int(),
  /** absent on results recorded before motions and ranked counts */
  kind: z.literal('candidates').optional(),
  /** plurality or approval (a ranked position answers a RankedResult) */
  method: z.enum(['plurality', 'approval']).optional(),
  /** "Chairperson National" */
  title: z.string(),
  translations: titleTranslations,
  seats: z.number().int(),
  total: z.number().int(),
  /** by count, descending */
  values: z.array(FinalValue),
});
export type FinalResult = z.infer<typeof FinalResult>;

/** A motion's declared result (docs/api.md "Motions"). */
export const MotionResult = z.object({
  position_id: z.number().int(),
  title: z.string(),
  translations: titleTranslations,
  kind: z.literal('motion'),
  yes: z.number().int(),
  no: z.number().int(),
  abstain: z.number().int(),
  threshold: MotionThreshold,
  quorum_percent: z.number().nullable(),
  /** true when there is no quorum rule */
  quorum_met: z.boolean(),
  passed: z.boolean(),
  /** with a quorum: the members on the roll it was counted against (the declaration shows the arithmetic) */
  roll: z.number().int().nullable().optional(),
});
export type MotionResult = z.infer<typeof MotionResult>;

/** A ranked position's count by Scottish STV, round by round (docs/api.md "Ranked positions"). */
export const RankedResult = z.object({
  position_id: z.number().int(),
  title: z.string(),
  translations: titleTranslations,
  kind: z.literal('candidates'),
  method: z.literal('ranked'),
  seats: z.number().int(),
  /** valid ballots (with at least one preference) */
  ballots: z.number().int(),
  quota: z.string(),
  values: z.array(
    z.object({
      candidate_id: z.number().int(),
      name: z.string(),
      first_preferences: z.number().int(),
      /** votes at the end of the count, 5 decimals */
      votes: z.string(),
      elected: z.boolean(),
    }),
  ),
  nontransferable: z.string(),
  rounds: z.array(
    z.object({
      round: z.number().int(),
      action: z.enum(['elect', 'transfer', 'exclude']),
      candidate_ids: z.array(z.number().int()),
      votes: z.record(z.string(), z.string()),
      nontransferable: z.string(),
      /**
       * How a tie in this round was broken: by the votes at the end of an earlier round (`stage`),
       * or, equal at every round, by lot among `drawn_from`, drawn from `seed` (the final
       * commitment's hash), so `kura count --seed` on the published ballots draws the same lot.
       */
      tie: z
        .object({
          candidate_ids: z.array(z.number().int()),
          chosen: z.number().int(),
          by: z.enum(['earlier_stage', 'lot']),
          stage: z.number().int().optional(),
          drawn_from: z.array(z.number().int()).optional(),
          seed: z.string().optional(),
        })
        .optional(),
    }),
  ),
});
export type RankedResult = z.infer<typeof RankedResult>;

/** A plurality or approval position's declared result (neither a motion nor a ranked count). */
export function isTallyResult(r: MotionResult | RankedResult | FinalResult): r is FinalResult {
  return r.kind !== 'motion' && !('method' in r && r.method === 'ranked');
}

export const BranchTurnout = z.object({ branch: z.string(), members: z.number().int(), voted: z.number().int() });
export type BranchTurnout = z.infer<typeof BranchTurnout>;

export const AuditOutcome = z.object({ ok: z.boolean(), problems: z.array(z.string()), at: z.string() });
export type AuditOutcome = z.infer<typeof AuditOutcome>;

export const FinalResultsResponse = z.object({
  /** one per position: a MotionResult, a RankedResult or (plurality, approval) a FinalResult */
  data: z.array(z.union([MotionResult, RankedResult, FinalResult])),
  /** members who may vote, and those who voted for at least one position; per branch as well */
  turnout: z.object({ members: z.number().int(), voted: z.number().int(), branches: z.array(BranchTurnout) }),
  /** the final commitment, recorded when the election closed */
  commitment: Commitment,
  /** when the election closed (ISO 8601) */
  closed_at: z.string(),
  /** `audit:verify`, run at close */
  audit: AuditOutcome.nullable(),
  /**
   * The frozen roll's hash (docs/api.md "The register": SHA-256, hex, of its member numbers sorted,
   * each followed by a newline); the evidence pack's results.json carries it, so `verify-evidence`
   * checks roll.csv against the hash the signatures cover. Null only for a roll never frozen.
   */
  roll_hash: z.string().nullable().optional(),
});
export type FinalResultsResponse = z.infer<typeof FinalResultsResponse>;

/**
 * Marks the winners of one position: the `seats` highest counts are elected; candidates tied
 * across the last seat are all `tied` and none of them is elected. `values` come back by count,
 * descending (ties by name, as the results list them).
 */
export function declareSeats<V extends { count: number; name: string }>(
  values: V[],
  seats: number,
): (V & { elected: boolean; tied: boolean })[] {
  const sorted = [...values].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  if (sorted.length <= seats) return sorted.map((v) => ({ ...v, elected: true, tied: false }));
  const cutoff = sorted[seats - 1]!.count;
  const tiedAcross = sorted[seats]!.count === cutoff;
  return sorted.map((v) => ({
    ...v,
    elected: v.count > cutoff || (!tiedAcross && v.count === cutoff),
    tied: tiedAcross && v.count === cutoff,
  }));
}

export const lifecycleRouter = c.router({
  closeElection: {
    method: 'POST',
    path: '/election/close',
    query: ElectionQuery,
    summary:
      'Close the election for good: voting ends, the queued ballots are published re-mixed with all others, a final commitment is recorded and audit:verify run',
    description:
      'Answers the election with phase `closed`. Afterwards toggle, PUT election and set-up changes answer 409. Closing twice is 409.',
    body: c.noBody(),
    responses: { 200: z.object({ data: Election }), ...errors(401, 403, 409, 404) },
    metadata: meta('admin'),
  },
  getFinalResults: {
    method: 'GET',
    path: '/psk/results/final',
    query: ElectionQuery,
    summary: 'The declared result: elected and tied candidates per position, turnout, the final commitment',
    description: 'Public in every results-visibility mode once the election is closed; 403 before.',
    responses: { 200: FinalResultsResponse, ...errors(403, 404) },
    metadata: meta('anyone'),
  },
  getRankedBallots: {
    method: 'GET',
    path: '/psk/results/ballots',
    summary: "A ranked position's ballots as a BLT file, after close",
    description:
      'In random order, with no voter, receipt, branch or time: recount it with `pnpm cli count FILE.blt`. 404 for a position that is not ranked; 403 before close (who may see the final results may download it).',
    query: z.object({ position_id: pathIdSchema }).merge(ElectionQuery),
    responses: {
      200: c.otherResponse({ contentType: 'text/plain', body: z.string() }),
      ...errors(403, 404),
    },
    metadata: meta('anyone'),
  },
});
