import type { MotionThreshold } from '@kura/contract';

const SHARE: Record<MotionThreshold, string> = {
  majority: 'more than half',
  two_thirds: 'at least two thirds',
  three_quarters: 'at least three quarters',
};

/**
 * A motion's rule in plain words (docs/screens.md "Ballot and results"; the rule itself is
 * docs/api.md "Many elections, motions and ranked counts"): the share of Yes and No votes that must
 * be Yes, and the quorum when the motion has one.
 */
export function motionRule(threshold: MotionThreshold | null | undefined, quorumPercent?: number | null): string {
  const share = SHARE[threshold ?? 'majority'];
  const quorum = quorumPercent ? ` and at least ${quorumPercent}% of members on the roll vote on it` : '';
  return `Passes if ${share} of Yes and No votes are Yes${quorum}.`;
}
