import type { Core } from '../../core';
import type { Tx } from '../../db/client';
import type { ElectionId } from '../../db/election-store';
import * as register from '../register';

/**
 * The two things nominations need from the register, in one place (docs/api.md "Nominations"):
 * whether a member is on an election's roll as it stands (the register's roll: the electorate's
 * branches and rules, `elected_in`, or the frozen roll once frozen), and the position's
 * eligibility rules checked on a member. Both read in the caller's transaction.
 */
export type EligibilityCheck = { rule: string; met: boolean };

/** Whether the member is on the election's roll as it stands. */
export function isOnRoll(ctx: Core, tx: Tx, electionId: ElectionId, memberId: number): Promise<boolean> {
  return register.isOnRoll(ctx, electionId, memberId, tx);
}

/** The position's eligibility rules, each checked on the member's values now; `rule` in words, as the register says it. */
export async function eligibilityChecks(ctx: Core, tx: Tx, positionId: number, memberId: number): Promise<EligibilityCheck[]> {
  return (await register.eligibilityChecks(ctx, positionId, memberId, tx)).map((c) => ({ rule: c.text, met: c.met }));
}
