/**
 * Motions: Yes, No or Abstain. A motion passes when Yes ÷ (Yes + No) is more than one half
 * (`majority`), at least two thirds (`two_thirds`) or at least three quarters (`three_quarters`)
 * and, with `quorum_percent`, the members of the roll who voted on it (abstentions included) are
 * at least that share of the roll. Abstentions count towards the quorum and nowhere else. Every
 * comparison is made in whole numbers (cross-multiplied), so the boundaries are exact.
 */
import { CountError } from './errors';

export type Threshold = 'majority' | 'two_thirds' | 'three_quarters';
export const THRESHOLDS: readonly Threshold[] = ['majority', 'two_thirds', 'three_quarters'];

export type MotionInput = {
  yes: number;
  no: number;
  abstain: number;
  threshold: Threshold;
  /** 1..100 (up to 2 decimals), or null for no quorum. */
  quorum_percent: number | null;
  /** Members on the roll of the election; needed with a quorum. */
  roll?: number;
};

export type MotionOutcome = {
  kind: 'motion';
  yes: number;
  no: number;
  abstain: number;
  threshold: Threshold;
  quorum_percent: number | null;
  /** True when there is no quorum rule. */
  quorum_met: boolean;
  /** Yes reached the threshold (whatever the quorum). */
  threshold_met: boolean;
  passed: boolean;
};

const count = (name: string, v: number | undefined): number => {
  if (v === undefined || !Number.isSafeInteger(v) || v < 0) throw new CountError(`${name} must be a whole number of at least 0`);
  return v;
};

/** Whether `yes` of `yes + no` reaches the threshold, exactly. */
export function meetsThreshold(yes: number, no: number, threshold: Threshold): boolean {
  const cast = yes + no;
  if (cast === 0) return false;
  switch (threshold) {
    case 'majority':
      return 2 * yes > cast;
    case 'two_thirds':
      return 3 * yes >= 2 * cast;
    case 'three_quarters':
      return 4 * yes >= 3 * cast;
    default:
      throw new CountError(`unknown threshold ${String(threshold)}`);
  }
}

export function countMotion(input: MotionInput): MotionOutcome {
  const yes = count('yes', input.yes);
  const no = count('no', input.no);
  const abstain = count('abstain', input.abstain);
  if (!THRESHOLDS.includes(input.threshold)) throw new CountError(`unknown threshold ${String(input.threshold)}`);
  let quorumMet = true;
  const q = input.quorum_percent;
  if (q !== null) {
    // Percent in hundredths, so 33.33 compares exactly: voted × 10000 ≥ q × 100 × roll.
    const hundredths = Math.round(q * 100);
    if (!Number.isFinite(q) || q <= 0 || q > 100 || Math.abs(q * 100 - hundredths) > 1e-6)
      throw new CountError('quorum_percent must be more than 0 and at most 100, with at most 2 decimals');
    const roll = count('roll', input.roll);
    const voted = yes + no + abstain;
    quorumMet = voted > 0 && voted * 10_000 >= hundredths * roll;
  }
  const thresholdMet = meetsThreshold(yes, no, input.threshold);
  return {
    kind: 'motion',
    yes,
    no,
    abstain,
    threshold: input.threshold,
    quorum_percent: q,
    quorum_met: quorumMet,
    threshold_met: thresholdMet,
    passed: thresholdMet && quorumMet,
  };
}
