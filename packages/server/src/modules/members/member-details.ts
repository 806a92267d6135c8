import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { branches, election, members } from '../../db/schema';
import { AppError } from '../../errors';
import { maskEmail, maskPhone } from '../../lib/masking';

export type MemberDetails = { phone: string; email: string; branch: string; support_email: string };

export const DETAILS_NOT_FOUND = 'No member found with that member number or email. Check it and try again, or contact the secretariat.';

/**
 * The public "details verification" lookup: a member number or an email answers where the
 * member is registered, masked, so a member can check their records without signing in.
 */
export async function lookupMemberDetails(ctx: AppContext, identifier: string): Promise<MemberDetails> {
  const id = identifier.trim();
  const where = id.includes('@') ? eq(members.email, id.toLowerCase()) : eq(members.memberNo, id);
  const [row] = await ctx.database.db
    .select({
      phone: members.phone,
      email: members.email,
      branch: branches.name,
      supportEmail: sql<string | null>`(select ${election.supportEmail} from ${election} where ${election.id} = 1)`,
    })
    .from(members)
    .innerJoin(branches, eq(branches.id, members.branchId))
    .where(where)
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', DETAILS_NOT_FOUND);
  return { phone: maskPhone(row.phone), email: maskEmail(row.email), branch: row.branch, support_email: row.supportEmail ?? '' };
}
