import type { MotionThreshold } from '@kura/contract';
import { t } from '@/i18n';

/**
 * A motion's rule in plain words (docs/screens.md "Ballot and results"; the rule itself is
 * docs/api.md "Many elections, motions and ranked counts"): the share of Yes and No votes that must
 * be Yes, and the quorum when the motion has one.
 */
export function motionRule(threshold: MotionThreshold | null | undefined, quorumPercent?: number | null): string {
  const share = threshold ?? 'majority';
  return quorumPercent ? t('motion.ruleQuorum', { share, quorum: quorumPercent }) : t('motion.rule', { share });
}
