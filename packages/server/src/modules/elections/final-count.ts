import type { MotionResult, RankedResult, ResultGroup } from '@kura/contract';
import { countMotion, countStv, formatBlt, type StvRound } from '@kura/count';
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { ballots, candidacies, members, positions } from '../../db/schema';
import { shuffleBallots } from '../ballots';

/**
 * The count at close of the positions whose result is more than a tally of marks: motions
 * (threshold and quorum) and ranked positions (Scottish STV). Both are the counting engine's
 * (@kura/count), never counted again here (docs/api.md "Many elections, motions and ranked counts").
 */

type PositionRow = { id: number; level: string; branchId: number | null; threshold: 'majority' | 'two_thirds' | 'three_quarters' };

/** Members who may vote for the position: everyone for a national one, the branch's members for a branch one. */
async function rollOf(db: Db | Tx, position: Pick<PositionRow, 'branchId'>): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(members)
    .where(position.branchId === null ? undefined : eq(members.branchId, position.branchId));
  return row?.n ?? 0;
}

/** A motion's result from its live counts (Yes, No, Abstain): abstentions count towards the quorum only. */
export async function motionResult(
  db: Db | Tx,
  group: ResultGroup,
  position: PositionRow & { quorumPercent: number | null },
): Promise<MotionResult> {
  const countOf = (name: string) => group.values.find((v) => v.name === name)?.count ?? 0;
  const outcome = countMotion({
    yes: countOf('Yes'),
    no: countOf('No'),
    abstain: countOf('Abstain'),
    threshold: position.threshold,
    quorum_percent: position.quorumPercent,
    roll: position.quorumPercent === null ? undefined : await rollOf(db, position),
  });
  return {
    position_id: group.position_id,
    title: group.title,
    kind: 'motion',
    yes: outcome.yes,
    no: outcome.no,
    abstain: outcome.abstain,
    threshold: outcome.threshold,
    quorum_percent: outcome.quorum_percent,
    quorum_met: outcome.quorum_met,
    passed: outcome.passed,
  };
}

/**
 * A ranked position's ballots as counted: its candidates numbered 1..n (the candidates standing
 * and any that hold a preference, by id) and each ballot's ranking in those numbers. The count and
 * the BLT file are made from this one reading, so a recount of the file is the declared count.
 */
type RankedBallots = { candidates: { id: number; name: string }[]; rankings: number[][] };

async function readRanked(db: Db | Tx, positionId: number): Promise<RankedBallots> {
  const rows = await db
    .select({ receipt: ballots.receipt, candidateId: ballots.candidateId })
    .from(ballots)
    .where(and(eq(ballots.positionId, positionId), gt(ballots.rank, 0)))
    .orderBy(sql`${ballots.receipt} collate "C"`, asc(ballots.rank));
  const standing = await db.select({ id: candidacies.memberId }).from(candidacies).where(eq(candidacies.positionId, positionId));
  const ids = [...new Set([...standing.map((s) => s.id), ...rows.map((r) => r.candidateId)])].sort((a, b) => a - b);
  const names = new Map(
    ids.length === 0
      ? []
      : (await db.select({ id: members.id, name: members.name }).from(members).where(inArray(members.id, ids))).map((m) => [m.id, m.name]),
  );
  const candidates = ids.map((id) => ({ id, name: names.get(id) ?? `Candidate ${id}` }));
  const number = new Map(ids.map((id, k) => [id, k + 1]));
  const rankings: number[][] = [];
  let last: string | undefined;
  for (const r of rows) {
    if (r.receipt !== last) rankings.push([]);
    last = r.receipt;
    rankings[rankings.length - 1]!.push(number.get(r.candidateId)!);
  }
  return { candidates, rankings };
}

/** The seed of the count's lot: the final commitment's hash, public and fixed before anyone counts. */
export async function rankedResult(
  db: Db | Tx,
  position: { id: number; title: string; seats: number },
  seed: string,
): Promise<RankedResult> {
  const { candidates, rankings } = await readRanked(db, position.id);
  const result = countStv({
    seats: position.seats,
    candidates: candidates.map((c, k) => ({ id: k + 1, name: c.name })),
    ballots: rankings.map((ranking) => ({ ranking })),
    seed,
  });
  const idOf = (n: number) => candidates[n - 1]!.id;
  const remap = (round: StvRound): RankedResult['rounds'][number] => ({
    round: round.round,
    action: round.action,
    candidate_ids: round.candidate_ids.map(idOf),
    votes: Object.fromEntries(Object.entries(round.votes).map(([n, v]) => [String(idOf(Number(n))), v])),
    nontransferable: round.nontransferable,
    ...(round.tie && {
      tie: {
        ...round.tie,
        candidate_ids: round.tie.candidate_ids.map(idOf),
        chosen: idOf(round.tie.chosen),
        ...(round.tie.drawn_from && { drawn_from: round.tie.drawn_from.map(idOf) }),
      },
    }),
  });
  return {
    position_id: position.id,
    title: position.title,
    kind: 'candidates',
    method: 'ranked',
    seats: position.seats,
    ballots: result.ballots,
    quota: result.quota,
    values: result.values.map((v) => ({
      candidate_id: idOf(v.candidate_id),
      name: v.name,
      first_preferences: v.first_preferences,
      votes: v.votes,
      elected: v.elected,
    })),
    nontransferable: result.nontransferable,
    rounds: result.rounds.map(remap),
  };
}

/** BLT names cannot hold a double quote or a line break. */
const bltName = (name: string) => name.replace(/"/g, "'").replace(/[\r\n]+/g, ' ');

/**
 * A ranked position's ballots as a BLT file: candidates in id order, one line per ballot in a
 * fresh random order, nothing else (no receipt, voter, branch or time).
 */
export async function rankedBlt(db: Db | Tx, position: { id: number; title: string; seats: number }): Promise<string> {
  const { candidates, rankings } = await readRanked(db, position.id);
  return formatBlt({
    title: bltName(position.title),
    seats: position.seats,
    candidates: candidates.map((c) => ({ name: bltName(c.name) })),
    ballots: shuffleBallots(rankings).map((ranking) => ({ ranking })),
  });
}

/** The ranked positions' ids (for a reader that needs no more). */
export async function rankedPositionIds(db: Db | Tx): Promise<Set<number>> {
  const rows = await db
    .select({ id: positions.id })
    .from(positions)
    .where(and(eq(positions.kind, 'candidates'), eq(positions.method, 'ranked')));
  return new Set(rows.map((r) => r.id));
}
