import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countBlt } from '../src';

// Published Scottish STV count vectors (test/vectors/README.md): Glasgow City Council 2007 ward
// elections and hand-made edge cases, with outcomes from an independent reference implementation.
const dir = join(import.meta.dirname, 'vectors');
const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Record<
  string,
  { seats: number; ballots: number; quota: string; elected: { name: string; votes: string }[]; nontransferable: string }
>;

describe('Scottish STV reproduces every published vector exactly', () => {
  it('has a ballot file for each expected outcome and the other way round', () => {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.blt'))
      .map((f) => f.slice(0, -4))
      .sort();
    expect(files).toEqual(Object.keys(expected).sort());
    expect(files).toHaveLength(10);
  });

  for (const [name, want] of Object.entries(expected)) {
    it(`${name}: seats, ballots, quota, every elected candidate and final vote, non-transferable`, () => {
      const { count } = countBlt(readFileSync(join(dir, `${name}.blt`), 'utf8'));
      expect({
        seats: count.seats,
        ballots: count.ballots,
        quota: count.quota,
        elected: count.elected,
        nontransferable: count.nontransferable,
      }).toEqual(want);
    });
  }
});
