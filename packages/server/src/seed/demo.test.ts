import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareData } from '../bootstrap';
import { createTestApp, type TestApp } from '../../test/harness';
import { verifyAudit } from '../modules/declaration';
import { apiClient, bodyOf } from '../../test/client';
import { tokenFor } from '../../test/factories';
import { DEMO_PAST_ELECTION, DEMO_VOTER_MEMBER_NO, KENYA_COUNTIES } from './demo';

/** The demo election, set up through the admin's services on an empty database. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seedReference: false, env: { SEED_DEMO: '1' } });
});
afterAll(async () => {
  await t?.close();
});

describe('demo seed', () => {
  it('sets up the sample election through the set-up services, each step in the activity log', async () => {
    const report = await prepareData(t.ctx);
    expect(report.seeded).toBe(true);
    const anon = apiClient(t.app);
    const election = bodyOf(await anon.elections.getElection(), 200).data;
    expect(election).toMatchObject({ organisation: 'Pharmaceutical Society of Kenya', title: 'PSK Elections 2025', phase: 'setup' });
    const [counts] = await t.ctx.database.db.execute<{
      branches: number;
      national: number;
      branch: number;
      members: number;
      candidates: number;
    }>(sql`
      select (select count(*) from branches)::int as branches,
             (select count(*) from positions where level = 'National' and election_id = 1)::int as national,
             (select count(*) from positions where branch_id is not null and election_id = 1)::int as branch,
             (select count(*) from members)::int as members,
             (select count(distinct member_id) from candidacies c join positions p on p.id = c.position_id where p.election_id = 1)::int as candidates`);
    expect(counts).toMatchObject({ branches: KENYA_COUNTIES.length, national: 5, branch: KENYA_COUNTIES.length, members: 400 });
    expect(counts!.candidates).toBeGreaterThan(20);
    const [logs] = await t.ctx.database.db.execute<{ activity: string; n: number }>(sql`
      select count(*)::int as n from activity_logs where name = 'Demo seed' and activity in ('Branch created', 'Position created', 'Members imported', 'Positions assigned')`);
    expect(logs!.n).toBeGreaterThan(KENYA_COUNTIES.length + 6);

    // Last year's election: closed with its declared result, archived, listed for staff only.
    const admin = apiClient(t.app, await tokenFor(t.ctx, 'admin'));
    const listed = bodyOf(await admin.organisation.listElections(), 200).data.map((e) => ({ ...e, id: e.id! }));
    const past = listed.find((e) => e.title === DEMO_PAST_ELECTION.title)!;
    expect(past).toMatchObject({ phase: 'closed', archived: true, roll_size: 400 });
    expect(listed.map((e) => e.title)).toContain('PSK Elections 2025');
    expect(bodyOf(await anon.organisation.listElections(), 200).data.map((e) => e.id)).not.toContain(past.id);
    expect(bodyOf(await anon.organisation.getOrganisation(), 200).data.current_election_id ?? 1).toBe(1);
    const final = await anon.lifecycle.getFinalResults({ query: { election_id: past.id } });
    expect(final.status).toBe(200);
    const declared = bodyOf(final, 200).data;
    expect(declared).toHaveLength(DEMO_PAST_ELECTION.positions.length + 1);
    expect(declared.find((r) => r.kind === 'motion')).toMatchObject({ title: expect.stringContaining(DEMO_PAST_ELECTION.motion) });
    const commitments = bodyOf(await anon.elections.listCommitments({ query: { election_id: past.id } }), 200).data;
    expect(commitments.length).toBeGreaterThanOrEqual(2);
    expect(commitments[0]!.count).toBeGreaterThanOrEqual(DEMO_PAST_ELECTION.voters * 2);
    // Member 1002 voted last year: their receipts name that election; the demo voter (1001) did not.
    const [voter] = await t.ctx.database.db.execute<{ id: number }>(sql`select id from members where member_no = '1002'`);
    const [demoVoter] = await t.ctx.database.db.execute<{ id: number }>(
      sql`select id from members where member_no = ${DEMO_VOTER_MEMBER_NO}`,
    );
    const none = await apiClient(t.app, await tokenFor(t.ctx, 'voter', demoVoter!.id)).vvpat.getMyVvpat();
    expect(bodyOf(none, 200).data.votes).toEqual([]);
    const receipts = bodyOf(await apiClient(t.app, await tokenFor(t.ctx, 'voter', voter!.id)).vvpat.getMyVvpat(), 200).data.votes;
    expect(receipts.length).toBeGreaterThanOrEqual(2);
    expect(receipts.every((v) => v.election === DEMO_PAST_ELECTION.title)).toBe(true);
    // The audit passes on every election of the demo.
    for (const e of listed) expect((await verifyAudit(t.ctx, e.id)).problems, e.title).toEqual([]);

    // A second start seeds nothing more.
    expect((await prepareData(t.ctx)).seeded).toBe(false);
  });
});
