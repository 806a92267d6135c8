import type { PageMeta, PageQuery, PositionKind, VvpatRow } from '@kura/contract';
import { sql } from 'drizzle-orm';
import { electionTitle } from '../../db/election-store';
import { memberNames } from '../../db/member-store';
import { sealedReceiptsOf } from '../../db/participation-store';
import { motionOptionNamesOf, positionsWithElectionTitles } from '../../db/position-store';
import { unseal } from '../../lib/crypto';
import { likeContains, pageMeta, pageRequest } from '../../lib/pagination';
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

type Row = {
  receipt: string;
  position_id: number;
  candidate_id: number;
  candidate_name: string | null;
  kind: PositionKind;
  position_name: string | null;
  level: string | null;
};

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
    const json = JSON.stringify(
      queued.map((b) => ({ receipt: b.receipt, position_id: b.positionId, candidate_id: b.candidateId, rank: b.rank })),
    );
    const where = sql.join(
      [
        sql`true`,
        ...(code ? [sql`b.receipt ilike ${likeContains(code)}`] : []),
        ...(filter.positionId ? [sql`b.position_id = ${filter.positionId}`] : []),
      ],
      sql` and `,
    );
    const all = sql`(select receipt, position_id, candidate_id, rank::int as rank from ballots
                       union all
                       select receipt, position_id, candidate_id, rank from jsonb_to_recordset(${json}::jsonb) as q(receipt text, position_id int, candidate_id int, rank int)) b`;
    // The choice by the position's kind: a motion's option (its ids are no member's), else a
    // candidate; a ranked ballot's rows in the voter's order (docs/api.md "Many elections, motions and ranked counts").
    const rows = await tx.execute<Row>(sql`
        select b.receipt, b.position_id, b.candidate_id, coalesce(o.name, m.name) as candidate_name, p.kind,
               p.name as position_name, p.level
        from ${all}
        join positions p on p.id = b.position_id and p.election_id = ${id}
        left join members m on p.kind = 'candidates' and m.id = b.candidate_id
        left join motion_options o on p.kind = 'motion' and o.id = b.candidate_id and o.position_id = b.position_id
        where ${where}
        order by b.receipt, b.rank
        limit ${page.perPage} offset ${page.offset}`);
    const [counted] = await tx.execute<{ n: number }>(
      sql`select count(*)::int as n from ${all} join positions p on p.id = b.position_id and p.election_id = ${id} where ${where}`,
    );
    return { rows: [...rows], total: counted?.n ?? 0 };
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
