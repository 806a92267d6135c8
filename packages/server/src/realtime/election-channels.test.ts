import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DetailedResultsUpdatePayload, StatisticsUpdatePayload, VoteResultsUpdatedPayload } from '@kura/contract';
import { election, organisation } from '../db/schema';
import { apiClient } from '../../test/client';
import { createCandidate, createPosition, tokenFor } from '../../test/factories';
import { createTestApp, type TestApp, type TestDatabase } from '../../test/harness';
import { createElection, createVoter, type Election } from '../../test/voting/election';
import { connectClient, listen, record, sleep, subscribe, waitFor, type Client, type Running } from '../../test/voting/sockets';

/**
 * Realtime channels of several elections (docs/api.md "Realtime"): `votes:N`, `results:N`,
 * `statistics:N` carry election N only, the bare names follow the current election, and an
 * unknown, archived or malformed suffix is refused.
 */
let t: TestApp;
let e: Election;
let running: Running;
let admin: string;
let agent: string;
let by: number;
let archived: number;
let byPosition: { id: number };
let byCandidate: { id: number };
const clients: Client[] = [];

const asAdmin = () => apiClient(t.app, admin);
const toggleOn = (electionId: number) => asAdmin().elections.toggleElection({ query: { election_id: electionId }, body: { status: true } });
const client = async (token?: string) => {
  const c = await connectClient(running.url, token);
  clients.push(c);
  return c;
};
const voteIn = (electionId: number, token: string, candidates: Record<number, number>) =>
  apiClient(t.app, token).ballots.castVote({ query: { election_id: electionId }, body: { candidates } });

beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  admin = await tokenFor(t.ctx, 'admin');
  agent = await tokenFor(t.ctx, 'agent');
  e = await createElection(t.ctx);
  const db = t.ctx.database.db;
  const [row] = await db.insert(election).values({ title: 'By-election' }).returning({ id: election.id });
  by = row!.id;
  const [old] = await db
    .insert(election)
    .values({ title: 'Elections 2025', archived: true, closedAt: new Date('2025-06-01T00:00:00Z') })
    .returning({ id: election.id });
  archived = old!.id;
  byPosition = await createPosition(t.ctx, { name: 'By Chair', electionId: by });
  byCandidate = await createCandidate(t.ctx, [byPosition.id], { name: 'By Candidate' });
  await t.ctx.voting.tallyOf(by).refreshStructure();
  await db.update(organisation).set({ currentElectionId: 1 });
  running = await listen(t.ctx, t.app, { databaseUrl: (t.ctx.database as TestDatabase).url });
  expect((await toggleOn(1)).status).toBe(200);
  expect((await toggleOn(by)).status).toBe(200);
  await Promise.all([t.ctx.voting.tallyOf(1).idle(), t.ctx.voting.tallyOf(by).idle()]);
});
afterAll(async () => {
  clients.forEach((c) => c.disconnect());
  await running?.close();
  await t?.close();
});

const positionsIn = (payloads: { results: { position_id: number }[] }[]) =>
  new Set(payloads.flatMap((p) => p.results.map((r) => r.position_id)));

describe('channels of one election', () => {
  it('admits a suffix naming an election that exists and is not archived; refuses the rest without harm', async () => {
    const anonymous = await client();
    expect(await subscribe(anonymous, ['votes:1', `results:${by}`, `statistics:${by}`])).toEqual({
      joined: ['votes:1', `results:${by}`],
      denied: [`statistics:${by}`],
    });
    const garbage = [
      'votes:999999',
      `results:${archived}`,
      'votes:0',
      'votes:01',
      'votes:-1',
      'votes:abc',
      'votes:',
      'votes:1:2',
      'results:99999999999',
      'results:2147483648',
      'VOTES:1',
      'statistics:1 ',
    ];
    expect(await subscribe(anonymous, garbage)).toEqual({ joined: [], denied: garbage });
    expect(await subscribe(await client(agent), [`statistics:${by}`, `statistics:${archived}`, 'statistics'])).toEqual({
      joined: [`statistics:${by}`, 'statistics'],
      denied: [`statistics:${archived}`],
    });
    // The connection still works after all that.
    expect(await subscribe(anonymous, ['votes'])).toEqual({ joined: ['votes'], denied: [] });
  });

  it("sends each watcher its own election's events only, with the election named; the bare names follow the current election", async () => {
    const one = await client();
    const two = await client();
    const bare = await client();
    const staffOne = await client(agent);
    const staffTwo = await client(admin);
    await subscribe(one, ['votes:1', 'results:1']);
    await subscribe(two, [`votes:${by}`, `results:${by}`]);
    await subscribe(bare, ['votes', 'results']);
    await subscribe(staffOne, ['statistics:1']);
    await subscribe(staffTwo, [`statistics:${by}`]);
    const seen = {
      oneVotes: record(one, 'VoteResultsUpdated'),
      oneResults: record(one, 'DetailedResultsUpdate'),
      twoVotes: record(two, 'VoteResultsUpdated'),
      twoResults: record(two, 'DetailedResultsUpdate'),
      bareVotes: record(bare, 'VoteResultsUpdated'),
      bareResults: record(bare, 'DetailedResultsUpdate'),
      statsOne: record(staffOne, 'StatisticsUpdate'),
      statsTwo: record(staffTwo, 'StatisticsUpdate'),
    };

    // One member votes in both elections (their rolls overlap: every member).
    const { token } = await createVoter(t.ctx);
    expect((await voteIn(1, token, { [e.chair.id]: e.alice.id })).status).toBe(201);
    expect((await voteIn(by, token, { [byPosition.id]: byCandidate.id })).status).toBe(201);
    const total = (payloads: { results: { position_id: number; total: number }[] }[], positionId: number) =>
      payloads.at(-1)?.results.find((r) => r.position_id === positionId)?.total;
    await waitFor(
      () =>
        total(seen.oneResults, e.chair.id) === 1 &&
        total(seen.twoResults, byPosition.id) === 1 &&
        total(seen.bareResults, e.chair.id) === 1 &&
        seen.statsOne.at(-1)?.statistics.votesCasted === 1 &&
        seen.statsTwo.at(-1)?.statistics.votesCasted === 1,
      10_000,
      'every watcher to see its own election after the votes',
    );
    await sleep(400);

    for (const p of [...seen.oneVotes, ...seen.bareVotes]) expect(VoteResultsUpdatedPayload.parse(p).election_id).toBe(1);
    for (const p of [...seen.oneResults, ...seen.bareResults]) expect(DetailedResultsUpdatePayload.parse(p).election_id).toBe(1);
    for (const p of seen.twoVotes) expect(VoteResultsUpdatedPayload.parse(p).election_id).toBe(by);
    for (const p of seen.twoResults) expect(DetailedResultsUpdatePayload.parse(p).election_id).toBe(by);
    for (const p of seen.statsOne) expect(StatisticsUpdatePayload.parse(p).election_id).toBe(1);
    for (const p of seen.statsTwo) expect(StatisticsUpdatePayload.parse(p).election_id).toBe(by);
    // No position of the other election ever reaches a watcher.
    expect(positionsIn([...seen.oneVotes, ...seen.oneResults, ...seen.bareVotes, ...seen.bareResults])).not.toContain(byPosition.id);
    expect([...positionsIn([...seen.twoVotes, ...seen.twoResults])]).toEqual([byPosition.id]);

    // The by-election becomes the current one: the bare names now carry it, and election 1 no more.
    for (const list of Object.values(seen)) list.splice(0);
    expect((await asAdmin().organisation.updateOrganisation({ body: { current_election_id: by } })).status).toBe(200);
    await waitFor(() => seen.bareResults.some((p) => p.election_id === by), 10_000, 'the bare channel to follow the current election');
    seen.bareResults.splice(0);
    seen.bareVotes.splice(0);
    const other = await createVoter(t.ctx);
    expect((await voteIn(1, other.token, { [e.chair.id]: e.brian.id })).status).toBe(201);
    expect((await voteIn(by, other.token, { [byPosition.id]: byCandidate.id })).status).toBe(201);
    await waitFor(
      () => total(seen.bareResults, byPosition.id) === 2 && total(seen.oneResults, e.chair.id) === 2,
      10_000,
      'the bare watcher to see the by-election',
    );
    await sleep(400);
    expect(new Set([...seen.bareVotes, ...seen.bareResults].map((p) => p.election_id))).toEqual(new Set([by]));
    expect(new Set([...seen.oneVotes, ...seen.oneResults].map((p) => p.election_id))).toEqual(new Set([1]));
    expect(new Set([...seen.twoVotes, ...seen.twoResults].map((p) => p.election_id))).toEqual(new Set([by]));
    expect((await asAdmin().organisation.updateOrganisation({ body: { current_election_id: 1 } })).status).toBe(200);
  });

  it("applies each election's own results visibility to its rooms", async () => {
    const watcher = await client();
    expect(await subscribe(watcher, ['results:1', `results:${by}`])).toEqual({ joined: ['results:1', `results:${by}`], denied: [] });
    const got = record(watcher, 'DetailedResultsUpdate');
    // The by-election hides its counts from the public: the socket leaves its room, not election 1's.
    expect((await asAdmin().elections.updateElection({ query: { election_id: by }, body: { results_visibility: 'staff' } })).status).toBe(
      200,
    );
    await sleep(200);
    expect(await subscribe(await client(), [`results:${by}`, 'results:1'])).toEqual({ joined: ['results:1'], denied: [`results:${by}`] });
    const { token } = await createVoter(t.ctx);
    expect((await voteIn(by, token, { [byPosition.id]: byCandidate.id })).status).toBe(201);
    expect((await voteIn(1, token, { [e.chair.id]: e.alice.id })).status).toBe(201);
    await waitFor(() => got.some((p) => p.election_id === 1), 10_000, "election 1's emit");
    await sleep(400);
    expect(got.filter((p) => p.election_id === by)).toEqual([]);
    // Staff still may watch it.
    expect(await subscribe(await client(agent), [`results:${by}`])).toEqual({ joined: [`results:${by}`], denied: [] });
    expect((await asAdmin().elections.updateElection({ query: { election_id: by }, body: { results_visibility: 'live' } })).status).toBe(
      200,
    );
  });

  it("takes every election's statistics channel away from a socket whose session ends, and keeps the public ones", async () => {
    const token = await tokenFor(t.ctx, 'agent');
    const staff = await client(token);
    expect(await subscribe(staff, [`statistics:${by}`, 'statistics:1', `votes:${by}`])).toEqual({
      joined: [`statistics:${by}`, 'statistics:1', `votes:${by}`],
      denied: [],
    });
    const stats = record(staff, 'StatisticsUpdate');
    const totals = record(staff, 'VoteResultsUpdated');
    // Emits still owed to the earlier tests' votes (a trailing run comes up to a window later)
    // may reach the socket while its session is live, the logout's own time included (CI, under
    // load: election 1's statistics emitted while the logout ran): only what follows the logout
    // counts. The socket leaves the staff rooms as the logout answers; what was sent before
    // arrives within the pause.
    await sleep(400);
    expect((await apiClient(t.app, token).auth.logout()).status).toBeLessThan(300);
    await sleep(400);
    stats.splice(0);
    totals.splice(0);
    const { token: voter } = await createVoter(t.ctx);
    expect((await voteIn(by, voter, { [byPosition.id]: byCandidate.id })).status).toBe(201);
    await waitFor(() => totals.some((p) => p.election_id === by), 10_000, 'the public channel to carry on');
    await sleep(400);
    expect(stats).toEqual([]);
    expect(await subscribe(staff, [`statistics:${by}`])).toEqual({ joined: [], denied: [`statistics:${by}`] });
  });
});
