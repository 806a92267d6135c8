import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyTally, ResultsTallyPayload, type DetailedResultsUpdatePayload, type TallyState } from '@kura/contract';
import { apiClient, bodyOf } from '../../test/client';
import { tokenFor } from '../../test/factories';
import type { TestApp } from '../../test/harness';
import { createVoter, vote, type Election } from '../../test/voting/election';
import { record, sleep, subscribe, waitFor, startLiveElection, type LiveElection } from '../../test/voting/sockets';

/**
 * The `tally` channel (docs/api.md "Realtime"): the results channel's content as a snapshot on
 * join and on a layout change, counts only otherwise, under the results channel's visibility.
 */
let live: LiveElection;
let t: TestApp;
let e: Election;
let admin: string;
beforeAll(async () => {
  live = await startLiveElection();
  ({ t, e, admin } = live);
});
afterAll(async () => {
  await live?.close();
});

const client = (token?: string) => live.client(token);
const asAdmin = () => apiClient(t.app, admin);

/** Applies every tally payload in order, as a client does; fails on one that would need a snapshot. */
function follow(payloads: unknown[]): TallyState {
  let state: TallyState | undefined;
  for (const raw of payloads) {
    const next = applyTally(state, ResultsTallyPayload.parse(raw));
    if (next === 'snapshot-needed') throw new Error('a counts update the client could not apply');
    state = next;
  }
  if (!state) throw new Error('no tally payload');
  return state;
}
const chairTotal = (results: DetailedResultsUpdatePayload['results'] | undefined) =>
  results?.find((r) => r.position_id === e.chair.id)?.total;

describe('tally channel', () => {
  it('sends a snapshot on join, then counts only, and the client ends with exactly what the results channel shows', async () => {
    const watcher = await client();
    const tally = record(watcher, 'ResultsTally');
    const full = record(watcher, 'DetailedResultsUpdate');
    expect(await subscribe(watcher, ['tally', 'results'])).toEqual({ joined: ['tally', 'results'], denied: [] });
    await waitFor(() => tally.length === 1, 5000, 'the snapshot on join');
    expect(tally[0]!.kind).toBe('snapshot');
    // (Every broadcast below is counts only: the room's layout is the one its joiner was sent.)

    // Brian overtakes Alice: the display order moves, the layout (candidate-id order) does not.
    for (const choice of [e.alice.id, e.brian.id, e.brian.id]) {
      const { token } = await createVoter(t.ctx);
      expect((await vote(t.app, token, { [e.chair.id]: choice, [e.treasurer.id]: e.carol.id })).status).toBe(201);
    }
    await waitFor(() => chairTotal(full.at(-1)?.results) === 3 && chairTotal(follow(tally).results) === 3, 10_000, 'three votes');
    await sleep(400);
    expect(tally.slice(1).length).toBeGreaterThan(0);
    expect(tally.slice(1).every((p) => p.kind === 'counts')).toBe(true);
    const state = follow(tally);
    expect(state.results).toEqual(full.at(-1)!.results);
    expect(state.results.find((r) => r.position_id === e.chair.id)!.values.map((v) => v.name)).toEqual(['Brian Barasa', 'Alice Achieng']);
    // And what the public route answers.
    const rest = await apiClient(t.app).elections.getResults();
    expect(state.results).toEqual(bodyOf(rest, 200).data.data);
    // A counts update is a fraction of the full payload.
    const countsBytes = JSON.stringify(tally.at(-1)).length;
    expect(countsBytes * 4).toBeLessThan(JSON.stringify(full.at(-1)).length);
  });

  it('sends a new joiner a snapshot of the current counts, and sends everyone a snapshot when the layout changes', async () => {
    const late = await client();
    const tally = record(late, 'ResultsTally');
    await subscribe(late, ['tally:1']);
    await waitFor(() => tally.length === 1, 5000, 'the snapshot on join');
    expect(chairTotal(follow(tally).results)).toBe(3);

    // A renamed position changes the layout: the next update is a snapshot with the new name.
    expect((await asAdmin().setup.updatePosition({ params: { id: e.mombasa.id }, body: { name: 'Coast Rep' } })).status).toBe(200);
    const { token } = await createVoter(t.ctx);
    expect((await vote(t.app, token, { [e.chair.id]: e.alice.id })).status).toBe(201);
    await waitFor(() => chairTotal(follow(tally).results) === 4, 10_000, 'the fourth vote');
    const renamed = tally.findIndex((p) => p.kind === 'snapshot' && p.results.some((r) => r.title.includes('Coast Rep')));
    expect(renamed).toBeGreaterThan(0);
    // Every update after the rename is in the new layout (one the client holds).
    expect(new Set(tally.slice(renamed).map((p) => p.layout))).toEqual(new Set([tally[renamed]!.layout]));
    expect(tally[renamed]!.layout).not.toBe(tally[0]!.layout);
  });

  it('a client whose layout differs from an update gets a snapshot by subscribing again', async () => {
    const watcher = await client();
    const tally = record(watcher, 'ResultsTally');
    await subscribe(watcher, ['tally']);
    await waitFor(() => tally.length === 1, 5000, 'the snapshot on join');
    const stale: TallyState = { ...follow(tally), layout: 'not-this-one' };
    const { token } = await createVoter(t.ctx);
    expect((await vote(t.app, token, { [e.chair.id]: e.brian.id })).status).toBe(201);
    await waitFor(() => tally.some((p) => p.kind === 'counts'), 10_000, 'a counts update');
    expect(applyTally(stale, ResultsTallyPayload.parse(tally.find((p) => p.kind === 'counts')))).toBe('snapshot-needed');
    expect(await subscribe(watcher, ['tally'])).toEqual({ joined: ['tally'], denied: [] });
    await waitFor(() => tally.filter((p) => p.kind === 'snapshot').length === 2, 5000, 'a second snapshot');
    expect(chairTotal(follow(tally).results)).toBe(5);
  });

  it('follows the results visibility: a hidden tally is refused, sends nothing, and a mode change empties its room', async () => {
    const watcher = await client();
    const tally = record(watcher, 'ResultsTally');
    expect(await subscribe(watcher, ['tally'])).toEqual({ joined: ['tally'], denied: [] });
    await waitFor(() => tally.length === 1, 5000, 'the snapshot on join');

    expect((await asAdmin().elections.updateElection({ body: { results_visibility: 'staff' } })).status).toBe(200);
    await sleep(200);
    const voter = await createVoter(t.ctx);
    const publicSocket = await client();
    const voterSocket = await client(voter.token);
    const agentSocket = await client(await tokenFor(t.ctx, 'agent'));
    const heard = {
      public: record(publicSocket, 'ResultsTally'),
      voter: record(voterSocket, 'ResultsTally'),
      agent: record(agentSocket, 'ResultsTally'),
    };
    expect(await subscribe(publicSocket, ['tally', 'tally:1'])).toEqual({ joined: [], denied: ['tally', 'tally:1'] });
    expect(await subscribe(voterSocket, ['tally'])).toEqual({ joined: [], denied: ['tally'] });
    expect(await subscribe(agentSocket, ['tally'])).toEqual({ joined: ['tally'], denied: [] });

    tally.splice(0);
    expect((await vote(t.app, voter.token, { [e.chair.id]: e.alice.id })).status).toBe(201);
    await waitFor(() => chairTotal(follow(heard.agent).results) === 6, 10_000, 'the agent to see the vote');
    await sleep(400);
    expect(tally).toEqual([]);
    expect(heard.public).toEqual([]);
    expect(heard.voter).toEqual([]);
    expect((await asAdmin().elections.updateElection({ body: { results_visibility: 'live' } })).status).toBe(200);
  });
});
