import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../../../test/harness';
import { createBallots } from '../ballots';
import { CURRENT_ELECTION, readState } from '../elections';
import { createResults } from '../results';
import { createLifecycle } from './module';

/**
 * A module is built from the core and the deps its factory names (docs/architecture.md "How
 * modules are composed"): here the lifecycle module with the ballots module's cache and the
 * results module's gate and snapshot, on its real database, without the app or any other module.
 */
describe('the lifecycle module built alone', () => {
  let t: TestCore;
  beforeAll(async () => {
    t = await createTestCore();
  });
  afterAll(() => t.close());

  it('answers the lifecycle domain and the voting switch of the elections domain, and owns the scheduler', async () => {
    const { ballotQueue } = createBallots(t.core).services;
    const { resultsGate, voting } = createResults(t.core, { ballotQueue }).services;
    const lifecycle = createLifecycle(t.core, { ballotQueue, resultsGate, voting });
    const routes = lifecycle.routes(t.core);
    expect(Object.keys(routes).sort()).toEqual(['elections', 'lifecycle']);
    expect(Object.keys(routes.elections).sort()).toEqual(['getElectionStatus', 'toggleElection']);
    expect(Object.keys(lifecycle.services)).toEqual(['scheduler']);
    // A round on a seeded election in set-up, without a schedule, leaves it as it was.
    await lifecycle.services.scheduler.tick();
    expect((await readState(t.core.database.db, CURRENT_ELECTION)).closedAt).toBeNull();
  });
});
