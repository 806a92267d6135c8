import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { participation } from '../../db/schema';
import { apiClient, bodyOf, type ApiClient } from '../../../test/client';
import { branchId, createCandidate, createPosition, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createElection, createVoter, type Election } from '../../../test/voting/election';
import { verifyAudit } from '../declaration';

/**
 * Two elections open at once whose rolls overlap (every member; the Nairobi members): one member
 * firing 20 identical ballots at each, all at the same time, has exactly one ballot per position
 * per election recorded; each election's results, statistics, commitments and audit hold its own
 * ballots only.
 */
let t: TestApp;
let e: Election;
let admin: ApiClient;
let anon: ApiClient;
let by: number;
let byChair: { id: number };
let bySecretary: { id: number };
let byCandidates: { chair: { id: number }; secretary: { id: number } };
const ROUNDS = 3;

beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  admin = apiClient(t.app, await tokenFor(t.ctx, 'admin'));
  anon = apiClient(t.app);
  e = await createElection(t.ctx);
  const created = await admin.organisation.createElection({
    body: { title: 'Nairobi by-election', electorate: { branch_ids: [await branchId(t.ctx, 'Nairobi')] } },
  });
  expect(created.status).toBe(201);
  by = bodyOf(created, 201).data.id!;
  byChair = await createPosition(t.ctx, { name: 'By Chair', electionId: by });
  bySecretary = await createPosition(t.ctx, { name: 'By Secretary', electionId: by });
  byCandidates = {
    chair: await createCandidate(t.ctx, [byChair.id], { name: 'Chair Candidate' }),
    secretary: await createCandidate(t.ctx, [bySecretary.id], { name: 'Secretary Candidate' }),
  };
  await t.ctx.voting.tallyOf(by).refreshStructure();
});
afterAll(async () => {
  await t?.close();
});

describe('one member in two open elections at once', () => {
  it('records exactly one ballot per position per election under 20 concurrent submissions to each', async () => {
    expect((await admin.elections.toggleElection({ query: { election_id: 1 }, body: { status: true } })).status).toBe(200);
    expect((await admin.elections.toggleElection({ query: { election_id: by }, body: { status: true } })).status).toBe(200);
    await Promise.all([t.ctx.voting.tallyOf(1).idle(), t.ctx.voting.tallyOf(by).idle()]);
    for (let round = 0; round < ROUNDS; round++) {
      const { token, member } = await createVoter(t.ctx);
      const voter = apiClient(t.app, token);
      const toOne = () =>
        voter.ballots.castVote({
          query: { election_id: 1 },
          body: { candidates: { [e.chair.id]: e.alice.id, [e.treasurer.id]: e.dan.id } },
        });
      const toBy = () =>
        voter.ballots.castVote({
          query: { election_id: by },
          body: { candidates: { [byChair.id]: byCandidates.chair.id, [bySecretary.id]: byCandidates.secretary.id } },
        });
      // Interleaved: 40 submissions in flight at once, 20 to each election.
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? toOne() : toBy())));
      const of = (parity: number) => answers.filter((_, i) => i % 2 === parity).map((a) => a.status);
      for (const statuses of [of(0), of(1)]) {
        expect(statuses.filter((s) => s === 201)).toHaveLength(1);
        expect(statuses.filter((s) => s === 409)).toHaveLength(19);
      }
      const mine = await t.ctx.database.db
        .select({ positionId: participation.positionId })
        .from(participation)
        .where(sql`${participation.memberId} = ${member.id}`);
      expect(mine.map((p) => p.positionId).sort((a, b) => a - b)).toEqual(
        [e.chair.id, e.treasurer.id, byChair.id, bySecretary.id].sort((a, b) => a - b),
      );
    }
    const rows = await t.ctx.database.db
      .select({ positionId: participation.positionId })
      .from(participation)
      .where(inArray(participation.positionId, [e.chair.id, e.treasurer.id, byChair.id, bySecretary.id]));
    expect(rows).toHaveLength(ROUNDS * 4);
  });

  it("keeps each election's results, statistics, commitments and audit to its own ballots", async () => {
    await Promise.all([t.ctx.voting.tallyOf(1).idle(), t.ctx.voting.tallyOf(by).idle()]);
    const totals = async (id: number) =>
      Object.fromEntries(
        bodyOf(await anon.elections.getResults({ query: { election_id: id } }), 200).data.data.map((g) => [g.position_id, g.total]),
      );
    const one = await totals(1);
    expect(one[e.chair.id]).toBe(ROUNDS);
    expect(one[e.treasurer.id]).toBe(ROUNDS);
    expect(one[byChair.id]).toBeUndefined();
    expect(await totals(by)).toEqual({ [byChair.id]: ROUNDS, [bySecretary.id]: ROUNDS });

    for (const id of [1, by]) {
      const stats = bodyOf(await admin.elections.getStatistics({ query: { election_id: id } }), 200).data.data;
      expect(stats, `election ${id}`).toMatchObject({ votesCasted: ROUNDS * 2, membersVoted: ROUNDS });
    }

    // The close of each records its final commitment over its own ballots only.
    for (const id of [1, by]) expect((await admin.lifecycle.closeElection({ query: { election_id: id } })).status).toBe(200);
    for (const id of [1, by]) {
      const [newest] = bodyOf(await anon.elections.listCommitments({ query: { election_id: id } }), 200).data;
      expect(newest!.count, `election ${id}`).toBe(ROUNDS * 2);
      const report = await verifyAudit(t.ctx, id);
      expect(report.problems, `election ${id}`).toEqual([]);
      const positionsAudited = new Set(report.tallies.map((r) => r.positionId));
      expect([...positionsAudited].sort((a, b) => a - b)).toEqual(
        (id === 1 ? [e.chair.id, e.treasurer.id] : [byChair.id, bySecretary.id]).sort((a, b) => a - b),
      );
      expect(report.tallies.reduce((n, r) => n + r.count, 0)).toBe(ROUNDS * 2);
    }
  });
});
