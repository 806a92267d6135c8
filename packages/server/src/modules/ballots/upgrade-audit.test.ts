import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestCore, createTestDatabase } from '../../../test/harness';
import { migrateUpTo } from '../../../test/migrations';
import { seal } from '../../lib/crypto';
import { BallotQueueCache, sealBallot } from './ballot-queue';
import { fileUnsortedQueue } from './mixer';
import { newReceipt, queueIdOf } from './receipts';
import { verifyAudit } from '../declaration';
import { runMigrations } from '../../db/migrate';

/**
 * The upgrade from the single-election release (migrations up to 0012) to many elections keeps an
 * election's ballots, receipts and commitments so that `audit:verify` passes on election 1 after
 * it (docs/api.md "Upgrading keeps everything"): ballots as the old release's mixer wrote them, one
 * still in the queue, receipts sealed with the installation's key, and a commitment computed over
 * the ballot set the way that release did.
 */
describe('upgrading a single-election database', () => {
  it(
    'keeps every ballot, receipt and commitment: audit:verify passes on election 1, and still catches an added ballot',
    { timeout: 120_000 },
    async () => {
      const old = await createTestDatabase({ empty: true });
      await migrateUpTo(old, '0012_motions_ranked');
      // The core with the installation's keys (its database is the old one, upgraded below).
      const t = await createTestCore({ database: old, seedReference: false });
      try {
        const key = t.core.secrets.ballotKey;
        const [branch] = await old.sql<{ id: number }[]>`insert into branches (name) values ('Nairobi') returning id`;
        const member = async (no: string) =>
          (
            await old.sql<{ id: number }[]>`insert into members (member_no, name, email, phone, branch_id)
            values (${no}, ${`Member ${no}`}, ${`m${no}@example.org`}, ${`07000${no}`}, ${branch!.id}) returning id`
          )[0]!.id;
        const [alice, brian] = [await member('10001'), await member('10002')];
        const voters = [await member('20001'), await member('20002'), await member('20003'), await member('20004')];
        const [chair] = await old.sql<
          { id: number }[]
        >`insert into positions (name, level) values ('Chairperson', 'National') returning id`;
        await old.sql`insert into candidacies (member_id, position_id) values (${alice}, ${chair!.id}), (${brian}, ${chair!.id})`;
        await old.sql`update election set voting_active = true, opened_at = now()`;

        // Three ballots mixed into `ballots`, one still sealed in the queue; each voter's receipt sealed.
        const mixed: { receipt: string; candidate: number }[] = [];
        for (const [i, voter] of voters.entries()) {
          const receipt = newReceipt();
          const candidate = i % 2 === 0 ? alice : brian;
          await old.sql`insert into participation (member_id, position_id, receipt_enc) values (${voter}, ${chair!.id}, ${seal(key, receipt)})`;
          if (i < 3) {
            await old.sql`insert into ballots (receipt, position_id, candidate_id) values (${receipt}, ${chair!.id}, ${candidate})`;
            mixed.push({ receipt, candidate });
          } else {
            const sealed = sealBallot(key, { receipt, positionId: chair!.id, candidateIds: [candidate] });
            await old.sql`insert into ballot_queue (id, sealed) values (${queueIdOf(t.core.secrets.queueIdKey, receipt)}, ${sealed})`;
          }
        }
        // The commitment over the mixed set: (receipt, position, candidate) sorted by receipt, hashed.
        const hash = createHash('sha256');
        for (const b of [...mixed].sort((a, b) => (a.receipt < b.receipt ? -1 : 1)))
          hash.update(`${b.receipt},${chair!.id},${b.candidate}\n`);
        await old.sql`insert into commitments (count, hash, reason) values (${mixed.length}, ${hash.digest('hex')}, 'toggle')`;

        await runMigrations(old);

        const report = await verifyAudit(t.core, 1);
        expect(report.problems).toEqual([]);
        expect(report.ok).toBe(true);
        expect(report.tallies.map(({ candidateId, count }) => [candidateId, count]).sort()).toEqual(
          [
            [alice, 2],
            [brian, 2],
          ].sort(),
        );

        // The queued row from before the partitioning waits in partition 0 (ADR 009), audited there;
        // the mixer files it under election 1, and the audit still passes.
        const where = async () => (await old.sql<{ e: number }[]>`select election_id as e from ballot_queue`).map((r) => r.e);
        expect(await where()).toEqual([0]);
        expect(await fileUnsortedQueue({ ...t.core, ballotQueue: new BallotQueueCache(key) })).toBe(1);
        expect(await where()).toEqual([1]);
        expect((await verifyAudit(t.core, 1)).problems).toEqual([]);

        // Not vacuous: a ballot added behind the audit's back shows.
        await old.sql`insert into ballots (election_id, receipt, position_id, candidate_id) values (1, ${newReceipt()}, ${chair!.id}, ${alice})`;
        const tampered = await verifyAudit(t.core, 1);
        expect(tampered.ok).toBe(false);
        expect(tampered.problems.length).toBeGreaterThan(0);
      } finally {
        await t.close();
      }
    },
  );
});
