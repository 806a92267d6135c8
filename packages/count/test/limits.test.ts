import { describe, expect, it } from 'vitest';
import { BltError, countBlt, countStv, MAX_BALLOT_LINES, MAX_BLT_BYTES, MAX_CANDIDATES, MAX_SEATS, parseBlt } from '../src';

// Issue 36, finding 8: a hostile ballot file (thousands of candidates, no ballots) made the count
// cubic: every exclusion is a tie among all the continuing candidates, and the tie-break walked
// every earlier stage for each of them. The work is measured with the engine's meter (one step per
// candidate or ballot looked at), never with a clock.

/** n candidates, one seat, no ballots: every exclusion is a tie among all the continuing candidates. */
function hostile(n: number, meter: { steps: number }) {
  return countStv({
    seats: 1,
    candidates: Array.from({ length: n }, (_, k) => ({ id: k + 1, name: `C${k + 1}` })),
    ballots: [],
    meter,
  });
}

describe('the work of a count grows with the size of its record, no faster', () => {
  it('a count of n candidates tied at every stage takes O(n × rounds) steps, not O(n × rounds²)', () => {
    const small = { steps: 0 };
    const large = { steps: 0 };
    const a = hostile(200, small);
    const b = hostile(400, large);
    expect(a.rounds).toHaveLength(201);
    expect(b.rounds).toHaveLength(401);
    // The record alone is n votes per round (n² for these files): allow a small constant over it.
    expect(small.steps).toBeGreaterThanOrEqual(200 * 201);
    expect(small.steps).toBeLessThanOrEqual(12 * 200 * 200);
    expect(large.steps).toBeLessThanOrEqual(12 * 400 * 400);
    // Doubling the candidates quadruples the work (the record's size), it does not multiply it by 8.
    expect(large.steps / small.steps).toBeLessThan(4.5);
  });
});

/** The hostile file of the report: n candidates, no ballots, names and a title. */
function noBallots(n: number, seats = 1): string {
  return [`${n} ${seats}`, '0', ...Array.from({ length: n }, (_, k) => `"C${k + 1}"`), '"hostile"', ''].join('\n');
}

const bltError = (text: string): BltError => {
  try {
    parseBlt(text);
  } catch (error) {
    if (error instanceof BltError) return error;
    throw error;
  }
  throw new Error('read without an error');
};

describe('the BLT reader refuses files past its documented limits, before counting', () => {
  it('the 3,000-candidate file of the report is refused on its first line with a clear error', () => {
    const text = noBallots(3000);
    expect(text.length).toBeGreaterThan(20_000);
    const e = bltError(text);
    expect(e.line).toBe(1);
    expect(e.message).toBe(`line 1: 3000 candidates are more than this reader takes (at most ${MAX_CANDIDATES})`);
    expect(() => countBlt(text)).toThrow(BltError);
  });

  it('one candidate or seat past the limit is refused; the limits are well above real elections', () => {
    expect(MAX_CANDIDATES).toBe(500);
    expect(bltError(noBallots(MAX_CANDIDATES + 1)).message).toContain(`${MAX_CANDIDATES + 1} candidates are more than`);
    expect(bltError(noBallots(MAX_CANDIDATES, MAX_SEATS + 1)).message).toBe(
      `line 1: ${MAX_SEATS + 1} seats are more than this reader takes (at most ${MAX_SEATS})`,
    );
  });

  it('ballot lines past the limit are refused on the first line too many; the limit stays at 2,000,000', () => {
    // The real limit takes a 12 MB file and two million lines to reach; the same check, lowered.
    expect(MAX_BALLOT_LINES).toBe(2_000_000);
    expect(MAX_BLT_BYTES).toBe(64 * 1024 * 1024);
    const text = (lines: number) => `2 1\n${'1 1 2 0\n'.repeat(lines)}0\n"A"\n"B"\n"T"\n`;
    expect(parseBlt(text(10), { maxBallotLines: 10 }).ballots).toHaveLength(10);
    const e = (() => {
      try {
        parseBlt(text(11), { maxBallotLines: 10 });
      } catch (error) {
        return error as BltError;
      }
      throw new Error('read without an error');
    })();
    expect(e).toBeInstanceOf(BltError);
    expect(e.message).toBe('line 12: more than 10 ballot lines (group identical ballots into one line with a weight)');
    // A weight counts many ballots on one line: a large election fits in a few lines.
    expect(parseBlt('2 1\n1000000000 1 2 0\n0\n"A"\n"B"\n"T"\n', { maxBallotLines: 1 }).ballots[0]!.count).toBe(1_000_000_000);
  });

  it('a hostile file just under the limit is read and counted within a small multiple of its record', () => {
    const blt = parseBlt(noBallots(MAX_CANDIDATES));
    const meter = { steps: 0 };
    const result = countStv({ seats: blt.seats, candidates: blt.candidates, ballots: blt.ballots, meter });
    expect(result.rounds).toHaveLength(MAX_CANDIDATES + 1);
    expect(result.elected).toHaveLength(1);
    // Every round is a lot among all the continuing candidates: recorded, not walked back.
    expect(result.rounds[1]!.tie).toMatchObject({ by: 'lot' });
    expect(meter.steps).toBeLessThanOrEqual(12 * MAX_CANDIDATES * (MAX_CANDIDATES + 1));
  });
});
