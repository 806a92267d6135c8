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

describe('a withdrawn candidate, checked against the reference count', () => {
  it('SC with candidate 4 (Pat LaMarche) withdrawn: struck from every ranking before the first stage', () => {
    // The same ballots with a line "-4": Droop's published Scottish STV report for this file
    // (SCw) elects Budd Dickinson 21.06655, Tom Sevigny 18.48566, Rebecca Rotzler and Steve Kramer
    // 19.00000, with 16.44752 non-transferable.
    const [header, ...rest] = readFileSync(join(dir, 'SC.blt'), 'utf8').split('\n');
    const { count } = countBlt([header, '-4', ...rest].join('\n'));
    expect(count).toMatchObject({
      ballots: 94,
      quota: '19.00000',
      elected: [
        { name: 'Budd Dickinson', votes: '21.06655' },
        { name: 'Tom Sevigny', votes: '18.48566' },
        { name: 'Rebecca Rotzler', votes: '19.00000' },
        { name: 'Steve Kramer', votes: '19.00000' },
      ],
      nontransferable: '16.44752',
    });
    expect(count.candidates[3]).toEqual({ id: 4, name: 'Pat LaMarche', withdrawn: true });
    expect(Object.keys(count.rounds[0]!.votes)).not.toContain('4');
  });
});
