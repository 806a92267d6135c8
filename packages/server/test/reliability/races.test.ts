import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import request from 'supertest';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFor } from '../factories';
import { createTestApp, type TestApp } from '../harness';
import { createElection, createVoter, setVoting, votingRows, type Election } from '../voting/election';

/**
 * One member, one vote, under races: fast-check generates bursts of concurrent submissions per
 * voter — exact duplicates and overlapping sets of positions — fired all at once. Whatever the
 * interleaving: the accepted (201) submissions of a voter are pairwise disjoint, what is recorded
 * is exactly their union, every other submission answers 409, nothing is recorded twice for one
 * (member, position), and ballots + queue = participation rows = result totals.
 */

const RUNS = Number(process.env.RACE_RUNS ?? 40);

let t: TestApp;
let server: Server;
let e: Election;
let racesRun = 0;
let submissions = 0;

beforeAll(async () => {
  t = await createTestApp({ env: { MIX_MIN_BATCH: '3', MIX_INTERVAL_MS: '50', LOG_LEVEL: 'warn' } });
  e = await createElection(t.ctx);
  await setVoting(t.ctx, true);
  server = createServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
  console.log(`races: ${racesRun} bursts, ${submissions} concurrent submissions`);
});

describe('one member, one vote under concurrency', () => {
  it(`holds over ${RUNS} generated bursts of duplicate and overlapping ballots`, async () => {
    const positions = () =>
      [
        [e.chair.id, [e.alice.id, e.brian.id]],
        [e.treasurer.id, [e.carol.id, e.dan.id]],
        [e.nairobi.id, [e.erin.id]],
      ] as const;
    // A submission: a non-empty subset of the three positions, with a candidate choice for each.
    const submission = fc
      .tuple(fc.subarray([0, 1, 2], { minLength: 1 }), fc.array(fc.nat(1), { minLength: 3, maxLength: 3 }))
      .map(
        ([which, picks]) =>
          Object.fromEntries(which.map((i) => [positions()[i]![0], positions()[i]![1][picks[i]! % positions()[i]![1].length]!])) as Record<
            number,
            number
          >,
      );
    // Per voter: 2..8 submissions, some repeated verbatim (duplicates).
    const voterBurst = fc
      .array(submission, { minLength: 1, maxLength: 5 })
      .chain((subs) => fc.array(fc.constantFrom(...subs), { minLength: 2, maxLength: 8 }));

    await fc.assert(
      fc.asyncProperty(fc.array(voterBurst, { minLength: 1, maxLength: 4 }), async (bursts) => {
        const voters = await Promise.all(bursts.map(() => createVoter(t.ctx)));
        const fired = bursts.flatMap((subs, v) => subs.map((candidates) => ({ v, candidates })));
        // All at once, interleaved across voters.
        const answers = await Promise.all(
          fired.map(({ v, candidates }) =>
            request(server).post('/api/v1/psk/vote').set('Authorization', `Bearer ${voters[v]!.token}`).send({ candidates }),
          ),
        );
        racesRun++;
        submissions += fired.length;
        for (const [v, voter] of voters.entries()) {
          const mine = fired.map((f, i) => ({ ...f, res: answers[i]! })).filter((f) => f.v === v);
          for (const m of mine) expect([201, 409], JSON.stringify(m.res.body)).toContain(m.res.status);
          const accepted = mine.filter((m) => m.res.status === 201).map((m) => Object.keys(m.candidates).map(Number));
          expect(accepted.length).toBeGreaterThanOrEqual(1);
          const union = accepted.flat();
          expect(new Set(union).size, 'two accepted submissions share a position').toBe(union.length);
          const rows = await t.ctx.database.db.execute<{ position_id: number }>(
            sql`select position_id from participation where member_id = ${voter.member.id}`,
          );
          expect(rows.map((r) => r.position_id).sort()).toEqual([...union].sort());
          // Each rejected submission overlaps what was accepted (that is why it was refused).
          for (const m of mine.filter((x) => x.res.status === 409)) {
            expect(
              Object.keys(m.candidates)
                .map(Number)
                .some((p) => union.includes(p)),
            ).toBe(true);
          }
        }
        const counts = await votingRows(t.ctx);
        expect(counts.ballots + counts.queue).toBe(counts.participation);
        const [dupes] = await t.ctx.database.db.execute<{ n: number }>(
          sql`select count(*)::int as n from (select member_id, position_id from participation group by 1, 2 having count(*) > 1) d`,
        );
        expect(dupes!.n).toBe(0);
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
    // Results agree with participation after all the bursts (the snapshot may lag a moment behind).
    const admin = await tokenFor(t.ctx, 'admin');
    const expected = (await votingRows(t.ctx)).participation;
    const observed: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await request(server).get('/api/v1/agent/results').set('Authorization', `Bearer ${admin}`);
      observed.push((res.body.data.data as { total: number }[]).reduce((sum, g) => sum + g.total, 0));
      if (observed.at(-1) === expected) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    if (observed.length > 1) console.log(`races: results lagged participation (${expected}): ${observed.join(', ')}`);
    expect(observed.at(-1)).toBe(expected);
  });
});
