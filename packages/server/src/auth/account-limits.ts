import { and, asc, count, eq, gt, lte } from 'drizzle-orm';
import type { AppContext } from '../context';
import type { Db, Tx } from '../db/client';
import { authFailures } from '../db/schema';
import { AppError } from '../errors';
import type { Role } from './sessions';

/**
 * The per-account ceiling on failed sign-in steps (wrong code, password, pin or authenticator
 * token). It counts per account, whatever the IP, so spreading guesses over many addresses does
 * not help; docs/api.md "Rules the server enforces" keeps per-IP limits generous because members share addresses.
 */

const WINDOW_MS = 60 * 60_000;

export const TOO_MANY_FAILURES = 'Too many failed attempts for this account, please try again later';

export const accountKey = (role: Role, subjectId: number) => `${role}:${subjectId}`;

/** 429 with Retry-After when the account has reached its failures for the past hour. */
export async function assertAccountNotLocked(ctx: AppContext, key: string, db: Db | Tx = ctx.database.db): Promise<void> {
  const now = ctx.now();
  const since = new Date(now.getTime() - WINDOW_MS);
  const limit = ctx.env.RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR;
  const [row] = await db
    .select({ n: count() })
    .from(authFailures)
    .where(and(eq(authFailures.accountKey, key), gt(authFailures.at, since)));
  if ((row?.n ?? 0) < limit) return;
  // The window reopens when enough of the oldest failures in it have aged out.
  const oldest = await db
    .select({ at: authFailures.at })
    .from(authFailures)
    .where(and(eq(authFailures.accountKey, key), gt(authFailures.at, since)))
    .orderBy(asc(authFailures.at))
    .limit(1)
    .offset(Math.max(0, (row?.n ?? 0) - limit));
  const reopensAt = (oldest[0]?.at.getTime() ?? now.getTime()) + WINDOW_MS;
  throw new AppError('TOO_MANY_REQUESTS', TOO_MANY_FAILURES, { retryAfter: Math.max(1, Math.ceil((reopensAt - now.getTime()) / 1000)) });
}

/** Counts one failure against the account, and forgets its failures older than the window. */
export async function recordAccountFailure(ctx: AppContext, key: string, db: Db | Tx = ctx.database.db): Promise<void> {
  const now = ctx.now();
  await db.delete(authFailures).where(and(eq(authFailures.accountKey, key), lte(authFailures.at, new Date(now.getTime() - WINDOW_MS))));
  await db.insert(authFailures).values({ accountKey: key, at: now });
}
