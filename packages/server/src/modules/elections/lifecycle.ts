import type { ElectionsContext } from './context';
import type { BallotsContext } from '../ballots';
import type { AuditOutcome, BranchTurnout, Commitment, FinalResultsResponse } from '@kura/contract';
import { declareSeats } from '@kura/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Core } from '../../core';
import { commitments, positions } from '../../db/schema';
import { AppError } from '../../errors';
import { recordActivity } from '../../lib/activity-log';
import type { Actor } from '../../auth/actor';
import { auditedTransaction, type AuditNote } from '../../lib/audited-transaction';
import type { Tx } from '../../db/client';
import { createLoop } from '../../lib/loop';
import { positionTitle } from '../../lib/position-title';
import type { Service } from '../../lib/service';
import { remixAtCloseIn } from '../ballots';
import { ELECTION_LOCK, FINALISE_LOCK } from '../../db/locks';
import { verifyAudit } from './audit';
import { digestBallots, recordCommitment } from './commitments';
import {
  CURRENT_ELECTION,
  electionSubject,
  lockForShare,
  type ElectionId,
  markClosed,
  nameElection,
  scheduledElectionIds,
  openIfDue,
  readState,
  setFinalCommitment,
  storeAudit,
  type ElectionRecord,
} from '../../db/election-store';
import { getResults } from './elections.service';
import { motionResult, rankedBlt, rankedResult } from './final-count';

const iso = (d: Date) => d.toISOString();

/** The scheduler and the system close act as this actor in the activity log. */
export const SCHEDULE_ACTOR: Actor = { role: 'admin', id: null, name: 'Schedule', ip: '' };

/**
 * Opens voting when `opens_at` has come, once per opening time: the conditional UPDATE records
 * which `opens_at` it acted on, so of several processes (or a restarted one) exactly one opens, and
 * a pause the admin makes afterwards is not undone. Answers whether this call opened it.
 */
export async function openOnSchedule(ctx: Core, id: ElectionId = CURRENT_ELECTION): Promise<boolean> {
  const now = ctx.now();
  const opened = await ctx.database.db.transaction(async (tx) => {
    // Exclusive, like a toggle: votes in flight commit wholly before the switch.
    await tx.execute(sql`select pg_advisory_xact_lock(${ELECTION_LOCK})`);
    if (!(await openIfDue(tx, now, id))) return false;
    await recordActivity(
      ctx,
      { name: SCHEDULE_ACTOR.name, activity: 'Voting opened on schedule', data: await electionSubject(tx, id), status: 'success' },
      tx,
    );
    return true;
  });
  if (!opened) return false;
  await recordCommitment(ctx, 'voting opened on schedule', {}, id).catch((err: unknown) =>
    ctx.logger.error({ err }, 'commitment at the scheduled opening failed'),
  );
  ctx.events.emit('election.toggled', { active: true, electionId: id });
  ctx.events.emit('election.changed');
  return true;
}

/**
 * Closes the election for good (`POST election/close`, or the schedule at `closes_at`): voting off,
 * `closed_at` set, once (a conditional UPDATE), then `finaliseElection`. A second close is a 409
 * for an admin and nothing for the schedule.
 */
export async function closeElection(
  ctx: BallotsContext,
  actor: Actor,
  by: 'admin' | 'schedule',
  id: ElectionId = CURRENT_ELECTION,
): Promise<boolean> {
  const now = ctx.now();
  const work = async (tx: Tx, note?: AuditNote) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ELECTION_LOCK})`);
    // Under the lock: the log names the election as the close found it.
    const subject = await electionSubject(tx, id);
    note?.data(subject);
    if (!(await markClosed(tx, now, { dueOnly: by === 'schedule' }, id))) {
      if (by === 'admin') throw new AppError('CONFLICT', 'The election is already closed');
      return false;
    }
    if (by === 'schedule')
      await recordActivity(
        ctx,
        { name: actor.name, activity: 'Closed the election', data: `${subject}; on schedule`, status: 'success' },
        tx,
      );
    return true;
  };
  const closed =
    by === 'admin'
      ? await auditedTransaction(ctx, { actor, activity: 'Closed the election', data: nameElection(id, null) }, work)
      : await ctx.database.db.transaction((tx) => work(tx));
  if (!closed) return false;
  ctx.events.emit('election.toggled', { active: false, electionId: id });
  ctx.events.emit('election.changed');
  // The close stands whatever happens next; a closing statement that fails here is finished by
  // the scheduler's next round (or the first read of the final result).
  await finaliseElection(ctx, id).catch((err: unknown) => ctx.logger.error({ err }, 'closing statements failed; the scheduler retries'));
  return true;
}

/**
 * The closing statements, each once and each resumable after a crash: the queue published into
 * `ballots` with the whole ballot box re-mixed (`remixAtClose`: the last partial batch is not
 * separable from the rest), the final commitment (recorded in the same transaction that stores its id, under a
 * lock, so never twice), and `audit:verify` with its outcome stored on the election.
 */
export async function finaliseElection(ctx: BallotsContext, id: ElectionId = CURRENT_ELECTION): Promise<void> {
  const state = await readState(ctx.database.db, id);
  if (!state.closedAt) return;
  if (state.finalCommitmentId === null) {
    // Read committed on purpose: each statement sees what committed before it, so the re-check after
    // the lock sees another process's final commitment (a repeatable-read snapshot would be taken
    // before the lock wait). The re-mix and the final commitment commit together: a second closer
    // finds the commitment and leaves the box alone. The ballot set no longer moves: voting is off.
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${FINALISE_LOCK})`);
      if ((await readState(tx, id)).finalCommitmentId !== null) return;
      await remixAtCloseIn(ctx, tx, id);
      const digest = await digestBallots(tx, undefined, id);
      const [row] = await tx
        .insert(commitments)
        .values({ electionId: id, at: ctx.now(), count: digest.count, hash: digest.hash, reason: 'final' })
        .returning({ id: commitments.id });
      await setFinalCommitment(tx, row!.id, id);
    });
  }
  if (!state.audit) {
    const report = await verifyAudit(ctx, id);
    const audit: AuditOutcome = { ok: report.ok, problems: report.problems.slice(0, 50), at: iso(ctx.now()) };
    // Two processes may both run the audit; the first to store it records it.
    const stored = await ctx.database.db.transaction(async (tx) => {
      if (!(await storeAudit(tx, audit, id))) return false;
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
      return true;
    });
    if (stored) ctx.events.emit('election.changed');
  }
}

/** Refuses changes once the election is closed (toggle, set-up). */
/** Whether the election is closed (for good: a closed election never reopens). */
export async function isClosed(ctx: Core, id: ElectionId = CURRENT_ELECTION): Promise<boolean> {
  return (await readState(ctx.database.db, id)).closedAt !== null;
}

export async function assertNotClosed(ctx: Core, what = 'this', id: ElectionId = CURRENT_ELECTION): Promise<void> {
  if (await isClosed(ctx, id)) throw new AppError('CONFLICT', `The election is closed; ${what} can no longer change`);
}

/**
 * `assertNotClosed` inside the change's transaction, judged on the election as its lock finds it:
 * the row share-locked (`lockForShare`), so a close that commits while the change waits is seen
 * and a later one waits for the change. Take it after the election lock, if the change takes that
 * (the order a close takes them).
 */
export async function assertNotClosedIn(tx: Tx, what: string, id: ElectionId): Promise<void> {
  if ((await lockForShare(tx, id))?.closedAt) throw new AppError('CONFLICT', `The election is closed; ${what} can no longer change`);
}

/** `GET psk/results/final`: the declared result, public once closed (403 before). */
export async function getFinalResults(ctx: ElectionsContext, id: ElectionId = CURRENT_ELECTION): Promise<FinalResultsResponse> {
  const row = await readState(ctx.database.db, id);
  if (!row.closedAt) throw new AppError('FORBIDDEN', 'The result is declared when the election closes');
  if (row.finalCommitmentId === null) {
    // Closed but the closing statements did not finish (a crash): finish them now.
    await finaliseElection(ctx, id);
    return getFinalResults(ctx, id);
  }
  const { finalCommitmentId, closedAt } = row;
  return ctx.voting.declared(finalCommitmentId, () => declare(ctx, id, { ...row, finalCommitmentId, closedAt }));
}

/**
 * The declaration, counted once per close (`ctx.voting.declared` keeps it): from the ballot box,
 * so the live snapshot is first rebuilt from the database, which after close holds every ballot.
 */
async function declare(
  ctx: ElectionsContext,
  id: ElectionId,
  row: ElectionRecord & { finalCommitmentId: number; closedAt: Date },
): Promise<FinalResultsResponse> {
  await ctx.voting.tallyOf(id).resync();
  const [final] = await ctx.database.db.select().from(commitments).where(eq(commitments.id, row.finalCommitmentId));
  const commitment: Commitment = { at: iso(final!.at), count: final!.count, hash: final!.hash };
  const byId = new Map((await ctx.database.db.select().from(positions).where(eq(positions.electionId, id))).map((p) => [p.id, p]));
  const groups = await getResults(ctx, id);
  const data: FinalResultsResponse['data'] = [];
  for (const g of groups) {
    const p = byId.get(g.position_id);
    const n = p?.seats ?? 1;
    if (p?.kind === 'motion') data.push(await motionResult(ctx.database.db, g, p));
    else if (p?.method === 'ranked') data.push(await rankedResult(ctx.database.db, { id: p.id, title: g.title, seats: n }, final!.hash));
    else if (p?.method === 'approval')
      data.push({
        position_id: g.position_id,
        kind: 'candidates',
        method: 'approval',
        title: g.title,
        seats: n,
        total: g.total,
        values: declareSeats(g.values, n),
      });
    else data.push({ position_id: g.position_id, title: g.title, seats: n, total: g.total, values: declareSeats(g.values, n) });
    // docs/i18n.md "Ballot content": the title in the languages its name is translated into.
    if (g.translations) data[data.length - 1]!.translations = g.translations;
  }
  const branches = await ctx.database.db.execute<{ branch: string; members: number; voted: number }>(sql`
    select b.name as branch, count(m.id)::int as members,
           count(m.id) filter (where exists (select 1 from participation p join positions ps on ps.id = p.position_id
                                             where p.member_id = m.id and ps.election_id = ${id}))::int as voted
    from branches b left join members m on m.branch_id = b.id
    group by b.id, b.name having count(m.id) > 0 order by b.name`);
  const turnoutBranches: BranchTurnout[] = branches.map((b) => ({ branch: b.branch, members: b.members, voted: b.voted }));
  return {
    data,
    turnout: {
      members: turnoutBranches.reduce((n, b) => n + b.members, 0),
      voted: turnoutBranches.reduce((n, b) => n + b.voted, 0),
      branches: turnoutBranches,
    },
    commitment,
    closed_at: iso(row.closedAt),
    audit: (row.audit as AuditOutcome | null) ?? null,
  };
}

/**
 * `GET psk/results/ballots`: a ranked position's ballots as a BLT file once the election closed
 * (403 before, like the final result; 404 for any other position).
 */
export async function getRankedBallots(
  ctx: ElectionsContext,
  positionId: number,
  id: ElectionId = CURRENT_ELECTION,
): Promise<{ filename: string; blt: string }> {
  const row = await readState(ctx.database.db, id);
  if (!row.closedAt) throw new AppError('FORBIDDEN', 'The result is declared when the election closes');
  // Closed but the closing statements did not finish: the queue is published first.
  if (row.finalCommitmentId === null) await finaliseElection(ctx, id);
  const [p] = await ctx.database.db
    .select()
    .from(positions)
    .where(and(eq(positions.id, positionId), eq(positions.electionId, id)));
  if (!p || p.kind !== 'candidates' || p.method !== 'ranked') throw new AppError('NOT_FOUND', 'No ranked position has this id');
  const blt = await rankedBlt(ctx.database.db, { id: p.id, title: positionTitle(p), seats: p.seats });
  return { filename: `position-${p.id}.blt`, blt };
}

/** How long the scheduler sleeps at most between looks (a schedule changed by another process). */
const SCHEDULER_MAX_SLEEP_MS = 5000;

/**
 * The schedule (`ctx.scheduler`), per process: once started, wakes at `opens_at` and `closes_at`
 * (and every few seconds, and at once when the election changes here) and applies the schedule. The database decides: the conditional UPDATEs
 * make each opening and the close happen once across processes and restarts.
 */
export type Scheduler = Service & {
  /** One round now, after any round in progress (tests drive it with a moved clock). */
  tick(): Promise<void>;
};

export function createScheduler(ctx: BallotsContext): Scheduler {
  /** One election's schedule. */
  const tickOne = async (id: ElectionId) => {
    const now = ctx.now();
    const row = await readState(ctx.database.db, id);
    if (row.closedAt) {
      if (row.finalCommitmentId === null || !row.audit) await finaliseElection(ctx, id);
      return;
    }
    if (row.closesAt && row.closesAt <= now) {
      await closeElection(ctx, SCHEDULE_ACTOR, 'schedule', id);
      return;
    }
    if (row.opensAt && row.opensAt <= now && row.scheduledOpenFor?.getTime() !== row.opensAt.getTime()) await openOnSchedule(ctx, id);
  };
  // Every election that is not archived (an archived one is closed and finalised).
  const tick = async () => {
    for (const id of await scheduledElectionIds(ctx.database.db)) await tickOne(id);
  };
  const nextDelay = async () => {
    const rows = await Promise.all((await scheduledElectionIds(ctx.database.db)).map((id) => readState(ctx.database.db, id)));
    const now = ctx.now().getTime();
    const due = rows
      .flatMap((row) => [row.opensAt, row.closesAt])
      .filter((d): d is Date => Boolean(d))
      .map((d) => d.getTime() - now)
      .filter((ms) => ms > 0);
    return Math.min(SCHEDULER_MAX_SLEEP_MS, ...due.map((ms) => ms + 5));
  };
  const loop = createLoop({
    logger: ctx.logger,
    failure: 'scheduler round failed',
    intervalMs: SCHEDULER_MAX_SLEEP_MS,
    // An opening or closing time that passed while no process ran is applied at start.
    runAtStart: true,
    run: async () => {
      await tick();
      return nextDelay();
    },
    wakeOn: (wake) => ctx.events.subscribe({ 'election.changed': wake }),
  });
  return { start: loop.start, stop: loop.stop, tick: loop.runNow };
}
