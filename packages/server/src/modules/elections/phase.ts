import type { ElectionPhase } from '@kura/contract';

/** What the phase is computed from: the election row and the on/off switch. */
export type PhaseInput = {
  /** `election.voting_active`: the switch */
  active: boolean;
  /** when voting was first switched on; null while still in set-up */
  openedAt: Date | null;
  /** when the election closed for good */
  closedAt: Date | null;
  opensAt: Date | null;
  closesAt: Date | null;
};

/**
 * Where the election stands (docs/decisions/004). `closed` is final; without a schedule the switch
 * alone moves it from `setup` to `open` and `paused`; an opening time still ahead makes it
 * `scheduled`. The scheduler that opens and closes on time builds on this one function.
 */
export function computePhase(e: PhaseInput, now: Date): ElectionPhase {
  if (e.closedAt) return 'closed';
  if (e.active) return 'open';
  if (e.opensAt && e.opensAt.getTime() > now.getTime()) return 'scheduled';
  return e.openedAt ? 'paused' : 'setup';
}
