import type { Actor } from '../auth/actor';
import type { Core } from '../core';
import type { Tx } from '../db/client';
import { BUSY_MESSAGE, transientConflict } from '../db/errors';
import { AppError } from '../errors';
import { recordActivity } from './activity-log';

export type AuditedChange<T> = {
  actor: Actor;
  activity: string;
  /** Non-secret context for the log's `data` column; may depend on the outcome. */
  data?: string | ((result: T) => string);
};

/** What the work tells the log from inside its transaction. */
export type AuditNote = {
  /**
   * The row's `data` as the transaction read it (an election's name read under its lock, so as
   * the action found it): it replaces a string `data` in the success row and in front of a
   * refusal's reason (a `data` function still writes the success row).
   */
  data(text: string): void;
};

/** Runs of one transaction at most when Postgres aborts it for losing a race (40P01, 40001). */
export const TRANSACTION_ATTEMPTS = 3;

/**
 * One use case, one transaction, one log line: the success row is written inside the
 * transaction (so a rolled-back change leaves no "success"), a refusal or failure is written
 * after it, outside, so the attempt is still on record.
 *
 * On Postgres a transaction aborted by a deadlock or a serialization failure (concurrent admin
 * actions taking the same rows, branch key-share locks or ELECTION_LOCK in another order) is run
 * again from the start, up to TRANSACTION_ATTEMPTS runs, after a short jittered wait; still
 * aborted, the caller gets a 503 (BUSY_MESSAGE). So `work` must do nothing outside the database
 * before it returns (no events, mail or files that a re-run would repeat): those go after the
 * helper returns. PGlite runs one transaction at a time, so nothing there is run again.
 */
export async function auditedTransaction<T>(
  ctx: Core,
  change: AuditedChange<T>,
  work: (tx: Tx, note: AuditNote) => Promise<T>,
): Promise<T> {
  const { actor, activity } = change;
  const base = { name: actor.name, activity, userId: actor.id, userType: actor.role, ip: actor.ip };
  let noted: string | undefined;
  const note: AuditNote = { data: (text) => void (noted = text) };
  const attempts = ctx.database.kind === 'postgres' ? TRANSACTION_ATTEMPTS : 1;
  try {
    for (let attempt = 1; ; attempt++) {
      noted = undefined;
      try {
        return await ctx.database.db.transaction(async (tx) => {
          const result = await work(tx, note);
          const data = typeof change.data === 'function' ? change.data(result) : (noted ?? change.data);
          await recordActivity(ctx, { ...base, data, status: 'success' }, tx);
          return result;
        });
      } catch (error) {
        const code = transientConflict(error);
        if (code === undefined) throw error;
        // The code and the use case only: the error itself carries the statement and its parameters.
        if (attempt >= attempts) {
          ctx.logger.warn({ code, activity, attempts: attempt }, 'transaction conflict persisted; answered busy');
          throw new AppError('UNAVAILABLE', BUSY_MESSAGE, { retryAfter: 1 });
        }
        ctx.logger.warn({ code, activity, attempt }, 'transaction conflict; running it again');
        await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40 * attempt));
      }
    }
  } catch (error) {
    const refused = error instanceof AppError && error.status < 500;
    const prefix = noted ?? (typeof change.data === 'string' ? change.data : undefined);
    const reason = refused ? `${prefix !== undefined ? `${prefix}; ` : ''}${error.message}` : undefined;
    await recordActivity(ctx, { ...base, data: reason, status: refused && error.status === 403 ? 'denied' : 'failed' }).catch(
      (e: unknown) => ctx.logger.warn({ err: e }, 'could not record a failed change'),
    );
    throw error;
  }
}
