import type { PageMeta, PageQuery, VvpatRow } from '@kura/contract';
import { auditTrailPage } from '../../db/ballot-box';
import { electionTitle } from '../../db/election-store';
import { memberNames } from '../../db/member-store';
import { sealedReceiptsOf } from '../../db/participation-store';
import { motionOptionNamesOf, positionsWithElectionTitles } from '../../db/position-store';
import { unseal } from '../../lib/crypto';
import { pageMeta, pageRequest } from '../../lib/pagination';
import { positionTitle } from '../../lib/position-title';
import { findBallots, normaliseReceipt, readQueue, type Ballot } from '../ballots';
import { type ElectionId } from '../elections';
import { assertMayViewResults, mayViewResults, type ResultsContext } from '../results';
import { inBoxSnapshot } from '../../lib/box-snapshot';

export type VvpatPage = { data: { votes: VvpatRow[] }; meta: PageMeta };

async function tallyOf(ctx: ResultsContext, id: ElectionId) {
  const tally = ctx.voting.tallyOf(id);
  await tally.whenReady();
  return tally;
}

/**
 * The member's own ballots, of every election: their receipts are sealed in `participation`, so
 * only the server (with BALLOT_KEY) can find which ballots are theirs, and only for them. The
 * receipts and the member's own choices are always theirs to see; each row names its election
 * (newest first) and each candidate's live count follows that election's results visibility (null
 * while voters may not see its results).
 */
export async function listMyVvpat(ctx: ResultsContext, memberId: number): Promise<VvpatRow[]> {
  const mine = await sealedReceiptsOf(ctx.database.db, memberId);
  if (mine.length === 0) return [];
  const receipts = mine.map((p) => unseal(ctx.secrets.ballotKey, p.receiptEnc));
  const found = await findBallots(ctx, receipts);
  // A ballot for several seats shows a row per chosen candidate, under its one receipt.
  const ballots = receipts.flatMap((r) => found.get(r) ?? []);
  const positionIds = mine.map((p) => p.positionId);
  const [names, optionNames, titles] = await Promise.all([
    ballots.length
      ? memberNames(
          ctx.database.db,
          ballots.map((b) => b.candidateId),
        )
      : [],
    // A motion's choice is one of its options, whose ids are no member's (docs/api.md "Many elections, motions and ranked counts").
    motionOptionNamesOf(ctx.database.db, positionIds),
    positionsWithElectionTitles(ctx.database.db, positionIds),
  ]);
  const electionIds = [...new Set(titles.map((p) => p.electionId))];
  const perElection = new Map(
    await Promise.all(
      electionIds.map(async (id) => {
        const [tally, gate] = await Promise.all([tallyOf(ctx, id), ctx.resultsGate.read(id)]);
        return [id, { tally, showCounts: mayViewResults(gate, 'voter') }] as const;
      }),
    ),
  );
  const nameOf = new Map(names.map((n) => [n.id, n.name]));
  const optionOf = new Map(optionNames.map((o) => [`${o.positionId}:${o.id}`, o.name]));
  const positionOf = new Map(titles.map((p) => [p.id, p]));
  // The choice by the position's kind: a motion's option, else a candidate from the register.
  const choiceOf = (b: Ballot, kind: string) =>
    kind === 'motion'
      ? (optionOf.get(`${b.positionId}:${b.candidateId}`) ?? `Option ${b.candidateId}`)
      : (nameOf.get(b.candidateId) ?? `Candidate ${b.candidateId}`);
  // Newest election first, then ballot order; a ranked ballot's rows in the voter's order of preference.
  const order = (b: Ballot) => [
    -(positionOf.get(b.positionId)?.electionId ?? 0),
    positionOf.get(b.positionId)?.sortOrder ?? 0,
    b.positionId,
    b.rank,
  ];
  const compare = (a: number[], b: number[]) => a.reduce((d, x, i) => d || x - b[i]!, 0);
  return ballots
    .filter((b) => positionOf.has(b.positionId))
    .sort((a, b) => compare(order(a), order(b)))
    .map((b) => {
      const p = positionOf.get(b.positionId)!;
      const counted = perElection.get(p.electionId)!;
      return {
        vvpat: b.receipt,
        name: choiceOf(b, p.kind),
        count: counted.showCounts ? counted.tally.countOf(b.positionId, b.candidateId) : null,
        position: positionTitle(p),
        kind: p.kind,
        election_id: p.electionId,
        election: p.election,
        // A ranked ballot's receipt shows the voter's order (their own, so no secret is told).
        ...(p.kind === 'candidates' && p.method === 'ranked' && b.rank > 0 ? { rank: b.rank } : {}),
      };
    });
}

/**
 * The audit trail for admins: every counted ballot of one election, mixed or still queued, in receipt order
 * (receipts are random, so the order says nothing about when a ballot was cast). Each row names the
 * choice, so counting rows gives every candidate's count: it follows the results visibility like the
 * results themselves (403 for an admin until close under `after_close`).
 */
export async function searchVvpat(
  ctx: ResultsContext,
  query: PageQuery,
  filter: { vvpat?: string; positionId?: number } = {},
  id: ElectionId,
): Promise<VvpatPage> {
  assertMayViewResults(await ctx.resultsGate.read(id), 'admin');
  const page = pageRequest(query);
  const tally = await tallyOf(ctx, id);
  const title = (await electionTitle(ctx.database.db, id)) ?? '';
  const code = filter.vvpat ? normaliseReceipt(filter.vvpat) : undefined;
  const { rows, total } = await inBoxSnapshot(ctx, 'VVPAT page read', id, async (tx) => {
    // Queue and ballots in one snapshot: a ballot mixed meanwhile is listed once.
    const queued = await readQueue(ctx, tx);
    return auditTrailPage(tx, id, queued, { receipt: code, positionId: filter.positionId }, page);
  });
  return {
    data: {
      votes: rows.map((r) => ({
        vvpat: r.receipt,
        name: r.candidate_name ?? (r.kind === 'motion' ? `Option ${r.candidate_id}` : `Candidate ${r.candidate_id}`),
        count: tally.countOf(r.position_id, r.candidate_id),
        position: r.position_name ? positionTitle({ name: r.position_name, level: r.level ?? '' }) : `Position ${r.position_id}`,
        kind: r.kind,
        election_id: id,
        election: title,
      })),
    },
    meta: pageMeta(total, page),
  };
}
