import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../../test/harness';
import { authFailures } from '../db/schema';
import { AppError } from '../errors';
import { TOO_MANY_FAILURES, TRY_AGAIN_SOON, beginAttempt } from './account-limits';

/**
 * beginAttempt itself (the flows through HTTP: test/security/lockouts.test.ts): parallel attempts
 * see each other, several counters are judged in their order, and `succeeded` inside a caller's
 * transaction clears the failures only if that transaction commits.
 */

let t: TestCore;
beforeAll(async () => {
  t = await createTestCore({ seedReference: false });
});
afterAll(async () => {
  await t?.close();
});

let keys = 0;
const counter = (ceiling: number, delays = false) => ({ key: `test:${++keys}:code`, ceiling, delays });

async function stored(key: string) {
  const [row] = await t.core.database.db.select({ n: count() }).from(authFailures).where(eq(authFailures.accountKey, key));
  return row!.n;
}

const refusal = (error: unknown) => (error instanceof AppError ? error.message : String(error));

describe('beginAttempt', () => {
  it('a burst of parallel attempts on one counter lets no more than its ceiling through', async () => {
    // Each attempt's failure row is committed before it counts the others, so of any two parallel
    // attempts the one counting later sees the other. Rounds make an unlucky interleaving likely.
    for (let round = 0; round < 5; round++) {
      const limited = counter(4);
      const outcomes = await Promise.allSettled(Array.from({ length: 30 }, () => beginAttempt(t.core, [limited])));
      const through = outcomes.filter((o) => o.status === 'fulfilled').length;
      expect(through).toBeLessThanOrEqual(4);
      for (const o of outcomes) if (o.status === 'rejected') expect(refusal(o.reason)).toBe(TOO_MANY_FAILURES);
      // The refused attempts were withdrawn: only the ones let through count as failures.
      expect(await stored(limited.key)).toBe(through);
    }
  });

  it('judges its counters in order: the first one that refuses answers', async () => {
    // `delayed` is past its free failures (in a delay), `full` is at its ceiling.
    const delayed = counter(100, true);
    const full = counter(1);
    for (let i = 0; i < 5; i++) await beginAttempt(t.core, [delayed]);
    await beginAttempt(t.core, [full]);
    await expect(beginAttempt(t.core, [delayed, full])).rejects.toThrow(TRY_AGAIN_SOON);
    await expect(beginAttempt(t.core, [full, delayed])).rejects.toThrow(TOO_MANY_FAILURES);
    // Refused either way, so nothing more was counted.
    expect(await stored(delayed.key)).toBe(5);
    expect(await stored(full.key)).toBe(1);
  });

  it("succeeded inside a transaction clears the method's failures only when it commits", async () => {
    const limited = counter(10);
    await beginAttempt(t.core, [limited]);
    await beginAttempt(t.core, [limited]);
    const attempt = await beginAttempt(t.core, [limited]);
    const { db } = t.core.database;
    await expect(
      db.transaction(async (tx) => {
        await attempt.succeeded(tx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await stored(limited.key)).toBe(3);
    await db.transaction(async (tx) => {
      await attempt.succeeded(tx);
    });
    expect(await stored(limited.key)).toBe(0);
  });
});
