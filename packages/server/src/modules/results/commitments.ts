import { createHash } from 'node:crypto';
import type { Commitment } from '@kura/contract';
import { and, asc, desc, eq, lte } from 'drizzle-orm';
import type { Core } from '../../core';
import type { Db, Tx } from '../../db/client';
import { commitments } from '../../db/schema';
import { ballotSetInOrder } from '../../db/ballot-box';
import { lockCommitment, tryLockCommitment } from '../../db/locks';
import { eachPage } from '../../db/cursor';
import { createLoop, type Loop } from '../../lib/loop';
import { openElectionIds, type ElectionId } from '../../db/election-store';
import { inBoxSnapshot } from '../../lib/box-snapshot';

/**
 * A commitment to the ballot set: its size and a SHA-256 over every mixed ballot, one line
 * `receipt,position_id,candidate_id\n` per ballot row in receipt order (byte order, COLLATE "C"), then
 * candidate id (a ballot for several seats is a row per chosen candidate under one receipt). A row
 * of a ranked ballot adds its place in the voter's order: `receipt,position_id,candidate_id,rank\n`,
 * so a ranking whose order is altered no longer matches (the lines of every other ballot, rank 0,
 * are as they always were).
 * Anyone holding the ballots (an export, a backup) can recompute it; `audit:verify` does.
 * Queued ballots join the set once mixed, so they appear in a later commitment.
 */
export type BallotSetDigest = { count: number; hash: string };

/**
 * Ballots read, hashed and handed to `onBallot` per page (and per turn of the event loop): a close
 * digests its whole box twice (its final commitment, then the audit at close), 100,000 ballots and
 * more, in the process that serves the votes of every other open election (BENCHMARKS.md figure 9).
 */
const PAGE = 1000;

/**
 * Streams one election's `ballots` in receipt order through one cursor (one snapshot, one sort):
 * inside the caller's transaction, or in a transaction of its own when given the database.
 */
export async function digestBallots(
  db: Db | Tx,
  onBallot: ((b: { receipt: string; positionId: number; candidateId: number; rank: number }) => void) | undefined,
  electionId: ElectionId,
): Promise<BallotSetDigest> {
  if (!Number.isSafeInteger(electionId)) throw new Error(`not an election id: ${electionId}`);
  const hash = createHash('sha256');
  let n = 0;
  // The election's partition only (ADR 009): a close re-writing another election's never holds
  // this read (db/ballot-box.ts `ballotSetInOrder` names it by a literal id). A ballot for several
  // seats is a row per candidate under one receipt: ordered by both.
  const query = ballotSetInOrder(electionId);
  // On a transaction: a savepoint; on the database: a transaction for the cursor.
  // eslint-disable-next-line no-restricted-syntax -- a read cursor's savepoint in the caller's transaction (or its own read)
  await db.transaction((tx) =>
    eachPage<{ receipt: string; position_id: number; candidate_id: number; rank: number }>(tx, query, PAGE, (page) => {
      for (const row of page) {
        const b = {
          receipt: row.receipt,
          positionId: Number(row.position_id),
          candidateId: Number(row.candidate_id),
          rank: Number(row.rank),
        };
        hash.update(
          b.rank === 0 ? `${b.receipt},${b.positionId},${b.candidateId}\n` : `${b.receipt},${b.positionId},${b.candidateId},${b.rank}\n`,
        );
        onBallot?.(b);
      }
      n += page.length;
    }),
  );
  return { count: n, hash: hash.digest('hex') };
}

/**
 * Appends a commitment. `due` makes it conditional: only when the newest one is at least
 * COMMITMENT_INTERVAL_SECONDS old (periodic, several processes may try at once; the lock and the
 * re-check inside it record one). Answers the commitment, or null when none was due.
 */
export async function recordCommitment(
  ctx: Core,
  reason: string,
  options: { onlyIfDue?: boolean } = {},
  electionId: ElectionId,
): Promise<Commitment | null> {
  // One snapshot for all pages of the digest, taken after any close's re-mix of the box.
  return inBoxSnapshot(
    ctx,
    'Commitment recorded',
    electionId,
    async (tx) => {
      const now = ctx.now();
      if (!options.onlyIfDue) {
        await lockCommitment(tx, electionId);
      } else {
        // Another process recording one right now makes this one unnecessary.
        if (!(await tryLockCommitment(tx, electionId))) return null;
        const [latest] = await tx
          .select({ at: commitments.at })
          .from(commitments)
          .where(eq(commitments.electionId, electionId))
          .orderBy(desc(commitments.id))
          .limit(1);
        if (latest && now.getTime() - latest.at.getTime() < ctx.env.COMMITMENT_INTERVAL_SECONDS * 1000) return null;
      }
      const digest = await digestBallots(tx, undefined, electionId);
      const [row] = await tx
        .insert(commitments)
        .values({ electionId, at: now, count: digest.count, hash: digest.hash, reason })
        .returning();
      return { at: row!.at.toISOString(), count: row!.count, hash: row!.hash };
    },
    { write: true },
  );
}

/**
 * The final commitment of a close, inside the closing statements' transaction (the declaration
 * module's `finaliseElection`): its id, which the declaration and the election row are stored with.
 */
export async function insertFinalCommitment(tx: Tx, electionId: ElectionId, at: Date, digest: BallotSetDigest): Promise<number> {
  const [row] = await tx
    .insert(commitments)
    .values({ electionId, at, count: digest.count, hash: digest.hash, reason: 'final' })
    .returning({ id: commitments.id });
  return row!.id;
}

/** One commitment by its id (a close's final commitment), as stored. */
export async function commitmentById(db: Db | Tx, id: number): Promise<typeof commitments.$inferSelect | undefined> {
  const [row] = await db.select().from(commitments).where(eq(commitments.id, id));
  return row;
}

export async function listCommitments(ctx: Core, electionId: ElectionId): Promise<Commitment[]> {
  const rows = await ctx.database.db
    .select()
    .from(commitments)
    .where(eq(commitments.electionId, electionId))
    .orderBy(desc(commitments.id))
    .limit(10_000);
  return rows.map((r) => ({ at: r.at.toISOString(), count: r.count, hash: r.hash }));
}

/** The election's commitments as stored, oldest first (the audit checks that no count decreases). */
export async function commitmentHistory(db: Db | Tx, electionId: ElectionId): Promise<(typeof commitments.$inferSelect)[]> {
  return db.select().from(commitments).where(eq(commitments.electionId, electionId)).orderBy(asc(commitments.id));
}

/** The election's newest commitment as stored (undefined before the first). */
export async function newestCommitment(db: Db | Tx, electionId: ElectionId): Promise<typeof commitments.$inferSelect | undefined> {
  const [newest] = await db.select().from(commitments).where(eq(commitments.electionId, electionId)).orderBy(desc(commitments.id)).limit(1);
  return newest;
}

/** The election's commitments up to and including `lastId` (a close's final one), oldest first: time, count, hash, reason. */
export async function commitmentsUpTo(
  db: Db | Tx,
  electionId: ElectionId,
  lastId: number,
): Promise<{ at: Date; count: number; hash: string; reason: string }[]> {
  return db
    .select({ at: commitments.at, count: commitments.count, hash: commitments.hash, reason: commitments.reason })
    .from(commitments)
    .where(and(eq(commitments.electionId, electionId), lte(commitments.id, lastId)))
    .orderBy(asc(commitments.id));
}

/** How often the loop checks whether a periodic commitment is due. */
const CHECK_EVERY_MS = 5000;

/**
 * The commitment loop as a service (`ctx.commitments`): while voting is open, records a commitment
 * at least every COMMITMENT_INTERVAL_SECONDS. Started with the app, stopped at shutdown.
 */
export function createCommitmentLoop(ctx: Core): Loop {
  return createLoop({
    logger: ctx.logger,
    failure: 'periodic commitment failed',
    intervalMs: Math.min(CHECK_EVERY_MS, ctx.env.COMMITMENT_INTERVAL_SECONDS * 1000),
    runAtStart: false,
    run: async () => {
      // Every election whose voting is on.
      for (const id of await openElectionIds(ctx.database.db)) await recordCommitment(ctx, 'periodic', { onlyIfDue: true }, id);
    },
  });
}
