import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countStv } from '../src';
import { countStv as countByHistoryWalk } from './reference/stv-history-walk';
import { randomElection } from './arbitraries';

// The tie-break keeps, per candidate, the stages at which their votes changed and a rank by the
// votes at every stage back to the first (issue 36, finding 8). The rule is the one the engine had
// before, which walked every earlier stage for every tie: both must agree on every count, round by
// round, tie by tie, including the stage that decided and the lot.

/** Elections made to tie: few distinct weights, many candidates, short rankings. */
const tieHeavy = randomElection({
  candidates: { min: 3, max: 8 },
  maxWeight: 2,
  maxLines: 24,
  maxSeed: 4,
  withdraws: (drawn, k) => drawn && k % 4 === 0,
});

describe('the incremental tie-break decides as the walk through every earlier stage did', () => {
  it('the same rounds, ties, stages, lots and outcome on random elections full of ties', () => {
    let ties = 0;
    let earlier = 0;
    fc.assert(
      fc.property(tieHeavy, (e) => {
        const want = countByHistoryWalk(e);
        const got = countStv(e);
        expect(got).toEqual(want);
        for (const r of want.rounds) {
          if (r.tie) ties++;
          if (r.tie?.by === 'earlier_stage') earlier++;
        }
      }),
      { numRuns: 600, seed: 36 },
    );
    // The generator does make ties, of both kinds.
    expect(ties).toBeGreaterThan(100);
    expect(earlier).toBeGreaterThan(20);
  }, 60_000);
});
