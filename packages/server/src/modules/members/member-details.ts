import type { Caller } from '../../auth/sessions';
import type { Core } from '../../core';
import { memberDetailsOf } from '../../db/member-store';
import { AppError } from '../../errors';
import { maskEmail, maskPhone } from '../../lib/masking';

export type MemberDetails = { phone: string; email: string; branch: string; support_email: string };

export const DETAILS_NOT_FOUND = 'No member found with that member number or email. Check it and try again, or contact the secretariat.';

/**
 * The public "details verification" lookup: a member number or an email answers where the
 * member is registered, masked, so a member can check their records without signing in. Anyone
 * may know a member number, so a stranger learns no more than the last two phone digits and the
 * email's first letter and domain, and no branch (empty); the member signed in, or an admin, sees
 * the branch too.
 */
export async function lookupMemberDetails(ctx: Core, identifier: string, caller?: Caller): Promise<MemberDetails> {
  const id = identifier.trim();
  const row = await memberDetailsOf(ctx.database.db, id.includes('@') ? { email: id.toLowerCase() } : { memberNo: id });
  if (!row) throw AppError.say('NOT_FOUND', 'details.notFound');
  const known = caller?.role === 'admin' || (caller?.role === 'voter' && caller.subjectId === row.id);
  return {
    phone: maskPhone(row.phone),
    email: maskEmail(row.email),
    branch: known ? row.branch : '',
    support_email: row.supportEmail ?? '',
  };
}
