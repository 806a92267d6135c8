import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from './client';
import type { ElectionId } from './election-store';
import { ELECTION_LOCK, ELECTION_LOCK_NAMESPACE } from './locks';

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
/** The partition of `ballot_queue` holding rows queued before the partitioning, until the mixer files them (`fileUnsortedQueue`). */
export const UNSORTED_QUEUE = 0;

/**
 * Takes the lock a change of one election's state holds (a toggle, a scheduled opening, a close,
 * a deletion): that election's lock exclusively, so its votes in flight commit first and later
 * ones see the change, and the installation-wide one shared, so a change spanning elections
 * (ELECTION_LOCK taken exclusively) waits for it and it for that change. Votes in other elections
 * hold neither exclusively and never wait for it.
 */
export async function lockElection(tx: Tx, id: ElectionId): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock_shared(${ELECTION_LOCK}::bigint), pg_advisory_xact_lock(${ELECTION_LOCK_NAMESPACE}::int, ${id}::int)`,
  );
}
