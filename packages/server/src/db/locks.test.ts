import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import {
  LockOrderError,
  lockAllElections,
  lockElection,
  lockFinalise,
  lockKeyed,
  lockMemberClaims,
  lockMemberVotes,
  lockMix,
  tryLockCommitment,
} from './locks';

/**
 * The lock helpers check the order locks are taken in within a transaction (LOCK_RANK): asked out
 * of order, a test of that flow fails with LockOrderError, before it could deadlock in production.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
});
afterAll(async () => {
  await t?.close();
});

const inTx = <T>(work: (tx: Parameters<Parameters<TestApp['ctx']['database']['db']['transaction']>[0]>[0]) => Promise<T>) =>
  t.ctx.database.db.transaction(work);

describe('lock order', () => {
  it('takes locks in rank order, several of one rank in ascending key order, and the same one again', async () => {
    await inTx(async (tx) => {
      await lockAllElections(tx);
      await lockElection(tx, 1);
      await lockElection(tx, 1);
      await lockElection(tx, 2);
      await lockFinalise(tx, 2);
      await lockMix(tx, 2);
      expect(await tryLockCommitment(tx, 2)).toBe(true);
      await lockMemberVotes(tx, [9, 3, 5, 3]);
      await lockMemberClaims(tx, 3);
      await lockKeyed(tx, 'otp:sign-in:3');
    });
  });

  it('asks again for a lock the transaction holds, whatever it took since (it never waits)', async () => {
    await inTx(async (tx) => {
      await lockElection(tx, 1);
      await lockMemberVotes(tx, [4]);
      await lockElection(tx, 1);
      await lockMemberVotes(tx, [5]);
    });
  });

  it("refuses a lower rank after a higher one: a member's vote lock, then an election's", async () => {
    await expect(
      inTx(async (tx) => {
        await lockMemberVotes(tx, [7]);
        await lockElection(tx, 1);
      }),
    ).rejects.toThrow(LockOrderError);
  });

  it('refuses elections in descending id order, and the installation-wide lock after an election', async () => {
    await expect(
      inTx(async (tx) => {
        await lockElection(tx, 2);
        await lockElection(tx, 1);
      }),
    ).rejects.toThrow(/election 1 asked for after election 2/);
    await expect(
      inTx(async (tx) => {
        await lockElection(tx, 1);
        await lockAllElections(tx);
      }),
    ).rejects.toThrow(LockOrderError);
  });

  it('keeps one ledger per transaction: a later transaction starts afresh', async () => {
    await inTx((tx) => lockMemberVotes(tx, [7]));
    await inTx((tx) => lockElection(tx, 1));
  });
});
