import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members } from '../../db/schema';
import { apiClient, bodyOf, multipart, type ApiClient } from '../../../test/client';
import { branchId, createCandidate, createMember, createPosition, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';

/**
 * The roll (docs/api.md "The roll"): an election's electorate is frozen when voting first opens; a
 * member created afterwards, or moved into one of its branches afterwards, is not on it (empty
 * ballot, 403 "You are not on the roll for this election") and can vote in a later election.
 */
let t: TestApp;
let admin: ApiClient;
let anon: ApiClient;
beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  admin = apiClient(t.app, await tokenFor(t.ctx, 'admin'));
  anon = apiClient(t.app);
});
afterAll(async () => {
  await t?.close();
});

// `issue` says it in English whatever the caller's language (the ballot page compares it).
const NOT_ON_ROLL = { message: 'You are not on the roll for this election', issue: 'You are not on the roll for this election' };

async function openElection(title: string, branchIds: number[] | null) {
  const created = await admin.organisation.createElection({ body: { title, electorate: { branch_ids: branchIds } } });
  expect(created.status).toBe(201);
  const id = bodyOf(created, 201).data.id!;
  const position = await createPosition(t.ctx, { name: `Seat ${title}`, electionId: id });
  const candidate = await createCandidate(t.ctx, [position.id]);
  expect((await admin.elections.toggleElection({ query: { election_id: id }, body: { status: true } })).status).toBe(200);
  const election = await anon.organisation.getElectionById({ params: { id } });
  expect(bodyOf(election, 200).data.roll_frozen_at).toEqual(expect.any(String));
  return { id, position, candidate };
}

const ballotOf = async (id: number, token: string) =>
  bodyOf(await apiClient(t.app, token).ballots.getBallot({ query: { election_id: id } }), 200).data;
const voteIn = (id: number, token: string, choice: Record<number, number>) =>
  apiClient(t.app, token).ballots.castVote({ query: { election_id: id }, body: { candidates: choice } });

describe('the roll', () => {
  it('refuses a member created after voting opened (members/import), who votes in a later election', async () => {
    const e = await openElection('Annual', null);
    const before = await createMember(t.ctx);
    const imported = await admin.members.importMembers({
      query: {},
      body: multipart({
        file: {
          file: Buffer.from('member_no,name,email,phone,branch\n777001,Late Joiner,late@example.org,0700777001,Nairobi\n'),
          filename: 'members.csv',
        },
      }),
    });
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

    const moved = await admin.members.updateMember({
      params: { id: outsider.id },
      body: { name: outsider.name, phone: outsider.phone, email: outsider.email, county: mombasa, member_no: outsider.memberNo },
    });
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
    const res = await admin.organisation.updateElectionById({
      params: { id: e.id },
      body: { electorate: { branch_ids: [await branchId(t.ctx, 'Nairobi')] } },
    });
    expect(res.status).toBe(409);
  });

  it("gives the roll's size: the electorate's current size during set-up, the frozen roll's count once voting opened", async () => {
    const kisumu = await branchId(t.ctx, 'Kisumu');
    const sizeOf = async (id: number) => {
      const one = bodyOf(await anon.organisation.getElectionById({ params: { id } }), 200).data.roll_size;
      const listed = bodyOf(await admin.organisation.listElections(), 200).data.find((e) => e.id === id);
      expect(listed!.roll_size).toBe(one);
      return one;
    };
    const created = await admin.organisation.createElection({
      body: { title: 'Kisumu by-election', electorate: { branch_ids: [kisumu] } },
    });
    expect(created.status).toBe(201);
    const id = bodyOf(created, 201).data.id!;
    expect(bodyOf(created, 201).data.roll_size).toBe(0);
    // GET election names the election, whose elections/{id} carries the roll's size.
    expect(bodyOf(await anon.elections.getElection({ query: { election_id: id } }), 200).data.id).toBe(id);
    await createMember(t.ctx, { branch: 'Kisumu' });
    await createMember(t.ctx, { branch: 'Kisumu' });
    await createMember(t.ctx, { branch: 'Nairobi' });
    expect(await sizeOf(id)).toBe(2);
    const everyone = bodyOf(await admin.organisation.createElection({ body: { title: 'Everyone' } }), 201).data;
    const [{ n }] = (await t.ctx.database.db.execute<{ n: number }>(sql`select count(*)::int as n from members`)) as unknown as [
      { n: number },
    ];
    expect(everyone.roll_size).toBe(n);

    const position = await createPosition(t.ctx, { name: 'Seat Kisumu', electionId: id });
    await createCandidate(t.ctx, [position.id], { branch: 'Kisumu' });
    expect(await sizeOf(id)).toBe(3);
    expect((await admin.elections.toggleElection({ query: { election_id: id }, body: { status: true } })).status).toBe(200);
    // Frozen: a member joining the branch afterwards is not on the roll, and not counted.
    await createMember(t.ctx, { branch: 'Kisumu', onRoll: false });
    expect(await sizeOf(id)).toBe(3);
    expect(bodyOf(await anon.organisation.getElectionById({ params: { id: everyone.id! } }), 200).data.roll_size).toBe(n + 2);

    // Its statistics count its roll, not the whole register: 3 members, none voted, none verified.
    t.ctx.voting.tallyOf(id).invalidateMembers();
    const stats = bodyOf(await admin.elections.getStatistics({ query: { election_id: id } }), 200).data.data;
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
