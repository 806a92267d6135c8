import type { PositionKind } from '@kura/contract';
import { and, asc, count, eq, gt, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from './client';
import type { ElectionId } from './election-store';
import { ballotQueue, ballots, positions } from './schema';
import { likeContains, type PageRequest } from '../lib/pagination';

/**
 * One election's ballot box: `ballots` and `ballot_queue` are partitioned by election (LIST on
 * `election_id`), a partition pair per election created with it (the `create_ballot_partitions`
 * trigger on `election`, migration 0018). The close re-mixes and truncates its own pair only, and
 * statements that name a partition never lock another election's
 * (docs/decisions/009-a-ballot-box-per-election.md).
 */
function partition(table: 'ballots' | 'ballot_queue', id: ElectionId): SQL {
  if (!Number.isSafeInteger(id) || id < 0) throw new Error(`not an election id: ${id}`);
  return sql`${sql.identifier(`${table}_e${id}`)}`;
}

/** The election's partition of `ballots`. */
export const ballotsOf = (id: ElectionId): SQL => partition('ballots', id);
/** The election's partition of `ballot_queue`. */
export const queueOf = (id: ElectionId): SQL => partition('ballot_queue', id);
/**
 * Waits until no transaction that truncates this election's box (the close's re-mix, mixer.ts
 * `remixAtCloseIn`) is in progress. Call it first in a REPEATABLE READ reader of the box, before
 * any query: LOCK takes no snapshot, so the snapshot the next query takes sees the box after the
 * re-mix committed. A truncate is not MVCC-safe: a snapshot taken before it reads the new, empty
 * files (a resync during a close read every count as 0). ACCESS SHARE conflicts with nothing but
 * the truncate's ACCESS EXCLUSIVE, which a box reader's queries took all along.
 */
export async function waitForBoxRewrite(tx: Tx, id: ElectionId): Promise<void> {
  await tx.execute(sql`lock table ${ballotsOf(id)}, ${queueOf(id)} in access share mode`);
}
/** The partition of `ballot_queue` holding rows queued before the partitioning, until the mixer files them (`fileUnsortedQueue`). */
export const UNSORTED_QUEUE = 0;

/**
 * Whether any ballot waits in any partition of `ballot_queue`, the unsorted one included: one
 * read, outside any transaction. When none does, the mixer's pass has nothing to do.
 */
export async function anyBallotQueued(db: Db | Tx): Promise<boolean> {
  const [found] = await db.execute<{ queued: boolean }>(sql`select exists (select 1 from ${ballotQueue}) as queued`);
  return found?.queued === true;
}

/**
 * One election's ballot set as a commitment digests it (`digestBallots`, the results module): every
 * row of its `ballots` in receipt order (byte order, COLLATE "C"), then candidate id. The id is a
 * literal so the plan names that election's partition alone (ADR 009).
 */
export function ballotSetInOrder(electionId: ElectionId): SQL {
  if (!Number.isSafeInteger(electionId)) throw new Error(`not an election id: ${electionId}`);
  return sql`select receipt, position_id, candidate_id, rank from ${ballots}
    where election_id = ${sql.raw(String(electionId))} order by receipt collate "C", candidate_id`;
}

// ---- reads of the box (ballots, ballot_queue: the ballots module's, written by cast_vote and the
// mixer) for the count, the tally and the audit of the results and declaration modules, and the
// vvpat module's audit trail. Each runs on the handle it is given, inside the caller's transaction
// and snapshot (a REPEATABLE READ reader calls `waitForBoxRewrite` first, before any of these).

type Reader = Db | Tx;

/**
 * The election's mixed ballots counted per position and candidate, rank 0 (not ranked) and 1 (a
 * ranked ballot's first preference) only: what live results count. Its partition (ADR 009).
 */
export async function firstPreferenceCounts(
  db: Reader,
  electionId: ElectionId,
): Promise<{ positionId: number; candidateId: number; n: number }[]> {
  return db
    .select({ positionId: ballots.positionId, candidateId: ballots.candidateId, n: count() })
    .from(ballots)
    .where(and(lte(ballots.rank, 1), eq(ballots.electionId, electionId)))
    .groupBy(ballots.positionId, ballots.candidateId);
}

/** As `firstPreferenceCounts`, the ballots chosen by their position's election (a join on positions): the declaration's count at close. */
export async function firstPreferenceCountsByPosition(
  db: Reader,
  electionId: ElectionId,
): Promise<{ positionId: number; candidateId: number; n: number }[]> {
  return db
    .select({ positionId: ballots.positionId, candidateId: ballots.candidateId, n: count() })
    .from(ballots)
    .innerJoin(positions, eq(positions.id, ballots.positionId))
    .where(and(lte(ballots.rank, 1), eq(positions.electionId, electionId)))
    .groupBy(ballots.positionId, ballots.candidateId);
}

/** How many ballots the election's box holds mixed: distinct receipts (a receipt is one ballot). */
export async function mixedBallotCount(db: Reader, electionId: ElectionId): Promise<number> {
  const [mixed] = await db
    .select({ n: sql<number>`count(distinct ${ballots.receipt})::int` })
    .from(ballots)
    .where(eq(ballots.electionId, electionId));
  return mixed?.n ?? 0;
}

/** The election's queued ballots, sealed (id and sealed text), with the queue rows of before the partitioning (`UNSORTED_QUEUE`). */
export async function queuedBallots(db: Reader, electionId: ElectionId): Promise<{ id: string; sealed: string }[]> {
  return db
    .select({ id: ballotQueue.id, sealed: ballotQueue.sealed })
    .from(ballotQueue)
    .where(inArray(ballotQueue.electionId, [UNSORTED_QUEUE, electionId]));
}

/** As `queuedBallots`, the rows whole (the audit opens each). */
export async function queuedBallotRows(db: Reader, electionId: ElectionId): Promise<(typeof ballotQueue.$inferSelect)[]> {
  return db
    .select()
    .from(ballotQueue)
    .where(inArray(ballotQueue.electionId, [UNSORTED_QUEUE, electionId]));
}

/**
 * A ranked position's ballot rows (rank > 0) in receipt order (byte order), then rank: each
 * ballot's preferences in the voter's order. The position's election named as a value, so only its
 * partition is read (ADR 009): another election's close, which holds its own partition, never
 * holds this read, nor this read (in a close) that one.
 */
export async function rankedBallotRows(
  db: Reader,
  electionId: ElectionId,
  positionId: number,
): Promise<{ receipt: string; candidateId: number }[]> {
  return db
    .select({ receipt: ballots.receipt, candidateId: ballots.candidateId })
    .from(ballots)
    .where(and(eq(ballots.electionId, electionId), eq(ballots.positionId, positionId), gt(ballots.rank, 0)))
    .orderBy(sql`${ballots.receipt} collate "C"`, asc(ballots.rank));
}

/** The candidates (ids) that hold a ballot of the position. */
export async function candidatesWithBallots(db: Reader, electionId: ElectionId, positionId: number): Promise<{ id: number }[]> {
  return db
    .selectDistinct({ id: ballots.candidateId })
    .from(ballots)
    .where(and(eq(ballots.electionId, electionId), eq(ballots.positionId, positionId)));
}

export type BallotRow = { receipt: string; rank: number; candidateId: number };

/**
 * The position's ballot rows in receipt order (byte order), then rank and candidate, `pageSize` at
 * a time: each page a keyset query after the last row of the one before; the last page is shorter.
 */
export async function* positionBallotPages(
  db: Reader,
  electionId: ElectionId,
  positionId: number,
  pageSize: number,
): AsyncGenerator<BallotRow[], void> {
  let after: BallotRow | null = null;
  for (;;) {
    const page: BallotRow[] = await db
      .select({ receipt: ballots.receipt, rank: ballots.rank, candidateId: ballots.candidateId })
      .from(ballots)
      .where(
        and(
          eq(ballots.electionId, electionId),
          eq(ballots.positionId, positionId),
          after === null
            ? undefined
            : sql`(${ballots.receipt} collate "C" > ${after.receipt} or (${ballots.receipt} = ${after.receipt} and (${ballots.rank} > ${after.rank} or (${ballots.rank} = ${after.rank} and ${ballots.candidateId} > ${after.candidateId}))))`,
        ),
      )
      .orderBy(sql`${ballots.receipt} collate "C"`, asc(ballots.rank), asc(ballots.candidateId))
      .limit(pageSize);
    yield page;
    if (page.length < pageSize) return;
    after = page[page.length - 1]!;
  }
}

/** A row of the audit trail: a ballot row with its choice's name and its position's kind, name and level. */
export type AuditTrailRow = {
  receipt: string;
  position_id: number;
  candidate_id: number;
  candidate_name: string | null;
  kind: PositionKind;
  position_name: string | null;
  level: string | null;
};

/**
 * One page of the election's audit trail (the vvpat module's `searchVvpat`): its ballot rows, mixed
 * (`ballots`) and still queued (`queued`, opened by the caller from the queue it read on the same
 * handle), in receipt order, then rank; each with the name of its choice by the position's kind (a
 * motion's option, whose ids are no member's, else a candidate from the register: docs/api.md "Many
 * elections, motions and ranked counts") and its position's name and level. `receipt` keeps the
 * rows whose receipt contains it (any case), `positionId` those of one position; `total` counts
 * every row they keep. Runs on the handle it is given, in the caller's snapshot (`inBoxSnapshot`):
 * queue and ballots read in one snapshot list a ballot mixed meanwhile once.
 */
export async function auditTrailPage(
  tx: Tx,
  electionId: ElectionId,
  queued: { receipt: string; positionId: number; candidateId: number; rank: number }[],
  filter: { receipt?: string; positionId?: number },
  page: PageRequest,
): Promise<{ rows: AuditTrailRow[]; total: number }> {
  const json = JSON.stringify(
    queued.map((b) => ({ receipt: b.receipt, position_id: b.positionId, candidate_id: b.candidateId, rank: b.rank })),
  );
  const where = sql.join(
    [
      sql`true`,
      ...(filter.receipt ? [sql`b.receipt ilike ${likeContains(filter.receipt)}`] : []),
      ...(filter.positionId ? [sql`b.position_id = ${filter.positionId}`] : []),
    ],
    sql` and `,
  );
  const all = sql`(select receipt, position_id, candidate_id, rank::int as rank from ballots
                       union all
                       select receipt, position_id, candidate_id, rank from jsonb_to_recordset(${json}::jsonb) as q(receipt text, position_id int, candidate_id int, rank int)) b`;
  const rows = await tx.execute<AuditTrailRow>(sql`
        select b.receipt, b.position_id, b.candidate_id, coalesce(o.name, m.name) as candidate_name, p.kind,
               p.name as position_name, p.level
        from ${all}
        join positions p on p.id = b.position_id and p.election_id = ${electionId}
        left join members m on p.kind = 'candidates' and m.id = b.candidate_id
        left join motion_options o on p.kind = 'motion' and o.id = b.candidate_id and o.position_id = b.position_id
        where ${where}
        order by b.receipt, b.rank
        limit ${page.perPage} offset ${page.offset}`);
  const [counted] = await tx.execute<{ n: number }>(
    sql`select count(*)::int as n from ${all} join positions p on p.id = b.position_id and p.election_id = ${electionId} where ${where}`,
  );
  return { rows: [...rows], total: counted?.n ?? 0 };
}
