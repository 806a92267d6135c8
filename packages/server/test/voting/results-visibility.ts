import type { ResultsVisibility } from '@kura/contract';
import { afterAll, beforeAll, expect } from 'vitest';
import { apiClient, type ApiClient } from '../client';
import { tokenFor } from '../factories';
import { createTestApp, type TestApp } from '../harness';
import { createElection, createVoter, vote, type Election } from './election';
import { listen, type Client, type Running } from './sockets';

/**
 * The set-up shared by the results-visibility suites (modules/results/visibility.test.ts and
 * test/security/results-carriers.test.ts, SECURITY.md "Results visibility"): an open election with
 * ballots cast, a bearer session for each of {anonymous, voter, agent, admin}, a listening server
 * for sockets, and the admin's switch of the results-visibility mode.
 */

export type Who = 'anonymous' | 'voter' | 'agent' | 'admin';
export const WHO: Who[] = ['anonymous', 'voter', 'agent', 'admin'];

export type ResultsVisibilityFixture = {
  t: TestApp;
  e: Election;
  running: Running;
  tokens: Record<Who, string | undefined>;
  /** A typed client per identity (anonymous has no token). */
  api: Record<Who, ApiClient>;
  /** Sockets the tests open; closed after the file. */
  sockets: Client[];
  setMode(mode: ResultsVisibility): Promise<void>;
};

export type ResultsVisibilityOptions = {
  /** The ballot of the `voter` identity, if it votes (its receipts are then readable). */
  readerVotes?: (e: Election) => Record<number, number>;
  /** Ballots of other voters, so there are counts to hide. */
  otherVotes: (e: Election) => Record<number, number>[];
};

/** Registers the file's beforeAll/afterAll; the returned object is filled in before the tests run. */
export function useResultsVisibility(options: ResultsVisibilityOptions): ResultsVisibilityFixture {
  const f = { tokens: {}, api: {}, sockets: [] as Client[] } as unknown as ResultsVisibilityFixture;
  f.setMode = async (mode) => {
    const res = await f.api.admin.elections.updateElection({ body: { results_visibility: mode } });
    expect(res.status).toBe(200);
  };
  beforeAll(async () => {
    f.t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
    f.e = await createElection(f.t.ctx);
    const voter = await createVoter(f.t.ctx);
    f.tokens.anonymous = undefined;
    f.tokens.voter = voter.token;
    f.tokens.agent = await tokenFor(f.t.ctx, 'agent');
    f.tokens.admin = await tokenFor(f.t.ctx, 'admin');
    for (const who of WHO) f.api[who] = apiClient(f.t.app, f.tokens[who]);
    expect((await f.api.admin.elections.toggleElection({ body: { status: true } })).status).toBe(200);
    if (options.readerVotes) expect((await vote(f.t.app, voter.token, options.readerVotes(f.e))).status).toBe(201);
    for (const ballot of options.otherVotes(f.e)) {
      expect((await vote(f.t.app, (await createVoter(f.t.ctx)).token, ballot)).status).toBe(201);
    }
    f.running = await listen(f.t.ctx, f.t.app);
  });
  afterAll(async () => {
    f.sockets.forEach((s) => s.close());
    await f.running?.close();
    await f.t?.close();
  });
  return f;
}
