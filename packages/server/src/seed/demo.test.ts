import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareData } from '../bootstrap';
import { createTestApp, type TestApp } from '../../test/harness';
import { KENYA_COUNTIES } from './demo';

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
    const election = (await request(t.app).get('/api/v1/election')).body.data;
    expect(election).toMatchObject({ organisation: 'Pharmaceutical Society of Kenya', title: 'PSK Elections 2025', phase: 'setup' });
    const [counts] = await t.ctx.database.db.execute<{
      branches: number;
      national: number;
      branch: number;
      members: number;
      candidates: number;
    }>(sql`
      select (select count(*) from branches)::int as branches,
             (select count(*) from positions where level = 'National')::int as national,
             (select count(*) from positions where branch_id is not null)::int as branch,
             (select count(*) from members)::int as members,
             (select count(distinct member_id) from candidacies)::int as candidates`);
    expect(counts).toMatchObject({ branches: KENYA_COUNTIES.length, national: 5, branch: KENYA_COUNTIES.length, members: 400 });
    expect(counts!.candidates).toBeGreaterThan(20);
    const [logs] = await t.ctx.database.db.execute<{ activity: string; n: number }>(sql`
      select count(*)::int as n from activity_logs where name = 'Demo seed' and activity in ('Branch created', 'Position created', 'Members imported', 'Positions assigned')`);
    expect(logs!.n).toBeGreaterThan(KENYA_COUNTIES.length + 6);
    // A second start seeds nothing more.
    expect((await prepareData(t.ctx)).seeded).toBe(false);
  });
});
