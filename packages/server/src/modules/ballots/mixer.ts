import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { ballotQueue, ballots } from '../../db/schema';
import { MIX_LOCK } from './locks';
import { intArray, textArray } from '../../db/arrays';
import type { Ballot } from './ballot-queue';
import { loopService, type Service } from '../../lib/service';
import { shuffle } from './receipts';

/**
 * The mixer: moves queued ballots into `ballots` in shuffled batches, in its own transactions.
 *
 * Why a queue at all: Postgres stamps every row a transaction writes with that transaction's id
 * (xmin) and appends rows in commit order. Had the vote transaction written the ballot beside the
 * participation row, anyone able to SELECT (a dump, a read replica, a backup) could join
 * `participation.xmin = ballots.xmin`, or read both tables in physical order, and learn who voted
 * for whom. The vote transaction therefore writes only the sealed queue row; a ballot becomes a
 * plain `ballots` row later, written by the mixer together with at least MIX_MIN_BATCH others in
 * random order. What remains observable is which batch a voter's ballot went into (the dead queue
 * row keeps the vote's xmin and the mixer's xmax until vacuum), so each voter hides among the
 * voters of the batch: the anonymity set is the batch, at least MIX_MIN_BATCH ballots while voting
 * is open. When voting closes the rest is flushed whatever its size (the election is over and
 * every ballot must be published); a toggle also flushes before it records a commitment. A forced
 * batch smaller than MIX_MIN_BATCH is padded with published ballots, deleted and written again
 * within the batch, so the live rows still show a batch of MIX_MIN_BATCH sharing one xmin: the
 * last voters before a close do not stand out. (Someone reading dead tuples or the WAL can tell
 * the padding apart by its receipts; against them the close batch is only as large as it is.)
 */

export type MixResult = { moved: number };

/** Queue rows decrypted per turn of the event loop. */
const OPEN_SLICE = 500;
/** Ballots per insert statement. */
const INSERT_SLICE = 5000;

/**
 * One mixing pass. `force` moves everything queued (toggle, voting closed) and waits for a
 * concurrent mixer; otherwise it moves the ballots of each position with at least MIX_MIN_BATCH
 * queued (all of them once voting is closed), and steps aside if another process is mixing.
 */
export async function mixQueuedBallots(ctx: AppContext, options: { force?: boolean } = {}): Promise<MixResult> {
  return ctx.database.db.transaction(async (tx) => {
    let closed = Boolean(options.force);
    if (options.force) {
      await tx.execute(sql`select pg_advisory_xact_lock(${MIX_LOCK})`);
    } else {
      const [lock] = await tx.execute<{ ok: boolean }>(sql`select pg_try_advisory_xact_lock(${MIX_LOCK}) as ok`);
      if (!lock?.ok) return { moved: 0 };
      const [state] = await tx.execute<{ queued: number; active: string | null }>(
        sql`select (select count(*) from ballot_queue)::int as queued, (select value from settings where key = 'election_active') as active`,
      );
      const queued = state?.queued ?? 0;
      // Voting closed with ballots still queued (a crash between toggle and flush): publish them all.
      closed = state?.active !== '1';
      if (queued === 0 || (queued < ctx.env.MIX_MIN_BATCH && !closed)) return { moved: 0 };
    }
    // Which rows go: the anonymity set that matters is per position (the participation row says
    // which position a voter voted for, and the dead queue row which pass moved their ballot), so
    // a position's ballots move only once at least MIX_MIN_BATCH of them are queued; a forced pass
    // (voting closed) moves everything.
    // A plain read, not FOR UPDATE: only the mixer deletes queue rows and it holds MIX_LOCK, and a
    // vote committed after this read simply waits for the next pass. Locking would write a WAL
    // record and an xmax on every queued row, the rows this pass leaves behind included.
    const all = await tx.select({ id: ballotQueue.id, sealed: ballotQueue.sealed }).from(ballotQueue);
    // One queue row is one position's ballot: its rows (a row per candidate chosen, several for a
    // position with several seats) move together.
    const opened: Ballot[][] = [];
    for (let i = 0; i < all.length; i += OPEN_SLICE) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      for (const row of all.slice(i, i + OPEN_SLICE)) opened.push(ctx.ballotQueue.open([row], false));
    }
    const positionOf = (rows: Ballot[]) => rows[0]?.positionId ?? 0;
    const perPosition = new Map<number, number>();
    for (const rows of opened) perPosition.set(positionOf(rows), (perPosition.get(positionOf(rows)) ?? 0) + 1);
    const takes = (rows: Ballot[]) => closed || (perPosition.get(positionOf(rows)) ?? 0) >= ctx.env.MIX_MIN_BATCH;
    const chosen = all.filter((_, i) => takes(opened[i]!));
    if (chosen.length === 0) return { moved: 0 };
    const takenBallots = opened.filter(takes);
    const queued = takenBallots.flat();
    for (let i = 0; i < chosen.length; i += INSERT_SLICE) {
      await tx.execute(
        sql`delete from ballot_queue where id = any(${textArray(chosen.slice(i, i + INSERT_SLICE).map((r) => r.id))}::text[])`,
      );
    }
    // A forced pass may move fewer than MIX_MIN_BATCH of a position: padded, per position, with
    // published ballots of that position, deleted and written again within the batch.
    const moving = new Map<number, number>();
    for (const rows of takenBallots) moving.set(positionOf(rows), (moving.get(positionOf(rows)) ?? 0) + 1);
    const padding: Ballot[] = [];
    for (const [positionId, n] of moving) {
      const shortBy = ctx.env.MIX_MIN_BATCH - n;
      if (shortBy <= 0) continue;
      padding.push(
        ...(await tx
          .delete(ballots)
          .where(
            sql`${ballots.receipt} in (select receipt from (select distinct receipt from ballots where position_id = ${positionId}) r order by random() limit ${shortBy})`,
          )
          .returning({ receipt: ballots.receipt, positionId: ballots.positionId, candidateId: ballots.candidateId })),
      );
    }
    const batch = shuffle([...queued, ...padding]);
    // Rows go to the heap in the order inserted (unnest keeps the arrays' order): the shuffled
    // order, never the cast order.
    for (let i = 0; i < batch.length; i += INSERT_SLICE) {
      const slice = batch.slice(i, i + INSERT_SLICE);
      await tx.execute(sql`
        insert into ballots (receipt, position_id, candidate_id)
        select * from unnest(${textArray(slice.map((b) => b.receipt))}::text[], ${intArray(slice.map((b) => b.positionId))}::int[], ${intArray(slice.map((b) => b.candidateId))}::int[])`);
    }
    return { moved: takenBallots.length };
  });
}

/** The per-process mixing loop; answers a stop function that waits for a pass in progress. */
export function startMixer(ctx: AppContext): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = mixQueuedBallots(ctx)
      .then((r) => r.moved > 0 && ctx.logger.debug({ moved: r.moved }, 'mixed queued ballots'))
      .catch((err: unknown) => ctx.logger.error({ err }, 'mixing failed'))
      .finally(() => (running = undefined));
  };
  const timer = setInterval(tick, ctx.env.MIX_INTERVAL_MS);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}

/** The mixing loop as a service (`ctx.mixer`): started with the app, stopped at shutdown. */
export function createMixer(ctx: AppContext): Service {
  return loopService(() => startMixer(ctx));
}
