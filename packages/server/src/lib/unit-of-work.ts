import type { Core } from '../core';
import type { Tx } from '../db/client';
import { transientConflict } from '../db/errors';
import { AppError } from '../errors';

/** Something done outside the database because a change happened: a domain event, a notice, a realtime push. */
export type Effect = () => unknown;

/** What a write asks of its transaction besides the database (docs/architecture.md "One unit of work"). */
export type UnitOfWork = {
  /**
   * Queues `effect` to run once the transaction has committed, in the order queued. A rollback
   * drops it, and so does an attempt run again after a conflict: only the committed attempt's
   * effects run, each once. Asked after the transaction ended, it throws.
   */
  afterCommit(effect: Effect): void;
};

/** Runs of one transaction at most when Postgres aborts it for losing a race (40P01, 40001). */
export const TRANSACTION_ATTEMPTS = 3;

/** A transaction's settings (a read in one snapshot, a repeatable-read write). */
export type TransactionConfig = {
  isolationLevel?: 'read committed' | 'repeatable read' | 'serializable';
  accessMode?: 'read only' | 'read write';
};

type Deps = Pick<Core, 'database' | 'logger'>;

/**
 * Every write's one way into the database: one transaction, run again from the start (up to
 * TRANSACTION_ATTEMPTS runs, after a short jittered wait) when Postgres aborts it for a deadlock
 * or a serialization failure, and still aborted, a 503 ('error.busy'). Whatever must happen
 * outside the database is queued with `unit.afterCommit` and runs after the commit, so a re-run
 * repeats nothing and a rollback announces nothing. `work` keeps no state outside its
 * transaction but what it queues (a re-run starts from nothing). PGlite runs one transaction at a
 * time, so nothing there is run again. `label` names the use case in the logs.
 */
export async function inTransaction<T>(
  ctx: Deps,
  label: string,
  work: (tx: Tx, unit: UnitOfWork) => Promise<T>,
  config?: TransactionConfig,
): Promise<T> {
  const attempts = ctx.database.kind === 'postgres' ? TRANSACTION_ATTEMPTS : 1;
  for (let attempt = 1; ; attempt++) {
    const effects: Effect[] = [];
    let open = true;
    const unit: UnitOfWork = {
      afterCommit(effect) {
        if (!open) throw new Error(`${label}: afterCommit asked after its transaction ended`);
        effects.push(effect);
      },
    };
    let result: T;
    try {
      // eslint-disable-next-line no-restricted-syntax -- the one place a transaction is opened
      result = await ctx.database.db.transaction((tx) => work(tx, unit), config);
    } catch (error) {
      open = false;
      const code = transientConflict(error);
      if (code === undefined) throw error;
      // The code and the use case only: the error itself carries the statement and its parameters.
      if (attempt >= attempts) {
        ctx.logger.warn({ code, activity: label, attempts: attempt }, 'transaction conflict persisted; answered busy');
        throw AppError.say('UNAVAILABLE', 'error.busy', undefined, { retryAfter: 1 });
      }
      ctx.logger.warn({ code, activity: label, attempt }, 'transaction conflict; running it again');
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40 * attempt));
      continue;
    }
    open = false;
    await runEffects(ctx, label, effects);
    return result;
  }
}

/**
 * The committed change's effects, in order. One that fails is logged and the rest still run:
 * the change stands (it is committed), and what the effects tell is read anew by their
 * listeners' own timers (the 30-second resync, the notices' retry).
 */
async function runEffects(ctx: Deps, label: string, effects: Effect[]): Promise<void> {
  for (const effect of effects) {
    try {
      await effect();
    } catch (err) {
      ctx.logger.error({ err, activity: label }, 'an effect after commit failed');
    }
  }
}
