import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { ballotQueue, positions } from '../../db/schema';
import { CURRENT_ELECTION, type ElectionId } from '../../db/election-store';
import { MIX_LOCK } from '../../db/locks';
import { intArray, textArray } from '../../db/arrays';
import type { Ballot, BallotsContext } from './ballot-queue';
import { createLoop, type Loop } from '../../lib/loop';
import { shuffle } from './receipts';

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
 * publishes the rest together with every published ballot written again in a fresh random order in
 * one transaction, onto a truncated table, so no older row version remains: after it every ballot
 * carries the close's xmin and the last partial batch is not separable from the rest.
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
 * One regular mixing pass: moves the ballots of each position with at least MIX_MIN_BATCH queued,
 * whether voting is on or paused, and steps aside if another process is mixing. A position with
 * fewer queued waits, however long, for more ballots or for the close.
 */
export async function mixQueuedBallots(ctx: BallotsContext): Promise<MixResult> {
  return ctx.database.db.transaction(async (tx) => {
    const [lock] = await tx.execute<{ ok: boolean }>(sql`select pg_try_advisory_xact_lock(${MIX_LOCK}) as ok`);
    if (!lock?.ok) return { moved: 0 };
    const [state] = await tx.execute<{ queued: number }>(sql`select count(*)::int as queued from ballot_queue`);
    if ((state?.queued ?? 0) < ctx.env.MIX_MIN_BATCH) return { moved: 0 };
    // Which rows go: the anonymity set that matters is per position (the participation row says
    // which position a voter voted for, and the dead queue row which pass moved their ballot), so
    // a position's ballots move only once at least MIX_MIN_BATCH of them are queued.
    // A plain read, not FOR UPDATE: only the mixer deletes queue rows and it holds MIX_LOCK, and a
    // vote committed after this read simply waits for the next pass. Locking would write a WAL
    // record and an xmax on every queued row, the rows this pass leaves behind included.
    const all = await tx.select({ id: ballotQueue.id, sealed: ballotQueue.sealed }).from(ballotQueue);
    const opened = await openAll(ctx, all);
    const perPosition = new Map<number, number>();
    for (const rows of opened) perPosition.set(positionOf(rows), (perPosition.get(positionOf(rows)) ?? 0) + 1);
    const takes = (rows: Ballot[]) => (perPosition.get(positionOf(rows)) ?? 0) >= ctx.env.MIX_MIN_BATCH;
    const chosen = all.filter((_, i) => takes(opened[i]!));
    if (chosen.length === 0) return { moved: 0 };
    const takenBallots = opened.filter(takes);
    for (let i = 0; i < chosen.length; i += INSERT_SLICE) {
      await tx.execute(
        sql`delete from ballot_queue where id = any(${textArray(chosen.slice(i, i + INSERT_SLICE).map((r) => r.id))}::text[])`,
      );
    }
    const batch = shuffle(takenBallots.flat());
    // Rows go to the heap in the order inserted (unnest keeps the arrays' order): the shuffled
    // order, never the cast order.
    for (let i = 0; i < batch.length; i += INSERT_SLICE) await insertBallots(tx, 'ballots', batch.slice(i, i + INSERT_SLICE));
    return { moved: takenBallots.length };
  });
}

/**
 * The close's pass (voting in `electionId` is over): publishes every queued ballot of that
 * election, however few, and re-mixes the whole ballot box with them so the last, possibly small,
 * batch cannot be told apart. Another election's queued ballots are not published (its voting may
 * still be open, and its short queue stays sealed until its own batch or its own close); they are
 * written back into the queue. In one transaction, waiting for a regular pass in progress: the
 * published ballots with the closing election's opened queue, and the other elections' queue rows,
 * go to temporary tables (this session's only, dropped at commit), both tables are truncated (a
 * new, empty file each: no dead tuple of an earlier pass, no padding, no old order is left for
 * pageinspect, and every new row has this transaction's xmin), and every row is written back in an
 * order drawn from the strong random source. Run again after a crash it does the same on the same
 * set. Receipts and the commitment (sorted by receipt) do not depend on row order.
 */
export async function remixAtClose(ctx: BallotsContext, electionId: ElectionId = CURRENT_ELECTION): Promise<MixResult> {
  return ctx.database.db.transaction((tx) => remixAtCloseIn(ctx, tx, electionId));
}

/**
 * `remixAtClose` inside the caller's transaction: the close records its final commitment in the
 * same transaction, so the re-mix and the commitment commit together and a second closer (another
 * process, the scheduler's retry) finds the commitment and never truncates again. A truncate is
 * not MVCC-safe: a reader whose snapshot is older than a second truncate would see an empty box.
 */
export async function remixAtCloseIn(ctx: BallotsContext, tx: Tx, electionId: ElectionId = CURRENT_ELECTION): Promise<MixResult> {
  await tx.execute(sql`select pg_advisory_xact_lock(${MIX_LOCK})`);
  const all = await tx.select({ id: ballotQueue.id, sealed: ballotQueue.sealed }).from(ballotQueue);
  const opened = await openAll(ctx, all);
  const own = new Set((await tx.select({ id: positions.id }).from(positions).where(eq(positions.electionId, electionId))).map((p) => p.id));
  const closing = (rows: Ballot[]) => own.has(positionOf(rows));
  const queued = opened.filter(closing).flat();
  const kept = all.filter((_, i) => !closing(opened[i]!)).map((r) => r.id);
  await tx.execute(
    sql`create temporary table ballots_remix on commit drop as select receipt, position_id, candidate_id, rank from ballots`,
  );
  for (let i = 0; i < queued.length; i += INSERT_SLICE) await insertBallots(tx, 'ballots_remix', queued.slice(i, i + INSERT_SLICE));
  await tx.execute(
    sql`create temporary table queue_kept on commit drop as select * from ballot_queue where id = any(${textArray(kept)}::text[])`,
  );
  await tx.execute(sql`truncate ballots, ballot_queue`);
  await tx.execute(
    sql`insert into ballots (receipt, position_id, candidate_id, rank) select receipt, position_id, candidate_id, rank from ballots_remix order by gen_random_uuid()`,
  );
  await tx.execute(sql`insert into ballot_queue select * from queue_kept order by gen_random_uuid()`);
  await tx.execute(sql`drop table ballots_remix, queue_kept`);
  return { moved: all.length - kept.length };
}

/**
 * Writes opened ballots in the arrays' order (the shuffled order, never the cast order). A ranked
 * position's rows keep their place in the voter's order (`rank`); every other method's rows get 0,
 * so the order a voter ticked plurality or approval boxes in is never published.
 */
async function insertBallots(tx: Tx, table: 'ballots' | 'ballots_remix', slice: Ballot[]): Promise<void> {
  await tx.execute(sql`
    insert into ${sql.identifier(table)} (receipt, position_id, candidate_id, rank)
    select u.receipt, u.position_id, u.candidate_id, case when p.kind = 'candidates' and p.method = 'ranked' then u.rank else 0 end
    from unnest(${textArray(slice.map((b) => b.receipt))}::text[], ${intArray(slice.map((b) => b.positionId))}::int[],
                ${intArray(slice.map((b) => b.candidateId))}::int[], ${intArray(slice.map((b) => b.rank))}::int[])
         with ordinality as u(receipt, position_id, candidate_id, rank, n)
    left join positions p on p.id = u.position_id
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
