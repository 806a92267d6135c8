import { describe, expect, it } from 'vitest';
import { declareSeats } from './lifecycle';

const v = (name: string, count: number) => ({ name, count });
const marks = (rows: { name: string; elected: boolean; tied: boolean }[]) =>
  rows.map((r) => `${r.name}:${r.elected ? 'E' : r.tied ? 'T' : '-'}`).join(' ');

describe('declareSeats: the seats highest counts are elected, a tie across the last seat elects none of the tied', () => {
  it('one seat: the highest count wins; a tie for first elects nobody', () => {
    expect(marks(declareSeats([v('A', 3), v('B', 5), v('C', 1)], 1))).toBe('B:E A:- C:-');
    expect(marks(declareSeats([v('A', 4), v('B', 4), v('C', 1)], 1))).toBe('A:T B:T C:-');
  });

  it('three seats: a tie inside the seats elects both; a tie across the last seat marks all tied', () => {
    expect(marks(declareSeats([v('A', 9), v('B', 7), v('C', 7), v('D', 2)], 3))).toBe('A:E B:E C:E D:-');
    expect(marks(declareSeats([v('A', 9), v('B', 7), v('C', 5), v('D', 5), v('E', 1)], 3))).toBe('A:E B:E C:T D:T E:-');
    expect(marks(declareSeats([v('A', 6), v('B', 6), v('C', 6), v('D', 6)], 3))).toBe('A:T B:T C:T D:T');
  });

  it('as many candidates as seats (or fewer): all elected, uncontested', () => {
    expect(marks(declareSeats([v('A', 0), v('B', 2)], 3))).toBe('B:E A:E');
  });
});
