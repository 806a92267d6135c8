import { and, count, eq, gt, inArray, lte, max, min, ne } from 'drizzle-orm';
import type { Core } from '../core';
import type { Db, Tx } from '../db/client';
import { authFailures } from '../db/schema';
import { AppError } from '../errors';
import { sha256 } from '../lib/crypto';
import type { Role } from './sessions';

/**
 * Failed sign-in steps, counted so that guessing stops and a stranger cannot aim a lock-out
 * (SECURITY.md "Sign-in, sessions and codes"; NIST SP 800-63B §5.2.2):
 *
 * - **Per account and method.** A wrong pin counts against the account's pin, never against its
 *   SMS code or its authenticator token, so failures on one method never block another; the
 *   member's own code by SMS (proof of possession) always remains.
 * - **Only where the method exists.** A pin is counted only for a member with a confirmed
 *   authenticator (without one it opens nothing), a token only for a member enrolling or holding
 *   one, a code only for a real account.
 * - **Growing delays, then a ceiling.** The first `FREE_FAILURES` failures of a method cost
 *   nothing; each later one doubles the wait before the next attempt is even checked (1 s, 2 s,
 *   … up to `MAX_DELAY_MS`), and `RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR` failures within an hour
 *   stop the method until the oldest ages out. A success clears the method's failures.
 * - **Admin password: the address first.** Failures count per (admin, client address) with the
 *   delays and ceiling above, and against the admin as a whole only at
 *   `ADMIN_PASSWORD_GLOBAL_FACTOR` times the ceiling, so one address (or a few) cannot lock the
 *   admin out; guessing from many addresses still meets the global ceiling.
 *
 * An attempt is recorded as a failure *before* the secret is checked and withdrawn if it was
 * right, so parallel guesses see each other and cannot all slip under the limit at once.
 */

const WINDOW_MS = 60 * 60_000;
export const FREE_FAILURES = 5;
export const MAX_DELAY_MS = 10 * 60_000;
export const ADMIN_PASSWORD_GLOBAL_FACTOR = 10;

export const TOO_MANY_FAILURES = 'Too many failed attempts for this account, please try again later';
export const TRY_AGAIN_SOON = 'Too many failed attempts, please wait a moment before trying again';

/** `signup`: linking a Google account to a member (a wrong phone, a wrong sign-up code). */
export type Method = 'code' | 'pin' | 'token' | 'password' | 'signup';

/** The counter of one (account, method), or of one (admin, method, address). */
export const accountKey = (role: Role, subjectId: number | string, method: Method, ip?: string) =>
  `${role}:${subjectId}:${method}${ip === undefined ? '' : `@${ip}`}`;

type Counter = { key: string; ceiling: number; delays: boolean };

/** The counters a sign-in step is held to. */
export function countersFor(ctx: Core, role: Role, subjectId: number | string, method: Method, ip: string): Counter[] {
  const ceiling = ctx.env.RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR;
  if (role === 'admin' && method === 'password') {
    return [
      { key: accountKey(role, subjectId, method, ip), ceiling, delays: true },
      { key: accountKey(role, subjectId, method), ceiling: ceiling * ADMIN_PASSWORD_GLOBAL_FACTOR, delays: false },
    ];
  }
  // A code is new each time and dies after 5 tries, so its guesses are bounded by the sends (one a
  // minute); delays would only let a stranger who triggers codes hold the member's own code back.
  return [{ key: accountKey(role, subjectId, method), ceiling, delays: method !== 'code' }];
}

/**
 * The counters of an admin password tried with an address that is no admin's: held exactly like a
 * real admin's (same delays, same ceilings), so the answers never tell the two apart. Keyed by a
 * hash of the address, never the address itself.
 */
export const unknownAdminCounters = (ctx: Core, email: string, ip: string): Counter[] =>
  countersFor(ctx, 'admin', `unknown-${sha256(email.trim().toLowerCase())}`, 'password', ip);

/** The wait after `n` failures in the window (0 while they are free). */
export const delayAfter = (n: number) => (n < FREE_FAILURES ? 0 : Math.min(MAX_DELAY_MS, 1000 * 2 ** (n - FREE_FAILURES)));

export type Attempt = {
  /**
   * The secret was right: withdraw this attempt and clear the method's failures; inside the
   * caller's transaction when one is given (so the clearing commits with the session it allows).
   */
  succeeded(tx?: Db | Tx): Promise<void>;
  /** This step was right but the method is not finished (a sign-up's phone before its code): withdraw this attempt only. */
  withdraw(): Promise<void>;
};

/**
 * Starts a checked attempt: 429 (with Retry-After) when a counter is at its ceiling or still in
 * its delay; otherwise records the attempt as a failure until `succeeded` says otherwise.
 */
export async function beginAttempt(ctx: Core, counters: Counter[]): Promise<Attempt> {
  const { db } = ctx.database;
  const now = ctx.now();
  const since = new Date(now.getTime() - WINDOW_MS);
  const keys = counters.map((c) => c.key);
  // Sent together (each sequential round trip waits a turn of the event loop under load): the
  // delete takes rows older than the window, the insert adds one at `now`, so they never meet.
  const [, inserted] = await Promise.all([
    db.delete(authFailures).where(and(inArray(authFailures.accountKey, keys), lte(authFailures.at, since))),
    db
      .insert(authFailures)
      .values(keys.map((accountKey) => ({ accountKey, at: now })))
      .returning({ id: authFailures.id }),
  ]);
  const mine = inserted.map((r) => r.id);
  const withdraw = () => db.delete(authFailures).where(inArray(authFailures.id, mine));
  // Counted only once the insert above has committed, each in a statement of its own: a parallel
  // guess that counts later sees this one (never merge the insert and the count into one
  // statement, whose snapshot would miss concurrent inserts). The counts go out together and are
  // judged in the counters' order, so the same refusal wins as when they ran one by one.
  const rows = await Promise.all(
    counters.map(async (counter) => {
      const others = and(
        eq(authFailures.accountKey, counter.key),
        gt(authFailures.at, since),
        ...mine.map((id) => ne(authFailures.id, id)),
      );
      const [row] = await db
        .select({ n: count(), oldest: min(authFailures.at), latest: max(authFailures.at) })
        .from(authFailures)
        .where(others);
      return row;
    }),
  );
  for (const [i, counter] of counters.entries()) {
    const row = rows[i];
    const n = row?.n ?? 0;
    if (n >= counter.ceiling) {
      await withdraw();
      // The window reopens when the oldest failure in it ages out.
      const reopensAt = (row?.oldest?.getTime() ?? now.getTime()) + WINDOW_MS;
      throw AppError.say('TOO_MANY_REQUESTS', 'limits.account', undefined, {
        retryAfter: Math.max(1, Math.ceil((reopensAt - now.getTime()) / 1000)),
      });
    }
    const wait = counter.delays && row?.latest ? row.latest.getTime() + delayAfter(n) - now.getTime() : 0;
    if (wait > 0) {
      await withdraw();
      throw AppError.say('TOO_MANY_REQUESTS', 'limits.wait', undefined, { retryAfter: Math.max(1, Math.ceil(wait / 1000)) });
    }
  }
  return {
    async succeeded(tx) {
      await (tx ?? db).delete(authFailures).where(inArray(authFailures.accountKey, keys));
    },
    async withdraw() {
      await withdraw();
    },
  };
}
