import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from './client';
import type { ElectionId } from './election-store';
import { ballots } from './schema';

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
