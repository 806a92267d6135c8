import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { ResultsVisibility } from '@kura/contract';
import { type ApiClient } from '../../../test/client';
import { bearer } from '../../../test/factories';
import { createVoter, vote } from '../../../test/voting/election';
import { useResultsVisibility, WHO, type Who } from '../../../test/voting/results-visibility';
import { connectClient, subscribe, waitFor, type Client } from '../../../test/voting/sockets';

/**
 * Results visibility × every results route and channel × {anonymous, voter, agent, admin}, before
 * and after close; and a socket that may no longer see results leaves those rooms when the mode
 * changes (SECURITY.md "Results visibility").
 */

const f = useResultsVisibility({ otherVotes: (e) => [{ [e.chair.id]: e.alice.id }] });
const { setMode } = f;

type Call = (api: ApiClient, who: Who) => Promise<{ status: number }>;

/** The public results on the alias path, answered by the fast path (raw HTTP: the path is the point). */
const fastPath: Call = async (_api, who) => {
  let req = request(f.t.app).get('/api/psk/results');
  if (f.tokens[who]) req = req.set(bearer(f.tokens[who]!));
  return req;
};

/** Each results route with the identities that may call it at all (the access matrix covers the rest). */
const ROUTES: { name: string; call: Call; who: Who[] }[] = [
  { name: 'psk/results', call: (api) => api.elections.getResults(), who: WHO },
  { name: 'psk/results (alias, fast path)', call: fastPath, who: ['anonymous'] },
  { name: 'psk/dashboard', call: (api) => api.elections.getDashboard(), who: ['voter'] },
  { name: 'agent/results', call: (api) => api.elections.getAgentResults(), who: ['agent', 'admin'] },
  { name: 'psk/results/export', call: (api) => api.elections.exportResults({ query: { format: 'csv' } }), who: ['admin'] },
];

async function statusOf(call: Call, who: Who): Promise<number> {
  return (await call(f.api[who], who)).status;
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
          const status = await statusOf(route.call, who);
          expect(status, `${route.name} as ${who} in ${mode}`).toBe(EXPECTED[mode].routes.includes(who) ? 200 : 403);
        }
      }
      // Agents keep the statistics in every mode.
      expect(await statusOf((api) => api.elections.getAgentStatistics(), 'agent')).toBe(200);
      expect(await statusOf((api) => api.elections.getStatistics(), 'admin')).toBe(200);
      expect((await f.api.anonymous.lifecycle.getFinalResults()).status).toBe(403);
      for (const who of WHO) {
        const socket = await connectClient(f.running.url, f.tokens[who]);
        f.sockets.push(socket);
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
      connected[who] = await connectClient(f.running.url, f.tokens[who]);
      f.sockets.push(connected[who]);
      expect((await subscribe(connected[who], ['votes', 'results'])).joined.sort()).toEqual(['results', 'votes']);
    }
    const rooms = (id: string | undefined) => {
      const all = f.running.realtime.io.of('/').adapter.rooms;
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
    expect((await vote(f.t.app, (await createVoter(f.t.ctx)).token, { [f.e.chair.id]: f.e.brian.id })).status).toBe(201);
    await new Promise((r) => setTimeout(r, 600));
    expect(got).toBe(0);
  });

  it('after close, every mode is public: routes, channels and the declared result', async () => {
    await setMode('after_close');
    expect((await f.api.admin.lifecycle.closeElection()).status).toBe(200);
    for (const route of ROUTES) {
      for (const who of route.who) expect(await statusOf(route.call, who), `${route.name} as ${who} after close`).toBe(200);
    }
    expect((await f.api.anonymous.lifecycle.getFinalResults()).status).toBe(200);
    const socket = await connectClient(f.running.url);
    f.sockets.push(socket);
    expect((await subscribe(socket, ['votes', 'results'])).joined.sort()).toEqual(['results', 'votes']);
  });
});
