import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultsVisibility } from '@kura/contract';
import { bearer, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createElection, createVoter, vote, type Election } from '../../../test/voting/election';
import { connectClient, listen, subscribe, waitFor, type Client, type Running } from '../../../test/voting/sockets';

/**
 * Results visibility × every results route and channel × {anonymous, voter, agent, admin}, before
 * and after close; and a socket that may no longer see results leaves those rooms when the mode
 * changes (SECURITY.md "Results visibility").
 */

type Who = 'anonymous' | 'voter' | 'agent' | 'admin';
const WHO: Who[] = ['anonymous', 'voter', 'agent', 'admin'];

let t: TestApp;
let e: Election;
let running: Running;
const tokens = {} as Record<Who, string | undefined>;
const sockets: Client[] = [];

beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  e = await createElection(t.ctx);
  tokens.anonymous = undefined;
  tokens.voter = (await createVoter(t.ctx)).token;
  tokens.agent = await tokenFor(t.ctx, 'agent');
  tokens.admin = await tokenFor(t.ctx, 'admin');
  expect((await request(t.app).post('/api/v1/toggle').set(bearer(tokens.admin)).send({ status: true })).status).toBe(200);
  expect((await vote(t.app, (await createVoter(t.ctx)).token, { [e.chair.id]: e.alice.id })).status).toBe(201);
  running = await listen(t.ctx, t.app);
});
afterAll(async () => {
  sockets.forEach((s) => s.close());
  await running?.close();
  await t?.close();
});

const setMode = async (mode: ResultsVisibility) => {
  const res = await request(t.app).put('/api/v1/election').set(bearer(tokens.admin!)).send({ results_visibility: mode });
  expect(res.status).toBe(200);
};

/** Each results route with the identities that may call it at all (the access matrix covers the rest). */
const ROUTES: { name: string; path: string; who: Who[] }[] = [
  { name: 'psk/results', path: '/api/v1/psk/results', who: WHO },
  { name: 'psk/results (alias, fast path)', path: '/api/psk/results', who: ['anonymous'] },
  { name: 'psk/dashboard', path: '/api/v1/psk/dashboard', who: ['voter'] },
  { name: 'agent/results', path: '/api/v1/agent/results', who: ['agent', 'admin'] },
  { name: 'psk/results/export', path: '/api/v1/psk/results/export?format=csv', who: ['admin'] },
];

async function statusOf(path: string, who: Who): Promise<number> {
  let req = request(t.app).get(path);
  if (tokens[who]) req = req.set(bearer(tokens[who]!));
  return (await req).status;
}

/** What each identity gets from the results routes and channels in a mode, before close. */
const EXPECTED: Record<ResultsVisibility, { routes: Who[]; votes: Who[]; results: Who[] }> = {
  live: { routes: WHO, votes: WHO, results: WHO },
  staff: { routes: ['agent', 'admin'], votes: ['agent', 'admin'], results: ['agent', 'admin'] },
  after_close: { routes: [], votes: ['agent', 'admin'], results: [] },
};

describe('results visibility', () => {
  for (const mode of ['live', 'staff', 'after_close'] as const) {
    it(`${mode}: every results route and channel, for anonymous, voter, agent and admin`, async () => {
      await setMode(mode);
      for (const route of ROUTES) {
        for (const who of route.who) {
          const status = await statusOf(route.path, who);
          expect(status, `${route.name} as ${who} in ${mode}`).toBe(EXPECTED[mode].routes.includes(who) ? 200 : 403);
        }
      }
      // Agents keep the statistics in every mode.
      expect(await statusOf('/api/v1/agent/statistics', 'agent')).toBe(200);
      expect(await statusOf('/api/v1/statistics', 'admin')).toBe(200);
      expect((await request(t.app).get('/api/v1/psk/results/final')).status).toBe(403);
      for (const who of WHO) {
        const socket = await connectClient(running.url, tokens[who]);
        sockets.push(socket);
        const ack = await subscribe(socket, ['votes', 'results']);
        const want = (['votes', 'results'] as const).filter((c) => EXPECTED[mode][c].includes(who));
        expect(ack.joined.sort(), `channels for ${who} in ${mode}`).toEqual([...want].sort());
      }
    });
  }

  it('a mode change removes the sockets that may no longer see results from those rooms', async () => {
    await setMode('live');
    const connected = {} as Record<Who, Client>;
    for (const who of WHO) {
      connected[who] = await connectClient(running.url, tokens[who]);
      sockets.push(connected[who]);
      expect((await subscribe(connected[who], ['votes', 'results'])).joined.sort()).toEqual(['results', 'votes']);
    }
    const rooms = (id: string | undefined) => {
      const all = running.realtime.io.of('/').adapter.rooms;
      return (['votes', 'results'] as const).filter((r) => id !== undefined && all.get(r)?.has(id));
    };
    await setMode('staff');
    await waitFor(
      () => rooms(connected.anonymous.id).length === 0 && rooms(connected.voter.id).length === 0,
      5000,
      'public sockets removed',
    );
    expect(rooms(connected.agent.id).sort()).toEqual(['results', 'votes']);
    expect(rooms(connected.admin.id).sort()).toEqual(['results', 'votes']);
    await setMode('after_close');
    await waitFor(() => rooms(connected.agent.id).length === 1 && rooms(connected.admin.id).length === 1, 5000, 'staff leave results');
    expect(rooms(connected.agent.id)).toEqual(['votes']);
    // A voter's results arrive no more: a vote now sends nothing to the removed sockets.
    let got = 0;
    connected.anonymous.on('DetailedResultsUpdate', () => got++);
    connected.anonymous.on('VoteResultsUpdated', () => got++);
    expect((await vote(t.app, (await createVoter(t.ctx)).token, { [e.chair.id]: e.brian.id })).status).toBe(201);
    await new Promise((r) => setTimeout(r, 600));
    expect(got).toBe(0);
  });

  it('after close, every mode is public: routes, channels and the declared result', async () => {
    await setMode('after_close');
    expect((await request(t.app).post('/api/v1/election/close').set(bearer(tokens.admin!))).status).toBe(200);
    for (const route of ROUTES) {
      for (const who of route.who) expect(await statusOf(route.path, who), `${route.name} as ${who} after close`).toBe(200);
    }
    expect((await request(t.app).get('/api/v1/psk/results/final')).status).toBe(200);
    const socket = await connectClient(running.url);
    sockets.push(socket);
    expect((await subscribe(socket, ['votes', 'results'])).joined.sort()).toEqual(['results', 'votes']);
  });
});
