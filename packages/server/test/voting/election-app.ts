import { afterAll, beforeAll } from 'vitest';
import { apiClient, type ApiClient } from '../client';
import { tokenFor } from '../factories';
import { createTestApp, type TestApp } from '../harness';
import { createElection, type Election } from './election';

/**
 * The set-up shared by the suites that read an election's ballots through the API (the receipt
 * trail in modules/vvpat, the declared result in modules/declaration): an app whose mixer waits
 * (ballots stay queued until a test mixes them), the sample election, and an admin session.
 */
export type ElectionApp = {
  t: TestApp;
  e: Election;
  /** The admin's bearer token, and a typed client with it. */
  adminToken: string;
  admin: ApiClient;
};

/** Registers the file's beforeAll/afterAll; `prepare` runs last in the beforeAll (e.g. vote and close). */
export function useElectionApp(prepare?: (f: ElectionApp) => Promise<void>): ElectionApp {
  const f = {} as ElectionApp;
  beforeAll(async () => {
    f.t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
    f.e = await createElection(f.t.ctx);
    f.adminToken = await tokenFor(f.t.ctx, 'admin');
    f.admin = apiClient(f.t.app, f.adminToken);
    await prepare?.(f);
  });
  afterAll(async () => {
    await f.t?.close();
  });
  return f;
}
