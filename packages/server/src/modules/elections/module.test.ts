import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../../../test/harness';
import { createElections } from './module';

/**
 * A module is built from the core and the deps its factory names (docs/architecture.md "How
 * modules are composed"): here the elections module (the catalogue), which names none, on its
 * real database, without the app or any other module.
 */
describe('the elections module built alone', () => {
  let t: TestCore;
  beforeAll(async () => {
    t = await createTestCore();
  });
  afterAll(() => t.close());

  it('answers the organisation domain and its part of the elections domain, and owns no service', () => {
    const elections = createElections(t.core);
    const routes = elections.routes(t.core);
    expect(Object.keys(routes).sort()).toEqual(['elections', 'organisation']);
    expect(Object.keys(routes.elections).sort()).toEqual(['getElection', 'updateElection']);
    expect(elections.services).toEqual({});
  });
});
