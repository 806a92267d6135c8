import { describe, expect, it } from 'vitest';
import { countMotion, CountError, meetsThreshold } from '../src';

describe('motions: thresholds at their exact boundaries, quorum, abstentions', () => {
  it('two thirds is at least: 2 Yes : 1 No passes, 65 : 35 does not, 199 : 100 does not', () => {
    expect(meetsThreshold(2, 1, 'two_thirds')).toBe(true);
    expect(meetsThreshold(65, 35, 'two_thirds')).toBe(false);
    expect(meetsThreshold(67, 33, 'two_thirds')).toBe(true);
    expect(meetsThreshold(200, 100, 'two_thirds')).toBe(true);
    expect(meetsThreshold(199, 100, 'two_thirds')).toBe(false);
  });

  it('majority is more than half: 51 : 50 passes, 50 : 50 does not', () => {
    expect(meetsThreshold(51, 50, 'majority')).toBe(true);
    expect(meetsThreshold(50, 50, 'majority')).toBe(false);
    expect(meetsThreshold(1, 0, 'majority')).toBe(true);
  });

  it('three quarters is at least: 3 : 1 passes, 74 : 26 and 299 : 100 do not', () => {
    expect(meetsThreshold(3, 1, 'three_quarters')).toBe(true);
    expect(meetsThreshold(74, 26, 'three_quarters')).toBe(false);
    expect(meetsThreshold(299, 100, 'three_quarters')).toBe(false);
    expect(meetsThreshold(300, 100, 'three_quarters')).toBe(true);
  });

  it('no Yes and no No votes: not passed at any threshold', () => {
    for (const t of ['majority', 'two_thirds', 'three_quarters'] as const)
      expect(countMotion({ yes: 0, no: 0, abstain: 9, threshold: t, quorum_percent: null }).passed).toBe(false);
  });

  it('abstentions count for the quorum only', () => {
    // Roll 100, quorum 50%: 30 Yes, 10 No, 10 Abstain = 50 voted, quorum met; 75% Yes.
    const met = countMotion({ yes: 30, no: 10, abstain: 10, threshold: 'three_quarters', quorum_percent: 50, roll: 100 });
    expect(met).toMatchObject({ quorum_met: true, threshold_met: true, passed: true });
    // Without the abstentions the quorum is missed and the motion fails, though 75% said Yes.
    const missed = countMotion({ yes: 30, no: 10, abstain: 9, threshold: 'three_quarters', quorum_percent: 50, roll: 100 });
    expect(missed).toMatchObject({ quorum_met: false, threshold_met: true, passed: false });
    // Abstentions never change the threshold: 2 Yes, 1 No and 1,000 abstentions pass two thirds.
    expect(countMotion({ yes: 2, no: 1, abstain: 1000, threshold: 'two_thirds', quorum_percent: null }).passed).toBe(true);
  });

  it('quorum boundaries are exact, also with decimals', () => {
    const at = (voted: number, q: number, roll: number) =>
      countMotion({ yes: voted, no: 0, abstain: 0, threshold: 'majority', quorum_percent: q, roll }).quorum_met;
    expect(at(33, 33, 100)).toBe(true);
    expect(at(32, 33, 100)).toBe(false);
    expect(at(1, 33.33, 3)).toBe(true); // 33.33% of 3 = 0.9999
    expect(at(3333, 33.34, 10_000)).toBe(false);
    expect(at(3334, 33.34, 10_000)).toBe(true);
    expect(at(7, 100, 7)).toBe(true);
    expect(at(6, 100, 7)).toBe(false);
  });

  it('no quorum rule: quorum_met is true; outcome fields follow API.md MotionResult', () => {
    expect(countMotion({ yes: 2, no: 1, abstain: 0, threshold: 'two_thirds', quorum_percent: null })).toEqual({
      kind: 'motion',
      yes: 2,
      no: 1,
      abstain: 0,
      threshold: 'two_thirds',
      quorum_percent: null,
      quorum_met: true,
      threshold_met: true,
      passed: true,
    });
  });

  it('refuses nonsense', () => {
    expect(() => countMotion({ yes: -1, no: 0, abstain: 0, threshold: 'majority', quorum_percent: null })).toThrow(CountError);
    expect(() => countMotion({ yes: 1, no: 0, abstain: 0, threshold: 'most' as never, quorum_percent: null })).toThrow(CountError);
    expect(() => countMotion({ yes: 1, no: 0, abstain: 0, threshold: 'majority', quorum_percent: 101, roll: 5 })).toThrow(CountError);
    expect(() => countMotion({ yes: 1, no: 0, abstain: 0, threshold: 'majority', quorum_percent: 50 })).toThrow(CountError);
  });
});
