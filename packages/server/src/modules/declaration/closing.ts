import type { BallotsContext } from '../ballots';
import type { AuditOutcome, Commitment, FinalResultsResponse } from '@kura/contract';
import { eq } from 'drizzle-orm';
import { declarations } from '../../db/schema';
import { positionRowIn } from '../../db/position-store';
import { AppError } from '../../errors';
import { recordActivity } from '../../lib/activity-log';
import type { Actor } from '../../auth/actor';
import { inTransaction } from '../../lib/unit-of-work';
import { positionTitle } from '../../lib/position-title';
import { electionFileName } from '../../lib/file-name';
import { fileUnsortedQueue, remixAtCloseIn } from '../ballots';
import { lockFinalise } from '../../db/locks';
import { verifyAudit } from './audit';
import {
  commitmentById,
  countDeclaration,
  digestBallots,
  insertFinalCommitment,
  rankedBlt,
  type Declaration,
  type ResultsContext,
} from '../results';
import { electionSubject, type ElectionId, readState, setFinalCommitment, storeAudit } from '../../db/election-store';

const iso = (d: Date) => d.toISOString();

/** The scheduler and the system close act as this actor in the activity log. */
export const SCHEDULE_ACTOR: Actor = { role: 'admin', id: null, name: 'Schedule', ip: '' };

/**
 * The closing statements, each once and each resumable after a crash: the queue published into
 * `ballots` with the election's whole ballot box re-mixed (`remixAtClose`: the last partial batch is not
 * separable from the rest), the final commitment with the declaration counted from that box and
 * the frozen roll (recorded in the same transaction that stores its id, under a lock, so never
 * twice), and `audit:verify` with its outcome stored on the election.
 */
export async function finaliseElection(ctx: BallotsContext, id: ElectionId): Promise<void> {
  const state = await readState(ctx.database.db, id);
  if (!state.closedAt) return;
  if (state.finalCommitmentId === null) {
    // Read committed on purpose: each statement sees what committed before it, so the re-check after
    // the lock sees another process's final commitment (a repeatable-read snapshot would be taken
    // before the lock wait). The re-mix and the final commitment commit together: a second closer
    // finds the commitment and leaves the box alone. The ballot set no longer moves: voting is off.
    // Per election (ADR 009): another election's close runs alongside, and this one touches only
    // this election's partitions. Rows queued before the partitioning are filed first.
    await fileUnsortedQueue(ctx);
    await inTransaction(ctx, 'Closing statements', async (tx) => {
      await lockFinalise(tx, id);
      if ((await readState(tx, id)).finalCommitmentId !== null) return;
      await remixAtCloseIn(ctx, tx, id);
      const digest = await digestBallots(tx, undefined, id);
      const commitmentId = await insertFinalCommitment(tx, id, ctx.now(), digest);
      // The declaration, counted here once from the box this commitment commits to and stored with
      // it: every process serves it from there (docs/architecture.md "The declaration").
      const declaration = await countDeclaration(tx, id, digest.hash);
      await tx.insert(declarations).values({ commitmentId, electionId: id, declaration });
      await setFinalCommitment(tx, commitmentId, id);
    });
  }
  if (!state.audit) {
    const report = await verifyAudit(ctx, id);
    const audit: AuditOutcome = { ok: report.ok, problems: report.problems.slice(0, 50), at: iso(ctx.now()) };
    // Two processes may both run the audit; the first to store it records it.
    await inTransaction(ctx, 'Audit at close', async (tx, unit) => {
      if (!(await storeAudit(tx, audit, id))) return;
      await recordActivity(
        ctx,
        {
          name: SCHEDULE_ACTOR.name,
          activity: 'Audit at close',
          data: `${await electionSubject(tx, id)}; ${report.ok ? 'passed' : `${report.problems.length} problem(s)`}`,
          status: report.ok ? 'success' : 'failed',
        },
        tx,
      );
      unit.afterCommit(() => ctx.events.emit('election.changed'));
    });
  }
}

/**
 * `GET psk/results/final`: the declared result, public once closed (403 before): the declaration
 * stored by the close, with its final commitment, `closed_at` and the audit at close. Never counted
 * again: a member imported or moved, a restart or another process serves the same.
 */
export async function getFinalResults(ctx: ResultsContext, id: ElectionId): Promise<FinalResultsResponse> {
  const row = await readState(ctx.database.db, id);
  if (!row.closedAt) throw AppError.say('FORBIDDEN', 'results.declaredAtClose');
  if (row.finalCommitmentId === null) {
    // Closed but the closing statements did not finish (a crash): finish them now.
    await finaliseElection(ctx, id);
    return getFinalResults(ctx, id);
  }
  const { finalCommitmentId } = row;
  const stored = await ctx.voting.declared(finalCommitmentId, () => storedDeclaration(ctx, id, finalCommitmentId));
  return {
    data: stored.data,
    turnout: stored.turnout,
    commitment: stored.commitment,
    closed_at: iso(row.closedAt),
    audit: (row.audit as AuditOutcome | null) ?? null,
    roll_hash: row.rollFrozenAt ? row.rollHash : null,
  };
}

/**
 * The declaration stored with the final commitment, and that commitment. A close finalised before
 * the declaration was stored with it (an upgraded installation) has none: it is counted once now,
 * from the box and the frozen roll, and stored (the first of several processes to store it wins;
 * the rest serve what it stored).
 */
async function storedDeclaration(
  ctx: ResultsContext,
  id: ElectionId,
  finalCommitmentId: number,
): Promise<Declaration & { commitment: Commitment }> {
  const { db } = ctx.database;
  const read = () => db.select().from(declarations).where(eq(declarations.commitmentId, finalCommitmentId));
  const final = await commitmentById(db, finalCommitmentId);
  if (!final) throw new Error(`final commitment ${finalCommitmentId} of election ${id} is missing`);
  const commitment: Commitment = { at: iso(final.at), count: final.count, hash: final.hash };
  let [stored] = await read();
  if (!stored) {
    const declaration = await countDeclaration(db, id, final.hash);
    await db.insert(declarations).values({ commitmentId: finalCommitmentId, electionId: id, declaration }).onConflictDoNothing();
    [stored] = await read();
  }
  return { ...(stored!.declaration as Declaration), commitment };
}

/**
 * `GET psk/results/ballots`: a ranked position's ballots as a BLT file once the election closed
 * (403 before, like the final result; 404 for any other position).
 */
export async function getRankedBallots(
  ctx: ResultsContext,
  positionId: number,
  id: ElectionId,
): Promise<{ filename: string; blt: string }> {
  const row = await readState(ctx.database.db, id);
  if (!row.closedAt) throw AppError.say('FORBIDDEN', 'results.declaredAtClose');
  // Closed but the closing statements did not finish: the queue is published first.
  if (row.finalCommitmentId === null) await finaliseElection(ctx, id);
  const p = await positionRowIn(ctx.database.db, positionId, id);
  if (!p || p.kind !== 'candidates' || p.method !== 'ranked') throw AppError.say('NOT_FOUND', 'results.noRankedPosition');
  const blt = await rankedBlt(ctx.database.db, { id: p.id, electionId: id, title: positionTitle(p), seats: p.seats });
  return { filename: electionFileName({ id, title: row.title }, positionTitle(p), 'blt'), blt };
}
