import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DetailedResultsUpdatePayload, StatisticsUpdatePayload, VoteResultsUpdatedPayload } from '@kura/contract';
import { createApp } from '../app';
import { createContext } from '../bootstrap';
import { openDatabase } from '../db/client';
import { electionRoll, members } from '../db/schema';
import { sealPadded } from '../lib/crypto';
import { CURRENT_ELECTION } from '../db/election-store';
import { castVote } from '../modules/ballots';
import type { Express } from 'express';
import { apiClient, bodyOf } from '../../test/client';
import { branchId, tokenFor } from '../../test/factories';
import { TEST_DATABASE_URL, type TestApp, type TestDatabase } from '../../test/harness';
import { createVoter, vote, type Election } from '../../test/voting/election';
import { listen, record, sleep, subscribe, waitFor, type Running, startLiveElection, type LiveElection } from '../../test/voting/sockets';

let live: LiveElection;
let t: TestApp;
let e: Election;
let running: Running;
let admin: string;
let agent: string;
beforeAll(async () => {
  live = await startLiveElection();
  ({ t, e, running, admin, agent } = live);
});
afterAll(async () => {
  await live?.close();
});

const client = (token?: string) => live.client(token);
/** The live results' groups as the app answers them. */
const resultsOf = async (app: Express) => bodyOf(await apiClient(app).elections.getResults(), 200).data.data;
const chairTotal = (results: { position_id: number; total: number }[]) => results.find((r) => r.position_id === e.chair.id)?.total;

describe('channels', () => {
  it('lets anyone join votes and results, and only staff join statistics', async () => {
    const anonymous = await client();
    expect(await subscribe(anonymous, ['votes', 'results', 'statistics', 'nonsense'])).toEqual({
      joined: ['votes', 'results'],
      denied: ['statistics', 'nonsense'],
    });
    const voter = await client((await createVoter(t.ctx)).token);
    expect(await subscribe(voter, ['statistics'])).toEqual({ joined: [], denied: ['statistics'] });
    const badToken = await client('not-a-token');
    expect(await subscribe(badToken, ['statistics', 'votes'])).toEqual({ joined: ['votes'], denied: ['statistics'] });
    expect(await subscribe(await client(agent), ['statistics'])).toEqual({ joined: ['statistics'], denied: [] });
    expect(await subscribe(await client(admin), ['statistics'])).toEqual({ joined: ['statistics'], denied: [] });
    const junk = await client();
    expect(await subscribe(junk, 'votes' as unknown as string[])).toEqual({ joined: [], denied: [] });
  });

  it('delivers each event with its payload after a vote; statistics only to staff', async () => {
    const watcher = await client();
    await subscribe(watcher, ['votes', 'results', 'statistics']);
    const staff = await client(admin);
    await subscribe(staff, ['statistics']);
    const voterSocket = await client((await createVoter(t.ctx)).token);
    await subscribe(voterSocket, ['statistics', 'votes']);
    const totals = record(watcher, 'VoteResultsUpdated');
    const detailed = record(watcher, 'DetailedResultsUpdate');
    const refused = record(watcher, 'StatisticsUpdate');
    const refusedVoter = record(voterSocket, 'StatisticsUpdate');
    const stats = record(staff, 'StatisticsUpdate');

    const { token } = await createVoter(t.ctx);
    expect((await vote(t.app, token, { [e.chair.id]: e.alice.id, [e.treasurer.id]: e.carol.id })).status).toBe(201);
    await waitFor(() => totals.length > 0 && detailed.length > 0 && stats.length > 0, 10_000, 'emits');

    const results = await resultsOf(t.app);
    // The live payload carries the tally's counters; the split by channel (web, USSD) is the
    // statistics call's alone, read from the database (docs/api.md "Statistics").
    const { channels, ...statistics } = bodyOf(await apiClient(t.app, agent).elections.getAgentStatistics(), 200).data;
    // Members, not ballots: the one voter here voted on two positions through the web.
    expect(channels).toEqual({ web: 1, ussd: 0 });
    // The trailing emits carry this state; wait for them rather than guess how long a loaded machine takes.
    await waitFor(
      () =>
        JSON.stringify(detailed.at(-1)?.results) === JSON.stringify(results) &&
        JSON.stringify(stats.at(-1)?.statistics) === JSON.stringify(statistics) &&
        totals.length > 0,
      10_000,
      'the trailing emits with the state after the vote',
    );
    await sleep(100);
    expect(VoteResultsUpdatedPayload.parse(totals.at(-1))).toEqual({
      election_id: CURRENT_ELECTION,
      results: results.map((g: { position_id: number; title: string; total: number }) => ({
        position_id: g.position_id,
        title: g.title,
        total: g.total,
      })),
    });
    expect(DetailedResultsUpdatePayload.parse(detailed.at(-1))).toEqual({ election_id: CURRENT_ELECTION, results });
    expect(StatisticsUpdatePayload.parse(stats.at(-1))).toEqual({ election_id: CURRENT_ELECTION, statistics });
    expect(statistics.votesCasted).toBe(2);
    expect(refused).toEqual([]);
    expect(refusedVoter).toEqual([]);
  });

  it('reaches every watcher when a broadcast is written in slices, in order, past a socket that left', async () => {
    const watchers = await Promise.all(Array.from({ length: 7 }, () => client()));
    await Promise.all(watchers.map((w) => subscribe(w, ['results'])));
    const seen = watchers.map((w) => record(w, 'DetailedResultsUpdate'));
    watchers[3]!.disconnect();
    const live = seen.filter((_, i) => i !== 3);
    const start = chairTotal(await resultsOf(t.app))!;
    for (let i = 0; i < 3; i++) {
      const { token } = await createVoter(t.ctx);
      expect((await vote(t.app, token, { [e.chair.id]: e.alice.id })).status).toBe(201);
    }
    await waitFor(() => live.every((s) => chairTotal(s.at(-1)?.results ?? []) === start + 3), 10_000, 'the final state on every watcher');
    for (const s of live) {
      const totals = s.map((p) => chairTotal(p.results)!);
      expect(totals).toEqual([...totals].sort((a, b) => a - b));
    }
  });

  it('emits on a toggle too', async () => {
    const watcher = await client();
    await subscribe(watcher, ['results']);
    const detailed = record(watcher, 'DetailedResultsUpdate');
    const res = await apiClient(t.app, admin).elections.toggleElection({ body: { status: true } });
    expect(res.status).toBe(200);
    await waitFor(() => detailed.length > 0, 10_000, 'toggle emit');
  });

  it('coalesces a burst of 500 votes into few emits and always sends the final state', async () => {
    const watcher = await client();
    await subscribe(watcher, ['votes', 'results']);
    const staff = await client(agent);
    await subscribe(staff, ['statistics']);
    const detailed = record(watcher, 'DetailedResultsUpdate');
    const totals = record(watcher, 'VoteResultsUpdated');
    const stats = record(staff, 'StatisticsUpdate');
    const before = chairTotal(await resultsOf(t.app))!;

    const branch = await branchId(t.ctx, 'Nairobi');
    const voters = await t.ctx.database.db
      .insert(members)
      .values(
        Array.from({ length: 500 }, (_, i) => ({
          memberNo: `B${i}-${Date.now()}`,
          name: `Burst ${i}`,
          email: `burst${i}.${Date.now()}@example.org`,
          phone: '0700000000',
          branchId: branch,
        })),
      )
      .returning({ id: members.id, memberNo: members.memberNo });
    // Registered before voting opened: on the roll frozen then (written directly, like the members).
    await t.ctx.database.db
      .insert(electionRoll)
      .values(
        voters.map((v) => ({ electionId: CURRENT_ELECTION, memberId: v.id, branchId: branch, memberNo: v.memberNo, branch: 'Nairobi' })),
      );
    const started = Date.now();
    const queue = [...voters];
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let v = queue.pop(); v; v = queue.pop())
          await castVote(t.ctx, { memberId: v.id, ip: '' }, { [e.chair.id]: v.id % 2 ? e.alice.id : e.brian.id });
      }),
    );
    const elapsed = Date.now() - started;
    const seen = () =>
      `the final results emit (${before} + 500 expected, last emit ${chairTotal(detailed.at(-1)?.results ?? [])} of ${detailed.length}, REST ${chairTotal(t.ctx.voting.tallyOf(1).results())}, connected ${watcher.connected})`;
    await waitFor(() => chairTotal(detailed.at(-1)?.results ?? []) === before + 500, 10_000, seen);
    await waitFor(() => chairTotal(totals.at(-1)?.results ?? []) === before + 500, 10_000, 'final totals emit');
    await sleep(300);

    // At most one emit per 250 ms window, plus the first and the trailing one.
    const ceiling = Math.ceil((elapsed + 600) / 250) + 2;
    expect(detailed.length).toBeLessThanOrEqual(ceiling);
    expect(totals.length).toBeLessThanOrEqual(ceiling);
    // Coalesced: far fewer emits than votes (how few depends on how fast this machine casts them).
    expect(detailed.length).toBeLessThan(500 / 2);
    expect(detailed.at(-1)!.results).toEqual(await resultsOf(t.app));
    const [{ n }] = (await t.ctx.database.db.execute<{ n: number }>(
      sql`select (select count(*) from ballots) + (select count(*) from ballot_queue) as n`,
    )) as unknown as [{ n: number }];
    expect(stats.at(-1)!.statistics.votesCasted).toBe(Number(n));
  }, 120_000);

  it('takes the staff channels away from a socket whose session is revoked', async () => {
    const token = await tokenFor(t.ctx, 'agent');
    const staff = await client(token);
    await subscribe(staff, ['statistics']);
    const stats = record(staff, 'StatisticsUpdate');
    await apiClient(t.app, token).auth.logout();
    const { token: voter } = await createVoter(t.ctx);
    await vote(t.app, voter, { [e.chair.id]: e.alice.id });
    await sleep(600);
    expect(stats).toEqual([]);
  });
});

describe('session expiry', () => {
  it('takes the staff channels away once the session idles out', async () => {
    const other = await listen(t.ctx, t.app, { sessionRecheckMs: 100 });
    try {
      const staff = await live.client(await tokenFor(t.ctx, 'agent'), other.url);
      expect(await subscribe(staff, ['statistics'])).toEqual({ joined: ['statistics'], denied: [] });
      t.clock.advance((t.ctx.env.STAFF_SESSION_IDLE_MINUTES + 1) * 60_000);
      // The re-check runs every 100 ms and asks the database; on a loaded machine that takes a
      // while, so wait for its outcome (asking again is harmless while the session lives).
      await waitFor(
        async () => (await subscribe(staff, ['statistics'])).denied.includes('statistics'),
        10_000,
        'the idle session to lose the staff channel',
      );
      const stats = record(staff, 'StatisticsUpdate');
      const { token } = await createVoter(t.ctx);
      await vote(t.app, token, { [e.chair.id]: e.alice.id });
      await sleep(600);
      expect(stats).toEqual([]);
      expect(await subscribe(staff, ['statistics'])).toEqual({ joined: [], denied: ['statistics'] });
    } finally {
      await other.close();
    }
  });
});

describe('shutdown', () => {
  it('removes every domain-event listener the hub added, and only those', async () => {
    const events = t.ctx.events;
    const counts = () => Object.fromEntries(events.eventNames().map((name) => [name, events.listenerCount(name)]));
    const before = counts();
    const other = await listen(t.ctx, t.app);
    const attached = counts();
    expect(Object.keys(attached).some((name) => attached[name]! > (before[name] ?? 0))).toBe(true);
    await other.close();
    expect(Object.fromEntries(Object.entries(counts()).filter(([, n]) => n > 0))).toEqual(before);
  });
});

describe.skipIf(!TEST_DATABASE_URL)('scale-out (two server processes on one Postgres)', () => {
  it("delivers a vote cast on the second server to the first server's clients, and keeps both snapshots exact", async () => {
    const url = (t.ctx.database as TestDatabase).url!;
    const database = await openDatabase({ url, poolMax: 5 });
    const ctx2 = await createContext({ env: t.ctx.env, logger: t.ctx.logger, database, secrets: t.ctx.secrets, now: t.ctx.now });
    await ctx2.start();
    const app2 = createApp(ctx2);
    const second = await listen(ctx2, app2, { databaseUrl: url });
    try {
      // Wait until the second server's messages reach the first (its LISTEN connection is up).
      let heard = false;
      const first = running.realtime.io as unknown as { on(ev: string, fn: () => void): void };
      first.on('test:ping', () => (heard = true));
      await waitFor(
        () => {
          (second.realtime.io as unknown as { serverSideEmit(ev: string): void }).serverSideEmit('test:ping');
          return heard;
        },
        10_000,
        'the adapters to connect',
      );

      const watcher = await client();
      await subscribe(watcher, ['results', 'votes']);
      const detailed = record(watcher, 'DetailedResultsUpdate');
      const before = chairTotal(await resultsOf(t.app))!;

      const { token } = await createVoter(ctx2);
      expect((await vote(app2, token, { [e.chair.id]: e.brian.id })).status).toBe(201);
      await waitFor(() => chairTotal(detailed.at(-1)?.results ?? []) === before + 1, 10_000, "the first server's clients to hear the vote");

      // Both processes answer the same results.
      const one = (await apiClient(t.app).elections.getResults()).body;
      const two = (await apiClient(app2).elections.getResults()).body;
      expect(one).toEqual(two);

      // A toggle on the second server reaches the first server's clients too.
      const count = detailed.length;
      // A fresh admin: the expiry test moved the clock past the first one's idle limit.
      const toggled = await apiClient(app2, await tokenFor(t.ctx, 'admin')).elections.toggleElection({ body: { status: true } });
      expect(toggled.status).toBe(200);
      await waitFor(() => detailed.length > count, 10_000, 'the toggle to reach the first server');
    } finally {
      await second.close();
      await ctx2.close();
      await database.close();
    }
  });

  it('a process that never counted the election tells its watchers of a relayed vote the mixer already moved', async () => {
    const url = (t.ctx.database as TestDatabase).url!;
    const database = await openDatabase({ url, poolMax: 5 });
    const ctx2 = await createContext({ env: t.ctx.env, logger: t.ctx.logger, database, secrets: t.ctx.secrets, now: t.ctx.now });
    await ctx2.start();
    const second = await listen(ctx2, createApp(ctx2), { databaseUrl: url });
    try {
      let heard = false;
      (second.realtime.io as unknown as { on(ev: string, fn: () => void): void }).on('test:ping', () => (heard = true));
      await waitFor(
        () => {
          (running.realtime.io as unknown as { serverSideEmit(ev: string): void }).serverSideEmit('test:ping');
          return heard;
        },
        10_000,
        'the adapters to connect',
      );
      // Only a watcher on the fresh process: nothing there has read election 1's results yet.
      const watcher = await live.client(undefined, second.url);
      await subscribe(watcher, ['votes']);
      const updates = record(watcher, 'VoteResultsUpdated');
      // A vote relayed after the mixer moved its queue row: the row is no longer there to read.
      const message = {
        type: 'votes',
        votes: [{ electionId: CURRENT_ELECTION, xid: '1', newVoter: true, positionIds: [e.chair.id], queueIds: ['moved-by-the-mixer'] }],
      };
      (running.realtime.io as unknown as { serverSideEmit(ev: string, m: string): void }).serverSideEmit(
        'kura:relay',
        sealPadded(t.ctx.secrets.ballotKey, message, 1024),
      );
      await waitFor(() => updates.length > 0, 10_000, 'the fresh process to rebuild election 1 and tell its watcher');
      const served = chairTotal(await resultsOf(t.app));
      expect(chairTotal(updates.at(-1)!.results)).toBe(served);
    } finally {
      await second.close();
      await ctx2.close();
      await database.close();
    }
  });

  it.skipIf(!process.env.REDIS_URL)('relays through Redis when REDIS_URL is set', async () => {
    const url = (t.ctx.database as TestDatabase).url!;
    const processes = await Promise.all(
      [0, 1].map(async () => {
        const database = await openDatabase({ url, poolMax: 5 });
        const ctx = await createContext({ env: t.ctx.env, logger: t.ctx.logger, database, secrets: t.ctx.secrets, now: t.ctx.now });
        await ctx.start();
        const app = createApp(ctx);
        const server = await listen(ctx, app, { redisUrl: process.env.REDIS_URL });
        return { ctx, app, server, database };
      }),
    );
    const [a, b] = processes as [(typeof processes)[0], (typeof processes)[0]];
    try {
      let heard = false;
      (a.server.realtime.io as unknown as { on(ev: string, fn: () => void): void }).on('test:ping', () => (heard = true));
      await waitFor(
        () => {
          (b.server.realtime.io as unknown as { serverSideEmit(ev: string): void }).serverSideEmit('test:ping');
          return heard;
        },
        10_000,
        'the Redis adapters to connect',
      );
      const watcher = await live.client(undefined, a.server.url);
      await subscribe(watcher, ['results']);
      const detailed = record(watcher, 'DetailedResultsUpdate');
      const before = chairTotal(await resultsOf(a.app))!;
      const { token } = await createVoter(b.ctx);
      expect((await vote(b.app, token, { [e.chair.id]: e.alice.id })).status).toBe(201);
      await waitFor(
        () => chairTotal(detailed.at(-1)?.results ?? []) === before + 1,
        10_000,
        'the vote to reach the other process through Redis',
      );
    } finally {
      for (const p of processes) {
        await p.server.close();
        await p.ctx.close();
        await p.database.close();
      }
    }
  });
});
