import { createHash } from 'node:crypto';
import type { Commitment } from '@kura/contract';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Core } from '../../core';
import type { Db, Tx } from '../../db/client';
import { ballots, commitments, positions } from '../../db/schema';
import { COMMITMENT_LOCK } from '../../db/locks';
import { createLoop, type Loop } from '../../lib/loop';
import { CURRENT_ELECTION, openElectionIds, type ElectionId } from '../../db/election-store';

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

const PAGE = 5000;

/**
 * Streams one election's `ballots` (those of its positions) in receipt order (keyset pages; call
 * inside one snapshot for a consistent set).
 */
export async function digestBallots(
  db: Db | Tx,
  onBallot?: (b: { receipt: string; positionId: number; candidateId: number; rank: number }) => void,
  electionId: ElectionId = CURRENT_ELECTION,
): Promise<BallotSetDigest> {
  const own = sql`${ballots.positionId} in (select ${positions.id} from ${positions} where ${positions.electionId} = ${electionId})`;
  const hash = createHash('sha256');
  let n = 0;
  let after: { receipt: string; candidateId: number } | null = null;
  for (;;) {
    // A ballot for several seats is a row per candidate under one receipt: ordered by both.
    const page: { receipt: string; positionId: number; candidateId: number; rank: number }[] = await db
      .select({ receipt: ballots.receipt, positionId: ballots.positionId, candidateId: ballots.candidateId, rank: ballots.rank })
      .from(ballots)
      .where(
        and(
          own,
          after === null
            ? undefined
            : sql`(${ballots.receipt} collate "C" > ${after.receipt} or (${ballots.receipt} = ${after.receipt} and ${ballots.candidateId} > ${after.candidateId}))`,
        ),
      )
      .orderBy(sql`${ballots.receipt} collate "C"`, ballots.candidateId)
      .limit(PAGE);
    for (const b of page) {
      hash.update(
        b.rank === 0 ? `${b.receipt},${b.positionId},${b.candidateId}\n` : `${b.receipt},${b.positionId},${b.candidateId},${b.rank}\n`,
      );
      onBallot?.(b);
    }
    n += page.length;
    if (page.length < PAGE) break;
    const last = page[page.length - 1]!;
    after = { receipt: last.receipt, candidateId: last.candidateId };
  }
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
  electionId: ElectionId = CURRENT_ELECTION,
): Promise<Commitment | null> {
  return ctx.database.db.transaction(
    async (tx) => {
      const now = ctx.now();
      if (!options.onlyIfDue) {
        await tx.execute(sql`select pg_advisory_xact_lock(${COMMITMENT_LOCK})`);
      } else {
        // Another process recording one right now makes this one unnecessary.
        const [lock] = await tx.execute<{ ok: boolean }>(sql`select pg_try_advisory_xact_lock(${COMMITMENT_LOCK}) as ok`);
        if (!lock?.ok) return null;
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
    // One snapshot for all pages of the digest.
    { isolationLevel: 'repeatable read' },
  );
}

export async function listCommitments(ctx: Core, electionId: ElectionId = CURRENT_ELECTION): Promise<Commitment[]> {
  const rows = await ctx.database.db
    .select()
    .from(commitments)
    .where(eq(commitments.electionId, electionId))
    .orderBy(desc(commitments.id))
    .limit(10_000);
  return rows.map((r) => ({ at: r.at.toISOString(), count: r.count, hash: r.hash }));
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
