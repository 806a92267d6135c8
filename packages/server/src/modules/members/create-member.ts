import type { CreateMemberBody, Member } from '@kura/contract';
import type { MembersContext } from './context';
import type { Actor } from '../../auth/actor';
import { insertMember, membersHolding, resolveBranch } from '../../db/member-store';
import { uniqueViolation } from '../../db/errors';
import { AppError, type FieldMessage } from '../../errors';
import { auditedTransaction } from '../../lib/audited-transaction';
import { freezeDueRolls } from '../../db/election-store';
import { checkMemberAttributes, mergeAttributes, readAttributeDefs } from '../register';
import { getMember, memberNoProblem, uniqueFieldErrors } from './members.service';

/**
 * POST members (docs/api.md "Running it on your own"): one new member under the import's rules for
 * one line. The contract has normalised the phone to E.164 and the e-mail to lower case or null;
 * here the member number meets the organisation's pattern, the branch exists, and the member number
 * and e-mail are free (422 naming each field). A member added after an election opened is not on
 * its frozen roll.
 */
export async function createMember(ctx: MembersContext, actor: Actor, input: CreateMemberBody): Promise<Member> {
  const member = await auditedTransaction(
    ctx,
    { actor, activity: 'Member added', data: `member no ${input.member_no}` },
    async (tx, note) => {
      note.afterCommit(() => ctx.events.emit('members.changed'));
      await freezeDueRolls(tx, ctx.now());
      const errors: Record<string, FieldMessage[]> = {};
      let attributes: Record<string, number | string | boolean> = {};
      try {
        attributes = mergeAttributes({}, checkMemberAttributes(await readAttributeDefs(tx), input.attributes));
      } catch (error) {
        if (!(error instanceof AppError) || !error.errors) throw error;
        Object.assign(errors, error.fieldMessages);
      }
      const problem = await memberNoProblem(tx, input.member_no);
      if (problem) errors.member_no = [problem];
      const branch = await resolveBranch(tx, input.branch);
      if (!branch) errors.branch = [{ id: 'field.branchMissing' }];
      const email = input.email ?? null;
      const clashes = await membersHolding(tx, input.member_no, email);
      if (clashes.some((c) => c.memberNo === input.member_no)) errors.member_no = [uniqueFieldErrors.member_no];
      if (email !== null && clashes.some((c) => c.email === email)) errors.email = [uniqueFieldErrors.email];
      if (Object.keys(errors).length > 0 || !branch) throw AppError.fields(errors);
      const now = ctx.now();
      let id: number;
      try {
        id = await insertMember(tx, {
          memberNo: input.member_no,
          name: input.name,
          phone: input.phone,
          email,
          branchId: branch.id,
          language: input.language ?? null,
          attributes,
          createdAt: now,
          updatedAt: now,
        });
      } catch (error) {
        // Only a concurrent insert can get past the check above.
        const constraint = uniqueViolation(error);
        if (constraint === undefined) throw error;
        throw AppError.fieldsSaid(
          constraint.includes('email') ? { email: [uniqueFieldErrors.email] } : { member_no: [uniqueFieldErrors.member_no] },
        );
      }
      return (await getMember(tx, id))!;
    },
  );
  return member;
}
