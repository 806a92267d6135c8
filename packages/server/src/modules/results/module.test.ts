import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../../../test/harness';
import { createBallots } from '../ballots';
import { createResults } from './module';

/**
 * A module is built from the core and the deps its factory names (docs/architecture.md "How
 * modules are composed"): here the results module with the ballots module's cache, on its real
 * database, without the app or any other module.
 */
describe('the results module built alone', () => {
  let t: TestCore;
  beforeAll(async () => {
    t = await createTestCore();
  });
  afterAll(() => t.close());

  it('keeps its results snapshot current from the domain events on the core, from start to stop', async () => {
    const ballots = createBallots(t.core);
    const results = createResults(t.core, { ballotQueue: ballots.services.ballotQueue });
    const { voting } = results.services;
    expect(Object.keys(results.routes(t.core))).toEqual(['elections']);

    await voting.start();
    await voting.tallyOf(1).whenReady();
    expect(voting.tallyOf(1).countOf(1, 7)).toBe(0);
    // A transaction id later than the snapshot's build, as a vote committed after it would have.
    const [row] = await t.core.database.db.execute<{ xid: string }>(sql`select pg_current_xact_id()::text as xid`);
    const vote = {
      electionId: 1,
      positionIds: [1],
      entries: [{ positionId: 1, candidateId: 7 }],
      newVoter: true,
      xid: row!.xid,
      queueIds: [],
    };
    t.core.events.emit('votes.cast', vote);
    expect(voting.tallyOf(1).countOf(1, 7)).toBe(1);

    await voting.stop();
    t.core.events.emit('votes.cast', { ...vote, xid: String(BigInt(row!.xid) + 1n) });
    expect(voting.tallyOf(1).countOf(1, 7)).toBe(1);
  });
});
