import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../../../test/harness';
import { createBallots } from '../ballots';
import { createResults } from '../results';
import { createDeclaration } from './module';

/**
 * A module is built from the core and the deps its factory names (docs/architecture.md "How
 * modules are composed"): here the declaration module with the ballots module's cache and the
 * results module's gate and snapshot, on its real database, without the app or any other module.
 */
describe('the declaration module built alone', () => {
  let t: TestCore;
  beforeAll(async () => {
    t = await createTestCore();
  });
  afterAll(() => t.close());

  it('answers the evidence domain and owns no service', () => {
    const { ballotQueue } = createBallots(t.core).services;
    const { resultsGate, voting } = createResults(t.core, { ballotQueue }).services;
    const declaration = createDeclaration(t.core, { ballotQueue, resultsGate, voting });
    expect(Object.keys(declaration.routes(t.core))).toEqual(['evidence']);
    expect(declaration.services).toEqual({});
  });
});
