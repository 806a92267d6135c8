import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createElection, createVoter, setVoting, type Election } from '../../../test/voting/election';
import { ELECTION_LOCK, ELECTION_LOCK_NAMESPACE, MEMBER_LOCK_NAMESPACE } from '../../db/locks';

/**
 * cast_vote runs its check on a generic plan made once per connection (db/schema/functions.ts).
 * Made at the worst moment, the start of an election day with participation empty and just
 * analysed, a plan that scanned participation would read the whole table on every vote for the
 * connection's life, slower with every ballot. Its own file: a fresh database whose connection
 * has not planned cast_vote yet.
 */
let t: TestApp;
let e: Election;
beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  e = await createElection(t.ctx);
  await setVoting(t.ctx, true);
});
afterAll(async () => {
  await t?.close();
});

describe('cast_vote planned while participation is empty and analysed', () => {
  it('reads participation, candidacies and members through their indexes, never a whole-table scan', async () => {
    const voters = await Promise.all(Array.from({ length: 3 }, () => createVoter(t.ctx)));
    await t.ctx.database.sql`analyze`;
    const scans = await t.ctx.database.sql.begin(async (tx) => {
      // Counters of this backend not yet flushed (earlier statements on this pooled connection)
      // show here too: the votes' reads are the difference across them.
      const counters = () => tx<{ relname: string; seq_scan: number; idx_scan: number }[]>`
        select relname, seq_scan::int, coalesce(idx_scan, 0)::int as idx_scan from pg_stat_xact_user_tables
        where relname in ('participation', 'candidacies', 'members')`;
      const before = await counters();
      // An attacker's ballots first, in the shapes that take the other branch of the check (one
      // position twice, the same candidate twice): refused, and no reason to plan differently.
      for (const v of voters) {
        const [row] = await tx<{ outcome: { refused?: unknown[] } }[]>`
          select cast_vote(${v.member.id}::int, ${`{${e.chair.id},${e.chair.id}}`}::int[], ${`{${e.alice.id},${e.alice.id}}`}::int[],
            ${`{${e.chair.id}}`}::int[], ${'{r}'}::text[], ${'{refused}'}::text[], ${'{s}'}::text[], 'Voted', '1 position(s)',
            '127.0.0.1', ${new Date().toISOString()}::timestamptz, ${ELECTION_LOCK}::bigint, ${MEMBER_LOCK_NAMESPACE}::int, 1::int, ${ELECTION_LOCK_NAMESPACE}::int) as outcome`;
        expect(row?.outcome.refused?.length).toBeGreaterThan(0);
      }
      for (const [i, v] of voters.entries()) {
        const [row] = await tx<{ outcome: { xid?: string } }[]>`
          select cast_vote(${v.member.id}::int, ${`{${e.chair.id}}`}::int[], ${`{${e.alice.id}}`}::int[], ${`{${e.chair.id}}`}::int[],
            ${'{r}'}::text[], ${`{plan-test-${i}}`}::text[], ${'{s}'}::text[], 'Voted', '1 position(s)', '127.0.0.1',
            ${new Date().toISOString()}::timestamptz, ${ELECTION_LOCK}::bigint, ${MEMBER_LOCK_NAMESPACE}::int, 1::int, ${ELECTION_LOCK_NAMESPACE}::int) as outcome`;
        expect(row?.outcome.xid).toBeTruthy();
      }
      const after = await counters();
      return after.map((a) => {
        const b = before.find((x) => x.relname === a.relname);
        return { relname: a.relname, seq_scan: a.seq_scan - (b?.seq_scan ?? 0), idx_scan: a.idx_scan - (b?.idx_scan ?? 0) };
      });
    });
    const byName = Object.fromEntries(scans.map((s) => [s.relname, s]));
    for (const table of ['participation', 'candidacies', 'members']) {
      expect(byName[table]?.seq_scan, `${table} scanned whole`).toBe(0);
      expect(byName[table]?.idx_scan, `${table} read through an index`).toBeGreaterThan(0);
    }
  });
});
