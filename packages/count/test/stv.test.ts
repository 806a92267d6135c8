import { describe, expect, it } from 'vitest';
import { countBlt, CountError, countStv, type StvBallot } from '../src';

const c = (...names: string[]) => names.map((name, k) => ({ id: k + 1, name }));
const lines = (spec: [number, ...number[]][]): StvBallot[] => spec.map(([count, ...ranking]) => ({ count, ranking }));

describe('Scottish STV', () => {
  it('one seat is instant-runoff: the first-preference leader can lose', () => {
    // A 40, B 35, C 25; C's voters prefer B: B wins 60 to 40.
    const r = countStv({
      seats: 1,
      candidates: c('A', 'B', 'C'),
      ballots: lines([
        [40, 1],
        [35, 2],
        [25, 3, 2],
      ]),
    });
    expect(r.quota).toBe('51.00000');
    expect(r.elected).toEqual([2]);
    expect(r.rounds.map((x) => [x.round, x.action, x.candidate_ids])).toEqual([
      [1, 'elect', []],
      [2, 'exclude', [3]],
      [3, 'elect', [2]],
    ]);
    expect(r.rounds[1]!.votes).toEqual({ '1': '40.00000', '2': '60.00000', '3': '0.00000' });
    expect(r.values.map((v) => v.first_preferences)).toEqual([40, 35, 25]);
  });

  it('transfers a surplus at a truncated fractional value and records each round', () => {
    // 2 seats, 12 ballots: quota 5.
    const r = countStv({
      seats: 2,
      candidates: c('A', 'B', 'C', 'D'),
      ballots: lines([
        [7, 1, 2],
        [2, 3],
        [2, 4],
        [1, 2],
      ]),
    });
    expect(r.quota).toBe('5.00000');
    // A 7: surplus 2 over 7 ballots: 2/7 = 0.28571 each, 7 × 0.28571 = 1.99997 to B (residue 0.00003).
    const transfer = r.rounds.find((x) => x.action === 'transfer')!;
    expect(transfer.candidate_ids).toEqual([1]);
    expect(transfer.votes).toMatchObject({ '1': '5.00000', '2': '2.99997' });
    expect(r.residue).toBe('0.00003');
    expect(r.elected[0]).toBe(1);
  });

  it('withdrawn candidates are struck out; a ballot left blank is not a valid vote', () => {
    const r = countStv({
      seats: 1,
      candidates: [...c('A', 'B'), { id: 3, name: 'W', withdrawn: true }],
      ballots: lines([
        [3, 3, 1],
        [2, 2],
        [4, 3],
      ]),
    });
    expect(r.ballots).toBe(5);
    expect(r.blank).toBe(4);
    expect(r.quota).toBe('3.00000');
    expect(r.elected).toEqual([1]);
    expect(r.rounds[0]!.votes).toEqual({ '1': '3.00000', '2': '2.00000' });
    expect(r.values.find((v) => v.candidate_id === 3)).toMatchObject({ withdrawn: true, elected: false, votes: '0.00000' });
  });

  it('breaks an exclusion tie by the most recent earlier stage at which the votes differed', () => {
    // weak-defeat: A is excluded, B and C then tie at 3; at stage 1 B had 2 and C 3, so B goes.
    const text = '5 2\n1 1 2 0\n2 2 0\n3 3 0\n4 4 0\n5 5 0\n0\n"A"\n"B"\n"C"\n"D"\n"E"\n"t"\n';
    const { result } = countBlt(text);
    const tied = result.rounds.find((x) => x.tie)!;
    expect(tied.action).toBe('exclude');
    expect(tied.tie).toEqual({ candidate_ids: [2, 3], chosen: 2, by: 'earlier_stage', stage: 1 });
  });

  it('a tie equal at every stage is decided by lot, recorded, the same for the same seed', () => {
    const input = (seed: string) => ({
      seats: 2,
      candidates: c('A', 'B', 'C'),
      ballots: lines([
        [5, 1],
        [2, 2],
        [2, 3],
      ]),
      seed,
    });
    const r = countStv(input('s1'));
    const lot = r.rounds.find((x) => x.tie)!.tie!;
    expect(lot).toMatchObject({ by: 'lot', candidate_ids: [2, 3], drawn_from: [2, 3], seed: 's1' });
    expect(countStv(input('s1'))).toEqual(r);
    const chosen = new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((s) => countStv(input(s)).rounds.find((x) => x.tie)!.tie!.chosen));
    expect(chosen).toEqual(new Set([2, 3]));
  });

  it('stops when the seats are filled; a truncated transfer can leave a candidate just short of the quota', () => {
    // Quota 5: A is elected with 8; its surplus 3 goes to C at 3/8 = 0.375 a paper (5), who is elected.
    const r = countStv({
      seats: 2,
      candidates: c('A', 'B', 'C'),
      ballots: lines([
        [8, 1, 3],
        [3, 2],
        [2, 3],
      ]),
    });
    expect(r.elected).toEqual([1, 3]);
    expect(r.rounds.map((x) => x.action)).toEqual(['elect', 'transfer', 'elect']);
    // Quota 4: A's surplus 2 over 6 papers is 0.33333 a paper, so C reaches 3.99998, not 4; B (3) is
    // excluded and C, the only continuing candidate, fills the last vacancy (rule 52).
    const short = countStv({
      seats: 2,
      candidates: c('A', 'B', 'C'),
      ballots: lines([
        [6, 1, 3],
        [3, 2],
        [2, 3],
      ]),
    });
    expect(short.rounds.map((x) => [x.action, x.candidate_ids])).toEqual([
      ['elect', [1]],
      ['transfer', [1]],
      ['exclude', [2]],
      ['elect', [3]],
    ]);
    expect(short.values.map((v) => v.votes)).toEqual(['4.00000', '0.00000', '3.99998']);
    expect(short.nontransferable).toBe('3.00000');
  });

  it('more seats than candidates: everyone standing is elected at once', () => {
    const r = countStv({ seats: 3, candidates: c('A', 'B'), ballots: lines([[1, 1]]) });
    expect(r.elected.sort()).toEqual([1, 2]);
  });

  it('refuses a ranking that names a candidate twice, an unknown candidate, a bad count', () => {
    const base = { seats: 1, candidates: c('A', 'B') };
    expect(() => countStv({ ...base, ballots: [{ ranking: [1, 2, 1] }] })).toThrow(CountError);
    expect(() => countStv({ ...base, ballots: [{ ranking: [1, 2, 1] }] })).toThrow('ballot 1: candidate 1 appears twice');
    expect(() => countStv({ ...base, ballots: [{ ranking: [3] }] })).toThrow('not standing');
    expect(() => countStv({ ...base, ballots: [{ ranking: [1], count: 0 }] })).toThrow(CountError);
    expect(() => countStv({ ...base, seats: 0, ballots: [] })).toThrow(CountError);
  });
});
