import { eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members } from '../../db/schema';
import { bearer, branchId, createCandidate, createMember, createPosition, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';

/**
 * The roll (docs/api.md "The roll"): an election's electorate is frozen when voting first opens; a
 * member created afterwards, or moved into one of its branches afterwards, is not on it (empty
 * ballot, 403 "You are not on the roll for this election") and can vote in a later election.
 */
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  admin = await tokenFor(t.ctx, 'admin');
});
afterAll(async () => {
  await t?.close();
});

// `issue` says it in English whatever the caller's language (the ballot page compares it).
const NOT_ON_ROLL = { message: 'You are not on the roll for this election', issue: 'You are not on the roll for this election' };

async function openElection(title: string, branchIds: number[] | null) {
  const created = await request(t.app)
    .post('/api/v1/elections')
    .set(bearer(admin))
    .send({ title, electorate: { branch_ids: branchIds } });
  expect(created.status).toBe(201);
  const id = created.body.data.id as number;
  const position = await createPosition(t.ctx, { name: `Seat ${title}`, electionId: id });
  const candidate = await createCandidate(t.ctx, [position.id]);
  expect((await request(t.app).post(`/api/v1/toggle?election_id=${id}`).set(bearer(admin)).send({ status: true })).status).toBe(200);
  const election = await request(t.app).get(`/api/v1/elections/${id}`);
  expect(election.body.data.roll_frozen_at).toEqual(expect.any(String));
  return { id, position, candidate };
}

const ballotOf = async (id: number, token: string) =>
  (await request(t.app).get(`/api/v1/psk/candidates/v2?election_id=${id}`).set(bearer(token))).body.data as unknown[];
const voteIn = (id: number, token: string, choice: Record<number, number>) =>
  request(t.app).post(`/api/v1/psk/vote?election_id=${id}`).set(bearer(token)).send({ candidates: choice });

describe('the roll', () => {
  it('refuses a member created after voting opened (members/import), who votes in a later election', async () => {
    const e = await openElection('Annual', null);
    const before = await createMember(t.ctx);
    const imported = await request(t.app)
      .post('/api/v1/members/import')
      .set(bearer(admin))
      .attach(
        'file',
        Buffer.from('member_no,name,email,phone,branch\n777001,Late Joiner,late@example.org,0700777001,Nairobi\n'),
        'members.csv',
      );
    expect(imported.body).toMatchObject({ created: 1 });
    const [late] = await t.ctx.database.db.select().from(members).where(eq(members.memberNo, '777001'));
    const lateToken = await tokenFor(t.ctx, 'voter', late!.id);

    expect(await ballotOf(e.id, lateToken)).toEqual([]);
    const refused = await voteIn(e.id, lateToken, { [e.position.id]: e.candidate.id });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(NOT_ON_ROLL);
    expect((await voteIn(e.id, await tokenFor(t.ctx, 'voter', before.id), { [e.position.id]: e.candidate.id })).status).toBe(201);

    // A later election's roll takes them.
    const next = await openElection('Next year', null);
    expect(await ballotOf(next.id, lateToken)).toHaveLength(1);
    expect((await voteIn(next.id, lateToken, { [next.position.id]: next.candidate.id })).status).toBe(201);
  });

  it('refuses a member moved into the electorate branches after voting opened', async () => {
    const mombasa = await branchId(t.ctx, 'Mombasa');
    const insider = await createMember(t.ctx, { branch: 'Mombasa' });
    const outsider = await createMember(t.ctx, { branch: 'Nairobi' });
    const e = await openElection('Mombasa by-election', [mombasa]);
    const outsiderToken = await tokenFor(t.ctx, 'voter', outsider.id);
    expect(await ballotOf(e.id, outsiderToken)).toEqual([]);

    const moved = await request(t.app)
      .post(`/api/v1/edit/psk/member/${outsider.id}`)
      .set(bearer(admin))
      .send({ name: outsider.name, phone: outsider.phone, email: outsider.email, county: mombasa, member_no: outsider.memberNo });
    expect(moved.status).toBe(200);
    expect(await ballotOf(e.id, outsiderToken)).toEqual([]);
    const refused = await voteIn(e.id, outsiderToken, { [e.position.id]: e.candidate.id });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(NOT_ON_ROLL);

    const insiderToken = await tokenFor(t.ctx, 'voter', insider.id);
    expect(await ballotOf(e.id, insiderToken)).toHaveLength(1);
    expect((await voteIn(e.id, insiderToken, { [e.position.id]: e.candidate.id })).status).toBe(201);
  });

  it('keeps the electorate final once voting opened (409)', async () => {
    const e = await openElection('Frozen', null);
    const res = await request(t.app)
      .patch(`/api/v1/elections/${e.id}`)
      .set(bearer(admin))
      .send({ electorate: { branch_ids: [await branchId(t.ctx, 'Nairobi')] } });
    expect(res.status).toBe(409);
  });

  it("gives the roll's size: the electorate's current size during set-up, the frozen roll's count once voting opened", async () => {
    const kisumu = await branchId(t.ctx, 'Kisumu');
    const sizeOf = async (id: number) => {
      const one = (await request(t.app).get(`/api/v1/elections/${id}`)).body.data.roll_size as number;
      const listed = (await request(t.app).get('/api/v1/elections').set(bearer(admin))).body.data.find((e: { id: number }) => e.id === id);
      expect(listed.roll_size).toBe(one);
      return one;
    };
    const created = await request(t.app)
      .post('/api/v1/elections')
      .set(bearer(admin))
      .send({ title: 'Kisumu by-election', electorate: { branch_ids: [kisumu] } });
    expect(created.status).toBe(201);
    const id = created.body.data.id as number;
    expect(created.body.data.roll_size).toBe(0);
    // GET election names the election, whose elections/{id} carries the roll's size.
    expect((await request(t.app).get(`/api/v1/election?election_id=${id}`)).body.data.id).toBe(id);
    await createMember(t.ctx, { branch: 'Kisumu' });
    await createMember(t.ctx, { branch: 'Kisumu' });
    await createMember(t.ctx, { branch: 'Nairobi' });
    expect(await sizeOf(id)).toBe(2);
    const everyone = (await request(t.app).post('/api/v1/elections').set(bearer(admin)).send({ title: 'Everyone' })).body.data;
    const [{ n }] = (await t.ctx.database.db.execute<{ n: number }>(sql`select count(*)::int as n from members`)) as unknown as [
      { n: number },
    ];
    expect(everyone.roll_size).toBe(n);

    const position = await createPosition(t.ctx, { name: 'Seat Kisumu', electionId: id });
    await createCandidate(t.ctx, [position.id], { branch: 'Kisumu' });
    expect(await sizeOf(id)).toBe(3);
    expect((await request(t.app).post(`/api/v1/toggle?election_id=${id}`).set(bearer(admin)).send({ status: true })).status).toBe(200);
    // Frozen: a member joining the branch afterwards is not on the roll, and not counted.
    await createMember(t.ctx, { branch: 'Kisumu', onRoll: false });
    expect(await sizeOf(id)).toBe(3);
    expect((await request(t.app).get(`/api/v1/elections/${everyone.id}`)).body.data.roll_size).toBe(n + 2);

    // Its statistics count its roll, not the whole register: 3 members, none voted, none verified.
    t.ctx.voting.tallyOf(id).invalidateMembers();
    const stats = (await request(t.app).get(`/api/v1/statistics?election_id=${id}`).set(bearer(admin))).body.data.data;
    expect(stats).toEqual({
      votesCasted: 0,
      verifiedMembers: 0,
      unverifiedMembers: 3,
      membersVoted: 0,
      membersNotVoted: 3,
      channels: { web: 0, ussd: 0 },
    });
  });
});
