import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { election, organisation } from '../../db/schema';
import { bearer, createCandidate, createPosition, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createVoter } from '../../../test/voting/election';
import { verifyAudit } from '../declaration';

/**
 * Two elections in one installation (docs/api.md "Many elections"): `?election_id=N` scopes every
 * call of the voting and results family, the bare calls act on the current election, and one
 * election's positions, ballots, results, statistics and commitments never show in the other's.
 */
let t: TestApp;
let admin: string;
let agent: string;
let byElection: number;
let annual: { id: number; name: string };
let annualCandidate: { id: number };
let by: { id: number; name: string };
let byCandidate: { id: number };

const api = (method: 'get' | 'post' | 'put', path: string, token: string | null = admin) => {
  const r = request(t.app)[method](`/api/v1/${path}`);
  return token ? r.set(bearer(token)) : r;
};

beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  admin = await tokenFor(t.ctx, 'admin');
  agent = await tokenFor(t.ctx, 'agent');
  const [row] = await t.ctx.database.db.insert(election).values({ title: 'By-election' }).returning({ id: election.id });
  byElection = row!.id;
  annual = await createPosition(t.ctx, { name: 'Annual Trustee' });
  // The same name and level as a position of election 1 (the sample structure's): names are per election.
  by = await createPosition(t.ctx, { name: 'Chairperson', electionId: byElection });
  annualCandidate = await createCandidate(t.ctx, [annual.id], { name: 'Annual Candidate' });
  byCandidate = await createCandidate(t.ctx, [by.id], { name: 'By Candidate' });
  await t.ctx.voting.tallyOf(1).refreshStructure();
  await t.ctx.voting.tallyOf(byElection).refreshStructure();
});
afterAll(async () => {
  await t?.close();
});

const positionIds = (body: { data: { id: number }[] }) => body.data.map((p) => p.id);

describe('?election_id scopes the voting and results family', () => {
  it('lists each election its own positions and candidates; the bare call is the current election (1)', async () => {
    const current = positionIds((await api('get', 'psk/positions', null)).body);
    expect(current).toContain(annual.id);
    expect(current).not.toContain(by.id);
    expect(positionIds((await api('get', `psk/positions?election_id=${byElection}`, null)).body)).toEqual([by.id]);
    expect(positionIds((await api('get', 'psk/positions?election_id=1', null)).body)).toEqual(current);
    const candidates = await api('get', `psk/candidates?election_id=${byElection}`);
    expect(candidates.body.data.data.candidates.map((c: { id: number }) => c.id)).toEqual([byCandidate.id]);
    expect((await api('get', 'psk/candidates')).body.data.data.candidates.map((c: { id: number }) => c.id)).toEqual([annualCandidate.id]);
  });

  it('answers 404 in the envelope for an unknown or malformed election id', async () => {
    for (const bad of ['999999', 'abc', '0', '-1', '1.5', '99999999999999999999']) {
      const res = await api('get', `psk/positions?election_id=${bad}`, null);
      expect(res.status, bad).toBe(404);
      expect(res.body, bad).toEqual({ message: 'No such election' });
    }
    expect((await api('get', 'psk/results?election_id=424242', null)).status).toBe(404);
    expect((await api('post', 'toggle?election_id=424242').send({ status: true })).status).toBe(404);
    // Routes with a query of their own (the contract merges ?election_id into it) answer alike.
    for (const path of ['psk/results/export?election_id=abc', 'psk/results/ballots?position_id=1&election_id=abc']) {
      const res = await api('get', path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).toEqual({ message: 'No such election' });
    }
  });

  it('toggles, votes, counts and commits each election apart', async () => {
    const { token } = await createVoter(t.ctx);
    // Only the by-election is open: its ballot and vote work, election 1's vote is refused.
    expect((await api('post', `toggle?election_id=${byElection}`).send({ status: true })).body.active).toBe('1');
    expect((await api('get', 'psk/election/status', null)).body).toEqual({ active: '0' });
    expect((await api('get', `psk/election/status?election_id=${byElection}`, null)).body).toEqual({ active: '1' });

    const ballot = await api('get', `psk/candidates/v2?election_id=${byElection}`, token);
    expect(ballot.body.data.map((g: { position_id: number }) => g.position_id)).toEqual([by.id]);
    const own = (await api('get', 'psk/candidates/v2', token)).body.data.map((g: { position_id: number }) => g.position_id);
    expect(own).toContain(annual.id);
    expect(own).not.toContain(by.id);

    const refused = await api('post', 'psk/vote', token).send({ candidates: { [annual.id]: annualCandidate.id } });
    expect(refused.status).toBe(403);
    // A position of election 1 is no position of the by-election's ballot.
    const crossed = await api('post', `psk/vote?election_id=${byElection}`, token).send({
      candidates: { [annual.id]: annualCandidate.id },
    });
    expect(crossed.status).toBe(422);
    expect(crossed.body.errors[`candidates.${annual.id}`]).toEqual(['The selected position does not exist']);

    // The vote resolves its election inside its one statement: an unknown or malformed id is a 404, nothing recorded.
    for (const bad of ['424242', 'abc']) {
      const unknown = await api('post', `psk/vote?election_id=${bad}`, token).send({ candidates: { [by.id]: byCandidate.id } });
      expect([unknown.status, unknown.body], bad).toEqual([404, { message: 'No such election' }]);
    }
    const cast = await api('post', `psk/vote?election_id=${byElection}`, token).send({ candidates: { [by.id]: byCandidate.id } });
    expect(cast.status).toBe(201);
    // Without a parameter the vote goes to the current election: named by the organisation, it is the by-election.
    expect((await api('put', 'organisation').send({ current_election_id: byElection })).status).toBe(200);
    const again = await api('post', 'psk/vote', token).send({ candidates: { [by.id]: byCandidate.id } });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain(by.name);
    expect((await api('put', 'organisation').send({ current_election_id: 1 })).status).toBe(200);

    // Election 1 opens too: the same member votes there separately.
    expect((await api('post', 'toggle').send({ status: true })).body.active).toBe('1');
    // A toggle rebuilds the snapshots; a vote arriving meanwhile is counted when the rebuild ends.
    await Promise.all([t.ctx.voting.tallyOf(1).idle(), t.ctx.voting.tallyOf(byElection).idle()]);
    const second = await api('post', 'psk/vote', token).send({ candidates: { [annual.id]: annualCandidate.id } });
    expect(second.status).toBe(201);

    await Promise.all([t.ctx.voting.tallyOf(1).idle(), t.ctx.voting.tallyOf(byElection).idle()]);
    const results = async (query: string) =>
      (await api('get', `psk/results${query}`, null)).body.data.data.map((g: { position_id: number; total: number }) => [
        g.position_id,
        g.total,
      ]);
    expect(await results('')).toContainEqual([annual.id, 1]);
    expect((await results('')).map(([id]: [number]) => id)).not.toContain(by.id);
    expect(await results(`?election_id=${byElection}`)).toEqual([[by.id, 1]]);
    expect(
      (await api('get', `agent/results?election_id=${byElection}`, agent)).body.data.data.map(
        (g: { position_id: number }) => g.position_id,
      ),
    ).toEqual([by.id]);

    const stats = (await api('get', `statistics?election_id=${byElection}`)).body.data.data;
    expect(stats).toMatchObject({ votesCasted: 1, membersVoted: 1 });
    expect((await api('get', 'statistics')).body.data.data).toMatchObject({ votesCasted: 1, membersVoted: 1 });

    // Each election's commitments cover its own ballots; the audit of each passes.
    const commitments = (await api('get', `psk/commitments?election_id=${byElection}`, null)).body.data;
    expect(commitments.length).toBeGreaterThan(0);
    expect((await api('get', 'psk/commitments', null)).body.data.length).toBeGreaterThan(0);
    // the mixer's batch comes with them, so a small election's 0 ballots can be explained (issue 37)
    expect((await api('get', `psk/commitments?election_id=${byElection}`, null)).body.mix_batch).toBe(t.ctx.env.MIX_MIN_BATCH);
    expect((await verifyAudit(t.ctx, 1)).problems).toEqual([]);
    expect((await verifyAudit(t.ctx, byElection)).problems).toEqual([]);
  });

  it('GET/PUT election act on the named election; the organisation texts are shared', async () => {
    const put = await api('put', `election?election_id=${byElection}`).send({ title: 'By-election 2026', organisation: 'Umoja Sacco' });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ title: 'By-election 2026', organisation: 'Umoja Sacco' });
    const current = (await api('get', 'election', null)).body.data;
    expect(current.title).not.toBe('By-election 2026');
    expect(current.organisation).toBe('Umoja Sacco');
  });

  it('resolves the current election: the organisation choice, else the only open one, else the newest not archived', async () => {
    const db = t.ctx.database.db;
    const status = async () => (await api('get', 'election', null)).body.data.title;
    await db.update(organisation).set({ currentElectionId: byElection });
    expect(await status()).toBe('By-election 2026');
    await db.update(organisation).set({ currentElectionId: null });
    // Both are open: the newest not archived (the by-election).
    expect(await status()).toBe('By-election 2026');
    await api('post', `toggle?election_id=${byElection}`).send({ status: false });
    // Only election 1 is open now.
    expect((await api('get', 'election', null)).body.data.phase).toBe('open');
    expect(await status()).not.toBe('By-election 2026');
    await db.update(organisation).set({ currentElectionId: 1 });
  });
});

describe('an election in set-up (docs/api.md "Ballot eligibility")', () => {
  it('shows a voter its ballot, as public as its positions and candidates already are, and takes no vote in it', async () => {
    const [row] = await t.ctx.database.db.insert(election).values({ title: 'Draft by-election' }).returning({ id: election.id });
    const draft = row!.id;
    const seat = await createPosition(t.ctx, { name: 'Draft Seat', electionId: draft });
    const standing = await createCandidate(t.ctx, [seat.id], { name: 'Draft Candidate' });
    await t.ctx.voting.tallyOf(draft).refreshStructure();
    expect((await api('get', `election?election_id=${draft}`, null)).body.data.phase).toBe('setup');

    // Anyone may read the draft's positions and (results visibility `live`) its candidates...
    expect(positionIds((await api('get', `psk/positions?election_id=${draft}`, null)).body)).toEqual([seat.id]);
    const results = (await api('get', `psk/results?election_id=${draft}`, null)).body.data.data;
    expect(results.flatMap((g: { values: { name: string }[] }) => g.values.map((v) => v.name))).toEqual(['Draft Candidate']);
    // ...so the voter's ballot shows nothing more.
    const { token } = await createVoter(t.ctx);
    const ballot = (await api('get', `psk/candidates/v2?election_id=${draft}`, token)).body.data;
    expect(
      ballot.map((g: { position_id: number; candidates: { id: number }[] }) => [g.position_id, g.candidates.map((c) => c.id)]),
    ).toEqual([[seat.id, [standing.id]]]);

    const vote = await api('post', `psk/vote?election_id=${draft}`, token).send({ candidates: { [seat.id]: standing.id } });
    expect(vote.status).toBe(403);
    expect((await api('get', `statistics?election_id=${draft}`)).body.data.data).toMatchObject({ votesCasted: 0, membersVoted: 0 });
  });
});
