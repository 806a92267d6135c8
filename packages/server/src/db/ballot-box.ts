import { and, asc, count, eq, gt, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from './client';
import type { ElectionId } from './election-store';
import { ballotQueue, ballots, positions } from './schema';

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
// mixer) for the count, the tally and the audit of the results and declaration modules. Each runs
// on the handle it is given, inside the caller's transaction and snapshot (a REPEATABLE READ
// reader calls `waitForBoxRewrite` first, before any of these).

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
