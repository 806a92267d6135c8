import type { BranchTurnout, FinalResultsResponse, MotionResult, RankedResult, ResultGroup } from '@kura/contract';
import { declareSeats } from '@kura/contract';
import { countMotion, countStv, formatBlt, type StvRound } from '@kura/count';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rankedBallotRows } from '../../db/ballot-box';
import { candidateIdsOf } from '../../db/candidacy-store';
import { rollRows, type ElectionId } from '../../db/election-store';
import { memberNames } from '../../db/member-store';
import { turnoutByBranch } from '../../db/participation-store';
import { positionRowsOf } from '../../db/position-store';
import { shuffleBallots } from '../ballots';
import { countFromBox } from './tally';

/**
 * The count at close of the positions whose result is more than a tally of marks: motions
 * (threshold and quorum) and ranked positions (Scottish STV). Both are the counting engine's
 * (@kura/count), never counted again here (docs/api.md "Many elections, motions and ranked counts").
 */

type PositionRow = { id: number; level: string; branchId: number | null; threshold: 'majority' | 'two_thirds' | 'three_quarters' };

/** Members of the election's roll who may vote for the position: all of it for a national one, those of the branch (at the freeze) for a branch one. */
async function rollOf(db: Db | Tx, electionId: ElectionId, position: Pick<PositionRow, 'branchId'>): Promise<number> {
  const [row] = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from (${rollRows(electionId)}) roll(member_id, branch_id)
    where ${position.branchId === null ? sql`true` : sql`roll.branch_id = ${position.branchId}`}`);
  return Number(row?.n ?? 0);
}

/** A motion's result from its counts (Yes, No, Abstain): abstentions count towards the quorum only. */
export async function motionResult(
  db: Db | Tx,
  electionId: ElectionId,
  group: ResultGroup,
  position: PositionRow & { quorumPercent: number | null },
): Promise<MotionResult> {
  const countOf = (name: string) => group.values.find((v) => v.name === name)?.count ?? 0;
  const roll = position.quorumPercent === null ? null : await rollOf(db, electionId, position);
  const outcome = countMotion({
    yes: countOf('Yes'),
    no: countOf('No'),
    abstain: countOf('Abstain'),
    threshold: position.threshold,
    quorum_percent: position.quorumPercent,
    roll: roll ?? undefined,
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
    roll,
  };
}

/** The turnout of the election's roll, per branch (the branch at the freeze) by name, and in all. */
async function turnoutOf(db: Db | Tx, electionId: ElectionId): Promise<FinalResultsResponse['turnout']> {
  const branches: BranchTurnout[] = await turnoutByBranch(db, electionId);
  return {
    members: branches.reduce((n, b) => n + b.members, 0),
    voted: branches.reduce((n, b) => n + b.voted, 0),
    branches,
  };
}

/** What a close declares and stores (`declarations`); the final commitment, `closed_at` and the audit are added when served. */
export type Declaration = Pick<FinalResultsResponse, 'data' | 'turnout'>;

/**
 * The declaration, counted from the ballot box and the roll as `db` sees them: in the close's own
 * transaction, once its re-mix published every ballot, with `seed` the final commitment's hash (a
 * ranked count's lot). Nothing here reads a process's memory or the register as it is later.
 */
export async function countDeclaration(db: Db | Tx, electionId: ElectionId, seed: string): Promise<Declaration> {
  const byId = new Map((await positionRowsOf(db, electionId)).map((p) => [p.id, p]));
  const data: Declaration['data'] = [];
  for (const g of await countFromBox(db, electionId)) {
    const p = byId.get(g.position_id);
    const n = p?.seats ?? 1;
    if (p?.kind === 'motion') data.push(await motionResult(db, electionId, g, p));
    else if (p?.method === 'ranked') data.push(await rankedResult(db, { id: p.id, electionId, title: g.title, seats: n }, seed));
    else if (p?.method === 'approval')
      data.push({
        position_id: g.position_id,
        kind: 'candidates',
        method: 'approval',
        title: g.title,
        seats: n,
        total: g.total,
        values: declareSeats(g.values, n),
      });
    else data.push({ position_id: g.position_id, title: g.title, seats: n, total: g.total, values: declareSeats(g.values, n) });
    // docs/i18n.md "Ballot content": the title in the languages its name is translated into.
    if (g.translations) data[data.length - 1]!.translations = g.translations;
  }
  return { data, turnout: await turnoutOf(db, electionId) };
}

/**
 * A ranked position's ballots as counted: its candidates numbered 1..n (the candidates standing
 * and any that hold a preference, by id) and each ballot's ranking in those numbers. The count and
 * the BLT file are made from this one reading, so a recount of the file is the declared count.
 */
type RankedBallots = { candidates: { id: number; name: string }[]; rankings: number[][] };

async function readRanked(db: Db | Tx, position: { id: number; electionId: ElectionId }): Promise<RankedBallots> {
  const positionId = position.id;
  // The position's election named as a value, so only its partition is read (docs/decisions/009).
  const rows = await rankedBallotRows(db, position.electionId, positionId);
  const standing = await candidateIdsOf(db, positionId);
  const ids = [...new Set([...standing.map((s) => s.id), ...rows.map((r) => r.candidateId)])].sort((a, b) => a - b);
  const names = new Map(ids.length === 0 ? [] : (await memberNames(db, ids)).map((m) => [m.id, m.name]));
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
  position: { id: number; electionId: ElectionId; title: string; seats: number },
  seed: string,
): Promise<RankedResult> {
  const { candidates, rankings } = await readRanked(db, position);
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
export async function rankedBlt(
  db: Db | Tx,
  position: { id: number; electionId: ElectionId; title: string; seats: number },
): Promise<string> {
  const { candidates, rankings } = await readRanked(db, position);
  return formatBlt({
    title: bltName(position.title),
    seats: position.seats,
    candidates: candidates.map((c) => ({ name: bltName(c.name) })),
    ballots: shuffleBallots(rankings).map((ranking) => ({ ranking })),
  });
}
