import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { unclosedElectionIds, type ElectionId } from '../../db/election-store';
import { electionOfEveryPosition, isRankedPosition } from '../../db/position-store';
import { lockMix, tryLockMix } from '../../db/locks';
import { anyBallotQueued, ballotsOf, queueOf, UNSORTED_QUEUE } from '../../db/ballot-box';
import { intArray, textArray } from '../../db/arrays';
import type { Ballot, BallotsContext } from './ballot-queue';
import { createLoop, type Loop } from '../../lib/loop';
import { shuffle } from './receipts';
import { inTransaction } from '../../lib/unit-of-work';

/**
 * The mixer: moves queued ballots into `ballots` in shuffled batches, in its own transactions.
 *
 * Why a queue at all: Postgres stamps every row a transaction writes with that transaction's id
 * (xmin) and appends rows in commit order. Had the vote transaction written the ballot beside the
 * participation row, anyone able to SELECT (a dump, a read replica, a backup) could join
 * `participation.xmin = ballots.xmin`, or read both tables in physical order, and learn who voted
 * for whom. The vote transaction therefore writes only the sealed queue row; a ballot becomes a
 * plain `ballots` row later, written by the mixer together with at least MIX_MIN_BATCH others of
 * its position in random order. What remains observable is which batch a voter's ballot went into
 * (the dead queue row keeps the vote's xmin and the mixer's xmax until vacuum, and two dumps show
 * which receipts appeared between them), so each voter hides among the voters of the batch: the
 * anonymity set is the batch, never fewer than MIX_MIN_BATCH ballots of the position.
 *
 * Nothing but the close publishes a smaller batch: a pause, a resume, a scheduled opening and the
 * passes while voting is paused all leave a short queue sealed (no flush, no padding with
 * published ballots, which dead tuples and old receipts give away). The close (`remixAtClose`)
 * publishes the rest together with every published ballot of its election written again in a fresh
 * random order in one transaction, onto its truncated partition, so no older row version remains:
 * after it every ballot of the election carries the close's xmin and the last partial batch is not
 * separable from the rest. Both tables are partitioned by election (ADR 009): every pass reads and
 * writes one election's partitions only.
 */

export type MixResult = { moved: number };

/** Queue rows decrypted per turn of the event loop. */
const OPEN_SLICE = 500;
/** Ballots per insert statement. */
const INSERT_SLICE = 5000;

/** Opens queue rows a slice per turn of the event loop: one queued row is one position's ballot. */
async function openAll(ctx: BallotsContext, rows: { id: string; sealed: string }[]): Promise<Ballot[][]> {
  const opened: Ballot[][] = [];
  for (let i = 0; i < rows.length; i += OPEN_SLICE) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const row of rows.slice(i, i + OPEN_SLICE)) opened.push(ctx.ballotQueue.open([row], false));
  }
  return opened;
}

const positionOf = (rows: Ballot[]) => rows[0]?.positionId ?? 0;

/**
 * Files the rows queued before the ballot box was partitioned by election (migration 0018 put
 * them in partition 0: their election is sealed inside them) under their election, in a
 * transaction of its own. A row whose position is unknown stays where it is, for the audit to
 * report. Nothing to do, and nothing written, once partition 0 is empty (always, after the first pass).
 */
export async function fileUnsortedQueue(ctx: BallotsContext): Promise<number> {
  return inTransaction(ctx, 'Unsorted queue filed', async (tx) => {
    const rows = await tx.execute<{ id: string; sealed: string }>(sql`delete from ${queueOf(UNSORTED_QUEUE)} returning id, sealed`);
    if (rows.length === 0) return 0;
    const opened = await openAll(ctx, [...rows]);
    const electionOf = await electionOfEveryPosition(tx);
    const elections = rows.map((_, i) => electionOf.get(positionOf(opened[i]!)) ?? UNSORTED_QUEUE);
    for (let i = 0; i < rows.length; i += INSERT_SLICE) {
      await tx.execute(sql`
        insert into ballot_queue (election_id, id, sealed)
        select * from unnest(${intArray(elections.slice(i, i + INSERT_SLICE))}::int[],
                             ${textArray(rows.slice(i, i + INSERT_SLICE).map((r) => r.id))}::text[],
                             ${textArray(rows.slice(i, i + INSERT_SLICE).map((r) => r.sealed))}::text[])
        order by gen_random_uuid()`);
    }
    return elections.filter((e) => e !== UNSORTED_QUEUE).length;
  });
}

/**
 * One regular mixing pass: for each election not closed, in a transaction of its own, moves the
 * ballots of each position with at least MIX_MIN_BATCH queued, whether voting is on or paused. An
 * election another process is mixing, or closing, is stepped over: the pass reads only the
 * partitions of the election it mixes, so a close re-writing another election's box never holds
 * it. A position with fewer queued waits, however long, for more ballots or for the close.
 */
export async function mixQueuedBallots(ctx: BallotsContext): Promise<MixResult> {
  // Nothing queued anywhere (between elections, a quiet hour): one read instead of a transaction
  // for the unsorted queue and one per election not closed (an idle server's pass cost some 10 ms
  // of CPU; BENCHMARKS.md, "CI"). A vote committed after this read waits for the next pass, as it
  // does after each election's own read below.
  if (!(await anyBallotQueued(ctx.database.db))) return { moved: 0 };
  await fileUnsortedQueue(ctx);
  const open = await unclosedElectionIds(ctx.database.db);
  let moved = 0;
  for (const id of open) moved += (await mixElection(ctx, id)).moved;
  return { moved };
}

async function mixElection(ctx: BallotsContext, electionId: ElectionId): Promise<MixResult> {
  return inTransaction(ctx, 'Mixing pass', async (tx) => {
    if (!(await tryLockMix(tx, electionId))) return { moved: 0 };
    const [state] = await tx.execute<{ queued: number }>(sql`select count(*)::int as queued from ${queueOf(electionId)}`);
    if ((state?.queued ?? 0) < ctx.env.MIX_MIN_BATCH) return { moved: 0 };
    // Which rows go: the anonymity set that matters is per position (the participation row says
    // which position a voter voted for, and the dead queue row which pass moved their ballot), so
    // a position's ballots move only once at least MIX_MIN_BATCH of them are queued.
    // A plain read, not FOR UPDATE: only the mixer deletes queue rows and it holds the election's
    // mixer lock, and a vote committed after this read simply waits for the next pass. Locking would
    // write a WAL record and an xmax on every queued row, the rows this pass leaves behind included.
    const all = [...(await tx.execute<{ id: string; sealed: string }>(sql`select id, sealed from ${queueOf(electionId)}`))];
    const opened = await openAll(ctx, all);
    const perPosition = new Map<number, number>();
    for (const rows of opened) perPosition.set(positionOf(rows), (perPosition.get(positionOf(rows)) ?? 0) + 1);
    const takes = (rows: Ballot[]) => (perPosition.get(positionOf(rows)) ?? 0) >= ctx.env.MIX_MIN_BATCH;
    const chosen = all.filter((_, i) => takes(opened[i]!));
    if (chosen.length === 0) return { moved: 0 };
    const takenBallots = opened.filter(takes);
    for (let i = 0; i < chosen.length; i += INSERT_SLICE) {
      await tx.execute(
        sql`delete from ${queueOf(electionId)} where id = any(${textArray(chosen.slice(i, i + INSERT_SLICE).map((r) => r.id))}::text[])`,
      );
    }
    const batch = shuffle(takenBallots.flat());
    // Rows go to the heap in the order inserted (unnest keeps the arrays' order): the shuffled
    // order, never the cast order.
    for (let i = 0; i < batch.length; i += INSERT_SLICE)
      await insertBallots(tx, ballotsOf(electionId), electionId, batch.slice(i, i + INSERT_SLICE));
    return { moved: takenBallots.length };
  });
}

/**
 * The close's pass (voting in `electionId` is over): publishes every queued ballot of that
 * election, however few, and re-mixes that election's ballot box with them so the last, possibly
 * small, batch cannot be told apart. Only the election's own partitions are read, truncated and
 * written (docs/decisions/009-a-ballot-box-per-election.md): another election's queue and ballots,
 * its votes and its readers, never meet this pass. In one transaction, waiting for a regular pass
 * of this election in progress: the published ballots with the opened queue go to a temporary
 * table (this session's only, dropped at commit), both partitions are truncated (a new, empty file
 * each: no dead tuple of an earlier pass, no padding, no old order is left for pageinspect, and
 * every new row has this transaction's xmin), and every row is written back in an order drawn from
 * the strong random source. Run again after a crash it does the same on the same set. Receipts and
 * the commitment (sorted by receipt) do not depend on row order.
 */
export async function remixAtClose(ctx: BallotsContext, electionId: ElectionId): Promise<MixResult> {
  await fileUnsortedQueue(ctx);
  return inTransaction(ctx, 'Re-mix at close', (tx) => remixAtCloseIn(ctx, tx, electionId));
}

/**
 * `remixAtClose` inside the caller's transaction (call `fileUnsortedQueue` before it): the close
 * records its final commitment in the same transaction, so the re-mix and the commitment commit
 * together and a second closer (another process, the scheduler's retry) finds the commitment and
 * never truncates again. A truncate is not MVCC-safe: a reader of this election whose snapshot is
 * older than a second truncate would see an empty box.
 */
export async function remixAtCloseIn(ctx: BallotsContext, tx: Tx, electionId: ElectionId): Promise<MixResult> {
  await lockMix(tx, electionId);
  const all = [...(await tx.execute<{ id: string; sealed: string }>(sql`select id, sealed from ${queueOf(electionId)}`))];
  const queued = (await openAll(ctx, all)).flat();
  await tx.execute(
    sql`create temporary table ballots_remix on commit drop as select receipt, position_id, candidate_id, rank from ${ballotsOf(electionId)}`,
  );
  for (let i = 0; i < queued.length; i += INSERT_SLICE)
    await insertBallots(tx, sql`ballots_remix`, null, queued.slice(i, i + INSERT_SLICE));
  await tx.execute(sql`truncate ${ballotsOf(electionId)}, ${queueOf(electionId)}`);
  await tx.execute(
    sql`insert into ${ballotsOf(electionId)} (election_id, receipt, position_id, candidate_id, rank)
        select ${electionId}::int, receipt, position_id, candidate_id, rank from ballots_remix order by gen_random_uuid()`,
  );
  await tx.execute(sql`drop table ballots_remix`);
  return { moved: all.length };
}

/**
 * Writes opened ballots in the arrays' order (the shuffled order, never the cast order). A ranked
 * position's rows keep their place in the voter's order (`rank`); every other method's rows get 0,
 * so the order a voter ticked plurality or approval boxes in is never published. The position's
 * method is read in the same statement (`isRankedPosition` of the position store).
 */
async function insertBallots(tx: Tx, table: SQL, electionId: ElectionId | null, slice: Ballot[]): Promise<void> {
  await tx.execute(sql`
    insert into ${table} (${electionId === null ? sql`` : sql`election_id, `}receipt, position_id, candidate_id, rank)
    select ${electionId === null ? sql`` : sql`${electionId}::int, `}u.receipt, u.position_id, u.candidate_id,
           case when ${isRankedPosition(sql`u.position_id`)} then u.rank else 0 end
    from unnest(${textArray(slice.map((b) => b.receipt))}::text[], ${intArray(slice.map((b) => b.positionId))}::int[],
                ${intArray(slice.map((b) => b.candidateId))}::int[], ${intArray(slice.map((b) => b.rank))}::int[])
         with ordinality as u(receipt, position_id, candidate_id, rank, n)
    order by u.n`);
}

/** The mixing loop as a service (`ctx.mixer`): a pass every MIX_INTERVAL_MS, started with the app, stopped at shutdown. */
export function createMixer(ctx: BallotsContext): Loop {
  return createLoop({
    logger: ctx.logger,
    failure: 'mixing failed',
    intervalMs: ctx.env.MIX_INTERVAL_MS,
    runAtStart: false,
    run: async () => {
      const { moved } = await mixQueuedBallots(ctx);
      if (moved > 0) ctx.logger.debug({ moved }, 'mixed queued ballots');
    },
  });
}
