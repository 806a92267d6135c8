import type { MembersContext } from './context';
import type { Actor } from '../../auth/actor';
import { lockAllElections, lockMemberVotes } from '../../db/locks';
import { onAFrozenRoll } from '../../db/election-store';
import { namedInNomination } from '../../db/nomination-store';
import { endVoterSessions } from '../../auth/sessions';
import { discardCodesOf } from '../../auth/one-time-codes';
import { forgetRecipient } from '../reminders';
import { deleteMemberRow, lockMemberRow } from '../../db/member-store';
import { standsAnywhere } from '../../db/candidacy-store';
import { hasVoted } from '../../db/participation-store';
import { AppError } from '../../errors';
import { auditedTransaction } from '../../lib/audited-transaction';

export const MEMBER_VOTED = 'This member has voted, so they stay on the register: their participation is part of the record';
export const MEMBER_STANDS = 'This member stands as a candidate; remove them from their positions first';
export const MEMBER_IN_NOMINATION =
  'This member is named in a nomination (as nominee or supporter), so they stay on the register: nominations are part of the record';
export const MEMBER_ON_FROZEN_ROLL =
  'This member is on the roll of an election that has opened, so they stay on the register: the roll is frozen';

/**
 * DELETE members/{id} (docs/api.md "Running it on your own"): removes a member who left no trace
 * in any election. 409 naming the reason once they voted, stand as a candidate, are named in a
 * nomination (nominee, proposer or seconder, withdrawn ones included: the evidence pack lists them),
 * or are on a frozen roll. Takes the election lock a candidacy change takes, then the member's vote lock, so a vote
 * or a candidacy in flight finishes first and is seen. Their sessions end with them.
 */
export async function deleteMember(ctx: MembersContext, actor: Actor, id: number): Promise<void> {
  await auditedTransaction(
    ctx,
    { actor, activity: 'Member removed', data: (no: string) => `member id ${id}, member no ${no}` },
    async (tx, note) => {
      note.afterCommit(() => ctx.events.emit('members.changed'));
      // Every election's: a removal looks at votes, candidacies, nominations and rolls of all of them.
      await lockAllElections(tx);
      await lockMemberVotes(tx, [id]);
      const member = await lockMemberRow(tx, { id });
      if (!member) throw AppError.say('NOT_FOUND', 'error.memberNotFound');
      if (await hasVoted(tx, id)) throw AppError.say('CONFLICT', 'error.member.voted', undefined, { issue: 'voted' });
      if (await standsAnywhere(tx, id)) throw AppError.say('CONFLICT', 'error.member.stands', undefined, { issue: 'candidate' });
      if (await namedInNomination(tx, id)) throw AppError.say('CONFLICT', 'error.member.inNomination', undefined, { issue: 'nomination' });
      if (await onAFrozenRoll(tx, id)) throw AppError.say('CONFLICT', 'error.member.onFrozenRoll', undefined, { issue: 'frozen_roll' });
      await endVoterSessions(tx, id);
      await discardCodesOf(tx, 'voter', id);
      await forgetRecipient(tx, id);
      await deleteMemberRow(tx, id);
      return member.memberNo;
    },
  );
}
