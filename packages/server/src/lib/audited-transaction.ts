import type { Actor } from '../auth/actor';
import type { Core } from '../core';
import type { Tx } from '../db/client';
import { refusalOf } from '../errors';
import { recordActivity } from './activity-log';
import { inTransaction, type UnitOfWork } from './unit-of-work';

export type AuditedChange<T> = {
  actor: Actor;
  activity: string;
  /** Non-secret context for the log's `data` column; may depend on the outcome. */
  data?: string | ((result: T) => string);
};

/** What the work tells the log from inside its transaction, and the effects it queues for after the commit. */
export type AuditNote = UnitOfWork & {
  /**
   * The row's `data` as the transaction read it (an election's name read under its lock, so as
   * the action found it): it replaces a string `data` in the success row and in front of a
   * refusal's reason (a `data` function still writes the success row).
   */
  data(text: string): void;
};

/**
 * One use case, one transaction, one log line: the success row is written inside the
 * transaction (so a rolled-back change leaves no "success"), a refusal or failure is written
 * after it, outside, so the attempt is still on record. The transaction is the unit of work's
 * (inTransaction): run again after a lost race, its effects queued with `note.afterCommit` and
 * run only once it committed.
 */
export async function auditedTransaction<T>(
  ctx: Core,
  change: AuditedChange<T>,
  work: (tx: Tx, note: AuditNote) => Promise<T>,
): Promise<T> {
  const { actor, activity } = change;
  const base = { name: actor.name, activity, userId: actor.id, userType: actor.role, ip: actor.ip };
  let noted: string | undefined;
  try {
    return await inTransaction(ctx, activity, async (tx, unit) => {
      noted = undefined;
      const note: AuditNote = { data: (text) => void (noted = text), afterCommit: (effect) => unit.afterCommit(effect) };
      const result = await work(tx, note);
      const data = typeof change.data === 'function' ? change.data(result) : (noted ?? change.data);
      await recordActivity(ctx, { ...base, data, status: 'success' }, tx);
      return result;
    });
  } catch (error) {
    const refusal = refusalOf(error);
    const refused = refusal !== undefined && refusal.status < 500 ? refusal : undefined;
    const prefix = noted ?? (typeof change.data === 'string' ? change.data : undefined);
    const reason = refused ? `${prefix !== undefined ? `${prefix}; ` : ''}${refused.message}` : undefined;
    await recordActivity(ctx, { ...base, data: reason, status: refused?.status === 403 ? 'denied' : 'failed' }).catch((e: unknown) =>
      ctx.logger.warn({ err: e }, 'could not record a failed change'),
    );
    throw error;
  }
}
