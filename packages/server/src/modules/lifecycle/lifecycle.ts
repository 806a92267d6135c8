import type { BallotsContext } from '../ballots';
import type { Core } from '../../core';
import { AppError } from '../../errors';
import type { MessageId } from '../../i18n';
import { recordActivity } from '../../lib/activity-log';
import type { Actor } from '../../auth/actor';
import { auditedTransaction, type AuditNote } from '../../lib/audited-transaction';
import { inTransaction } from '../../lib/unit-of-work';
import type { Tx } from '../../db/client';
import { createLoop } from '../../lib/loop';
import type { Service } from '../../lib/service';
import { lockElection } from '../../db/locks';
import { undecidedNominations } from '../../db/nomination-store';
import {
  electionSubject,
  lockForShare,
  type ElectionId,
  markClosed,
  nameElection,
  scheduledElectionIds,
  openIfDue,
  readState,
} from '../../db/election-store';
import { finaliseElection, SCHEDULE_ACTOR } from '../declaration';
import { recordCommitment } from '../results';
import { freezeDue } from '../register';

/**
 * Opens voting when `opens_at` has come, once per opening time: the conditional UPDATE records
 * which `opens_at` it acted on, so of several processes (or a restarted one) exactly one opens, and
 * a pause the admin makes afterwards is not undone. Answers whether this call opened it.
 */
export async function openOnSchedule(ctx: Core, id: ElectionId): Promise<boolean> {
  const now = ctx.now();
  const held = new Error('undecided nominations');
  const opened = await inTransaction(ctx, 'Voting opened on schedule', async (tx, unit) => {
    // Exclusive, like a toggle: votes in flight commit wholly before the switch.
    await lockElection(tx, id);
    if (!(await openIfDue(tx, now, id))) return false;
    // Not over undecided nominations (docs/api.md "Nominations"): rolled back, it opens on a later tick once they are decided.
    const undecided = await undecidedNominations(tx, id);
    if (undecided.length > 0) {
      ctx.logger.warn({ electionId: id, nominations: undecided.map((n) => n.id) }, 'scheduled opening waits for undecided nominations');
      throw held;
    }
    await recordActivity(
      ctx,
      { name: SCHEDULE_ACTOR.name, activity: 'Voting opened on schedule', data: await electionSubject(tx, id), status: 'success' },
      tx,
    );
    unit.afterCommit(async () => {
      await recordCommitment(ctx, 'voting opened on schedule', {}, id).catch((err: unknown) =>
        ctx.logger.error({ err }, 'commitment at the scheduled opening failed'),
      );
      ctx.events.emit('election.toggled', { active: true, electionId: id });
      ctx.events.emit('election.changed');
    });
    return true;
  }).catch((error: unknown) => {
    if (error === held) return false;
    throw error;
  });
  return opened;
}

/**
 * Closes the election for good (`POST election/close`, or the schedule at `closes_at`): voting off,
 * `closed_at` set, once (a conditional UPDATE), then `finaliseElection`. A second close is a 409
 * for an admin and nothing for the schedule.
 */
export async function closeElection(ctx: BallotsContext, actor: Actor, by: 'admin' | 'schedule', id: ElectionId): Promise<boolean> {
  const now = ctx.now();
  const work = async (tx: Tx, note: Pick<AuditNote, 'afterCommit'> & Partial<Pick<AuditNote, 'data'>>) => {
    // This election's lock exclusively (its votes in flight commit first; another election's
    // votes go on), the installation's shared (a change spanning elections waits for the close).
    await lockElection(tx, id);
    // Under the lock: the log names the election as the close found it.
    const subject = await electionSubject(tx, id);
    note.data?.(subject);
    if (!(await markClosed(tx, now, { dueOnly: by === 'schedule' }, id))) {
      if (by === 'admin') throw AppError.say('CONFLICT', 'error.alreadyClosed');
      return false;
    }
    if (by === 'schedule')
      await recordActivity(
        ctx,
        { name: actor.name, activity: 'Closed the election', data: `${subject}; on schedule`, status: 'success' },
        tx,
      );
    note.afterCommit(() => {
      ctx.events.emit('election.toggled', { active: false, electionId: id });
      ctx.events.emit('election.changed');
    });
    return true;
  };
  const closed =
    by === 'admin'
      ? await auditedTransaction(ctx, { actor, activity: 'Closed the election', data: nameElection(id, null) }, work)
      : await inTransaction(ctx, 'Closed the election', work);
  if (!closed) return false;
  // The close stands whatever happens next; a closing statement that fails here is finished by
  // the scheduler's next round (or the first read of the final result).
  await finaliseElection(ctx, id).catch((err: unknown) => ctx.logger.error({ err }, 'closing statements failed; the scheduler retries'));
  return true;
}

/** Refuses changes once the election is closed (toggle, set-up). */
/** Whether the election is closed (for good: a closed election never reopens). */
export async function isClosed(ctx: Core, id: ElectionId): Promise<boolean> {
  return (await readState(ctx.database.db, id)).closedAt !== null;
}

/** What a closed election's refusal names (docs/api.md's wording): each a message of its own. */
export type ClosedPart = 'its candidates' | 'the set-up' | 'reminders' | 'this';
const CLOSED_MESSAGE = {
  'its candidates': 'error.closed.candidates',
  'the set-up': 'error.closed.setup',
  reminders: 'error.closed.reminders',
  this: 'error.closed.this',
} as const satisfies Record<ClosedPart, MessageId>;
const closedError = (what: ClosedPart) => AppError.say('CONFLICT', CLOSED_MESSAGE[what]);

export async function assertNotClosed(ctx: Core, what: ClosedPart, id: ElectionId): Promise<void> {
  if (await isClosed(ctx, id)) throw closedError(what);
}

/**
 * `assertNotClosed` inside the change's transaction, judged on the election as its lock finds it:
 * the row share-locked (`lockForShare`), so a close that commits while the change waits is seen
 * and a later one waits for the change. Take it after the election lock, if the change takes that
 * (the order a close takes them).
 */
export async function assertNotClosedIn(tx: Tx, what: ClosedPart, id: ElectionId): Promise<void> {
  if ((await lockForShare(tx, id))?.closedAt) throw closedError(what);
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
    // Registers that closed freeze their rolls first (docs/api.md "The register": whichever comes first).
    await freezeDue(ctx);
    for (const id of await scheduledElectionIds(ctx.database.db)) await tickOne(id);
  };
  const nextDelay = async () => {
    const rows = await Promise.all((await scheduledElectionIds(ctx.database.db)).map((id) => readState(ctx.database.db, id)));
    const now = ctx.now().getTime();
    const due = rows
      .flatMap((row) => [row.opensAt, row.closesAt, row.rollFrozenAt ? null : row.registerClosesAt])
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
