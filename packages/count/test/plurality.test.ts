import { describe, expect, it } from 'vitest';
import { countApproval, CountError, countPlurality } from '../src';

const cands = [
  { id: 10, name: 'Ann' },
  { id: 11, name: 'Bob' },
  { id: 12, name: 'Cy' },
  { id: 13, name: 'Di' },
];
const marks = (r: { values: { name: string; elected: boolean; tied: boolean }[] }) =>
  r.values.map((v) => `${v.name}:${v.elected ? 'E' : v.tied ? 'T' : '-'}`).join(' ');

describe('plurality and approval', () => {
  it('plurality elects the highest counts; a tie inside the seats elects both', () => {
    const r = countPlurality({ seats: 2, candidates: cands, ballots: [[10, 11], [10, 11], [12], [10]] });
    expect(marks(r)).toBe('Ann:E Bob:E Cy:- Di:-');
    expect(r.elected).toEqual([10, 11]);
    expect(r.tied).toEqual([]);
    const inside = countPlurality({ seats: 3, candidates: cands, ballots: [[10, 11], [10, 11], [12], [12]] });
    expect(marks(inside)).toBe('Ann:E Bob:E Cy:E Di:-');
  });

  it('a tie across the last seat marks all tied and elects none of them', () => {
    const r = countPlurality({ seats: 2, candidates: cands, ballots: [[10], [10], [11], [12], [13]] });
    expect(marks(r)).toBe('Ann:E Bob:T Cy:T Di:T');
    expect(r.elected).toEqual([10]);
    expect(r.tied).toEqual([11, 12, 13]);
  });

  it('approval counts every mark; ties across the last seat are reported', () => {
    const r = countApproval({ seats: 1, candidates: cands, ballots: [[10, 11, 12, 13], [10, 11], [12]] });
    expect(marks(r)).toBe('Ann:T Bob:T Cy:T Di:-');
    expect(r.elected).toEqual([]);
    const clear = countApproval({ seats: 1, candidates: cands, ballots: [[10, 11, 12, 13], [10, 11], [10]] });
    expect(clear.values[0]).toMatchObject({ candidate_id: 10, count: 3, elected: true, tied: false });
    expect(clear.ballots).toBe(3);
  });

  it('fewer candidates than seats: all elected', () => {
    expect(marks(countPlurality({ seats: 5, candidates: cands.slice(0, 2), ballots: [] }))).toBe('Ann:E Bob:E');
  });

  it('refuses bad shapes: duplicates, unknown candidates, too many or no marks', () => {
    expect(() => countPlurality({ seats: 2, candidates: cands, ballots: [[10, 10]] })).toThrow(CountError);
    expect(() => countPlurality({ seats: 2, candidates: cands, ballots: [[99]] })).toThrow(CountError);
    expect(() => countPlurality({ seats: 2, candidates: cands, ballots: [[10, 11, 12]] })).toThrow(CountError);
    expect(() => countApproval({ seats: 2, candidates: cands, ballots: [[]] })).toThrow(CountError);
    expect(() => countApproval({ seats: 2, candidates: cands, ballots: [[11, 12, 11]] })).toThrow('appears twice');
  });
});
