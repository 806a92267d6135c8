import { and, eq, sql } from 'drizzle-orm';
import type { MembersContext } from './context';
import type { Actor } from '../../auth/actor';
import { lockAllElections, lockMemberVotes } from '../../db/locks';
import {
  candidacies,
  electionRoll,
  members,
  nominations,
  nominationSupporters,
  otpChallenges,
  participation,
  reminderRecipients,
  sessions,
} from '../../db/schema';
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
      const [member] = await tx.select({ memberNo: members.memberNo }).from(members).where(eq(members.id, id)).for('update');
      if (!member) throw AppError.say('NOT_FOUND', 'error.memberNotFound');
      const [voted] = await tx
        .select({ one: sql`1` })
        .from(participation)
        .where(eq(participation.memberId, id))
        .limit(1);
      if (voted) throw AppError.say('CONFLICT', 'error.member.voted', undefined, { issue: 'voted' });
      const [stands] = await tx
        .select({ one: sql`1` })
        .from(candidacies)
        .where(eq(candidacies.memberId, id))
        .limit(1);
      if (stands) throw AppError.say('CONFLICT', 'error.member.stands', undefined, { issue: 'candidate' });
      const [named] = await tx.execute(sql`
        select 1 from ${nominations} n where n.nominee_id = ${id} or n.created_by = ${id}
        union all select 1 from ${nominationSupporters} s where s.member_id = ${id}
        limit 1`);
      if (named) throw AppError.say('CONFLICT', 'error.member.inNomination', undefined, { issue: 'nomination' });
      const [onRoll] = await tx
        .select({ one: sql`1` })
        .from(electionRoll)
        .where(eq(electionRoll.memberId, id))
        .limit(1);
      if (onRoll) throw AppError.say('CONFLICT', 'error.member.onFrozenRoll', undefined, { issue: 'frozen_roll' });
      await tx.delete(sessions).where(and(eq(sessions.role, 'voter'), eq(sessions.subjectId, id)));
      await tx.delete(otpChallenges).where(and(eq(otpChallenges.purpose, 'voter'), eq(otpChallenges.subjectId, id)));
      await tx.delete(reminderRecipients).where(eq(reminderRecipients.memberId, id));
      await tx.delete(members).where(eq(members.id, id));
      return member.memberNo;
    },
  );
}
