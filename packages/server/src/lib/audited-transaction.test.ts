import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor';
import { activityLogs, branches } from '../db/schema';
import { AppError } from '../errors';
import { readState } from '../db/election-store';
import { NoSuchElection } from '../db/errors';
import { toAppError } from '../http/error-handler';
import { apiClient } from '../../test/client';
import { tokenFor } from '../../test/factories';
import { createTestApp, databaseKind, type TestApp } from '../../test/harness';
import { auditedTransaction } from './audited-transaction';
import { inTransaction } from './unit-of-work';

/**
 * A transaction Postgres aborts for losing a race (40P01 deadlock, 40001 serialization failure)
 * is run again by the helper every audited use case goes through; when it still loses, the caller
 * gets a 503 in the error envelope, never a 500. PGlite runs one transaction at a time: no re-run.
 */

const BUSY = 'The server was busy with a conflicting change; please try again';
const actor: Actor = { role: 'admin', id: 1, name: 'Retry Admin', ip: '127.0.0.1' };

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  admin = await tokenFor(t.ctx, 'admin');
  // Counts attempts across rollbacks: a sequence's nextval is not undone by one.
  await t.ctx.database.db.execute(sql`create sequence retry_attempts`);
  await t.ctx.database.db.execute(sql`create function always_deadlock() returns trigger language plpgsql as $$
    begin perform nextval('retry_attempts'); raise exception 'forced deadlock' using errcode = '40P01'; end $$`);
});
afterAll(async () => {
  await t?.close();
});

const freshBranch = async (name: string) =>
  (await t.ctx.database.db.insert(branches).values({ name }).returning({ id: branches.id }))[0]!.id;

const activityRows = (activity: string) =>
  t.ctx.database.db
    .select({ status: activityLogs.status, data: activityLogs.data })
    .from(activityLogs)
    .where(eq(activityLogs.activity, activity));

describe('a transaction that loses a race', () => {
  it.runIf(databaseKind === 'postgres')(
    'is run again after a real deadlock, and both sides commit',
    async () => {
      const a = await freshBranch('Deadlock A');
      const b = await freshBranch('Deadlock B');
      const lock = (tx: Parameters<Parameters<typeof auditedTransaction>[2]>[0], id: number) =>
        tx.execute(sql`update branches set name = name where id = ${id}`);
      // Both take their first row, then each waits for the other's: Postgres aborts one of them.
      let firstA!: () => void;
      let firstB!: () => void;
      const tookA = new Promise<void>((r) => (firstA = r));
      const tookB = new Promise<void>((r) => (firstB = r));
      const attempts = { ab: 0, ba: 0 };
      const effects: string[] = [];
      const ab = auditedTransaction(t.ctx, { actor, activity: 'Retry test ab' }, async (tx, note) => {
        attempts.ab++;
        note.afterCommit(() => effects.push('ab'));
        await lock(tx, a);
        if (attempts.ab === 1) {
          firstA();
          await tookB;
        }
        await lock(tx, b);
        return 'ab';
      });
      const ba = auditedTransaction(t.ctx, { actor, activity: 'Retry test ba' }, async (tx, note) => {
        attempts.ba++;
        note.afterCommit(() => effects.push('ba'));
        await lock(tx, b);
        if (attempts.ba === 1) {
          firstB();
          await tookA;
        }
        await lock(tx, a);
        return 'ba';
      });
      expect(await Promise.allSettled([ab, ba])).toEqual([
        { status: 'fulfilled', value: 'ab' },
        { status: 'fulfilled', value: 'ba' },
      ]);
      // One of the two was the deadlock's victim and ran twice; the other once.
      expect([attempts.ab, attempts.ba].sort()).toEqual([1, 2]);
      // Each side's effect ran once: the victim's first attempt queued one that its rollback dropped.
      expect(effects.sort()).toEqual(['ab', 'ba']);
      // One success row each: the aborted attempt left nothing behind, and no "failed" row.
      expect(await activityRows('Retry test ab')).toEqual([{ status: 'success', data: null }]);
      expect(await activityRows('Retry test ba')).toEqual([{ status: 'success', data: null }]);
      expect(t.logs.join('')).toContain('running it again');
    },
    20_000,
  );

  it('answers a 503 in the envelope once the re-runs are spent (PGlite: at once, no re-run)', async () => {
    const id = await freshBranch('Always Deadlocked');
    await t.ctx.database.db.execute(
      sql.raw(
        `create trigger always_deadlock before update on branches for each row when (old.id = ${id}) execute function always_deadlock()`,
      ),
    );
    const before = await attemptsSoFar();
    const res = await apiClient(t.app, admin).setup.updateBranch({ params: { id }, body: { name: 'Renamed Under Fire' } });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ message: BUSY });
    expect(res.headers.get('retry-after')).toBe('1');
    expect((await attemptsSoFar()) - before).toBe(databaseKind === 'postgres' ? 3 : 1);
    // Nothing changed, and the attempt is on record as failed (once, not per re-run).
    const [row] = await t.ctx.database.db.select({ name: branches.name }).from(branches).where(eq(branches.id, id));
    expect(row!.name).toBe('Always Deadlocked');
    const failed = await t.ctx.database.db
      .select({ status: activityLogs.status })
      .from(activityLogs)
      .where(and(eq(activityLogs.activity, 'Branch renamed'), eq(activityLogs.userType, 'admin')));
    expect(failed).toEqual([{ status: 'failed' }]);
    // The log says a conflict happened, never the statement's parameters.
    expect(t.logs.join('')).not.toContain('Renamed Under Fire');
  }, 20_000);

  it('a conflict outside the helper (not re-run) is a 503 in the envelope too, not a 500', async () => {
    const error = await t.ctx.database.db.execute(sql`do $$ begin raise exception 'forced' using errcode = '40001'; end $$`).then(
      () => undefined,
      (e: unknown) => e,
    );
    const mapped = toAppError(error);
    expect(mapped).toBeInstanceOf(AppError);
    expect({ status: mapped.status, body: mapped.body }).toEqual({ status: 503, body: { message: BUSY } });
  });
});

const attemptsSoFar = async () => {
  const [row] = await t.ctx.database.sql<{ n: string }[]>`select last_value as n from retry_attempts`;
  const [called] = await t.ctx.database.sql<{ c: boolean }[]>`select is_called as c from retry_attempts`;
  return called!.c ? Number(row!.n) : 0;
};

describe('the unit of work: effects after the commit (docs/architecture.md "One unit of work")', () => {
  it('runs the queued effects once the transaction committed, in order, each seeing the change from outside it', async () => {
    const seen: string[] = [];
    const id = await inTransaction(t.ctx, 'Effects test', async (tx, unit) => {
      const [row] = await tx.insert(branches).values({ name: 'Effect Seen' }).returning({ id: branches.id });
      unit.afterCommit(async () => {
        // Another connection on Postgres: the row is there only once the transaction committed.
        const [found] = await t.ctx.database.db.select({ name: branches.name }).from(branches).where(eq(branches.id, row!.id));
        seen.push(`first: ${found?.name ?? 'not committed'}`);
      });
      unit.afterCommit(() => seen.push('second'));
      seen.push('work done');
      return row!.id;
    });
    expect(seen).toEqual(['work done', 'first: Effect Seen', 'second']);
    expect(id).toBeGreaterThan(0);
  });

  it('never runs the effects of a transaction that rolled back, and the error reaches the caller', async () => {
    const ran: string[] = [];
    const refusal = new AppError('CONFLICT', 'refused for the test');
    await expect(
      inTransaction(t.ctx, 'Rolled back test', async (tx, unit) => {
        await tx.insert(branches).values({ name: 'Never Committed' });
        unit.afterCommit(() => ran.push('effect'));
        throw refusal;
      }),
    ).rejects.toBe(refusal);
    expect(ran).toEqual([]);
    expect(await t.ctx.database.db.select().from(branches).where(eq(branches.name, 'Never Committed'))).toEqual([]);
  });

  it('an audited change refused inside its transaction announces nothing (its effects dropped), and its refusal is logged', async () => {
    const ran: string[] = [];
    await expect(
      auditedTransaction(t.ctx, { actor, activity: 'Refused effects test' }, async (_tx, note) => {
        note.afterCommit(() => ran.push('effect'));
        throw new AppError('CONFLICT', 'not now');
      }),
    ).rejects.toThrow('not now');
    expect(ran).toEqual([]);
    expect(await activityRows('Refused effects test')).toEqual([{ status: 'failed', data: 'not now' }]);
  });

  it('a store asked for an election that is gone refuses with a 404 (logged as refused), not a fault: the store knows no HTTP', async () => {
    await expect(
      auditedTransaction(t.ctx, { actor, activity: 'Gone election test' }, (tx) => readState(tx, 2_000_000_000)),
    ).rejects.toBeInstanceOf(NoSuchElection);
    expect(await activityRows('Gone election test')).toEqual([{ status: 'failed', data: 'No such election' }]);
    const answer = toAppError(new NoSuchElection(7));
    expect([answer.status, answer.body]).toEqual([404, { message: 'No such election' }]);
  });

  it('a failing effect is logged and the rest still run: the committed change stands', async () => {
    const ran: string[] = [];
    const answer = await inTransaction(t.ctx, 'Failing effect test', async (_tx, unit) => {
      unit.afterCommit(() => {
        throw new Error('the notice gateway is down');
      });
      unit.afterCommit(() => ran.push('after it'));
      return 'committed';
    });
    expect(answer).toBe('committed');
    expect(ran).toEqual(['after it']);
    expect(t.logs.join('')).toContain('an effect after commit failed');
  });

  it('refuses an effect queued after its transaction ended', async () => {
    let late: ((e: () => void) => void) | undefined;
    await inTransaction(t.ctx, 'Late effect test', async (_tx, unit) => {
      late = (e) => unit.afterCommit(e);
    });
    expect(() => late!(() => undefined)).toThrow('afterCommit asked after its transaction ended');
  });
});
