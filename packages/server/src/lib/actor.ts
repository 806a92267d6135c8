import { eq } from 'drizzle-orm';
import type { Request } from 'express';
import { callerOf } from '../auth/access';
import type { Role } from '../auth/sessions';
import type { AppContext } from '../context';
import type { Tx } from '../db/client';
import { members, staff } from '../db/schema';
import { AppError } from '../errors';
import { recordActivity } from './activity-log';

/** Who is doing something, as the activity log and issue reports record it. */
export type Actor = { role: Role; id: number | null; name: string; ip: string };
/** A caller with a session always has an id (the CLI acts without one). */
export type SignedInActor = Actor & { id: number };

/**
 * The signed-in caller with a display name and IP, built in the handler so services never read
 * `req`. A session whose subject has since been deleted still gets a name rather than a 500.
 */
export async function actorOf(ctx: AppContext, req: Request<any, any, any, any>): Promise<SignedInActor> {
  const caller = callerOf(req);
  const table = caller.role === 'voter' ? members : staff;
  const [row] = await ctx.database.db.select({ name: table.name }).from(table).where(eq(table.id, caller.subjectId)).limit(1);
  return { role: caller.role, id: caller.subjectId, name: row?.name ?? `${caller.role} #${caller.subjectId}`, ip: req.ip ?? '' };
}

export type AuditedChange<T> = {
  actor: Actor;
  activity: string;
  /** Non-secret context for the log's `data` column; may depend on the outcome. */
  data?: string | ((result: T) => string);
};

/**
 * One use case, one transaction, one log line: the success row is written inside the
 * transaction (so a rolled-back change leaves no "success"), a refusal or failure is written
 * after it, outside, so the attempt is still on record.
 */
export async function auditedTransaction<T>(ctx: AppContext, change: AuditedChange<T>, work: (tx: Tx) => Promise<T>): Promise<T> {
  const { actor, activity } = change;
  const base = { name: actor.name, activity, userId: actor.id, userType: actor.role, ip: actor.ip };
  try {
    return await ctx.database.db.transaction(async (tx) => {
      const result = await work(tx);
      const data = typeof change.data === 'function' ? change.data(result) : change.data;
      await recordActivity(ctx, { ...base, data, status: 'success' }, tx);
      return result;
    });
  } catch (error) {
    const refused = error instanceof AppError && error.status < 500;
    const reason = refused ? `${typeof change.data === 'string' ? `${change.data}; ` : ''}${error.message}` : undefined;
    await recordActivity(ctx, { ...base, data: reason, status: refused && error.status === 403 ? 'denied' : 'failed' }).catch((e: unknown) =>
      ctx.logger.warn({ err: e }, 'could not record a failed change'),
    );
    throw error;
  }
}

/** The unique constraint a Postgres error names, when it is a unique violation (drizzle wraps driver errors). */
export function uniqueViolation(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; constraint_name?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 3; e = e.cause as typeof e, depth++) {
    if (e.code === '23505') return typeof e.constraint_name === 'string' ? e.constraint_name : '';
  }
  return undefined;
}
