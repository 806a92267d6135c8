import { eq } from 'drizzle-orm';
import { revokeSession, type Caller } from '../../auth/sessions';
import type { Core } from '../../core';
import { members, staff } from '../../db/schema';
import { AppError } from '../../errors';
import { recordActivity } from '../../lib/activity-log';

/** validate and validate/admin: the server, not the browser, says who the session belongs to. */
export async function describeVoter(
  ctx: Core,
  caller: Caller,
): Promise<{ user_type: 'voter'; data: { name: string; language: string | null } }> {
  const [member] = await ctx.database.db
    .select({ name: members.name, language: members.language })
    .from(members)
    .where(eq(members.id, caller.subjectId))
    .limit(1);
  // A session whose member was removed is no session.
  if (!member) throw new AppError('UNAUTHENTICATED');
  return { user_type: 'voter', data: { name: member.name, language: member.language } };
}

export async function describeStaff(ctx: Core, caller: Caller): Promise<{ user_type: 'admin' | 'agent'; data: { name: string } }> {
  const [person] = await ctx.database.db
    .select({ name: staff.name, role: staff.role })
    .from(staff)
    .where(eq(staff.id, caller.subjectId))
    .limit(1);
  if (!person || person.role !== caller.role) throw new AppError('UNAUTHENTICATED');
  return { user_type: person.role, data: { name: person.name } };
}

/** logout: the token is dead from this moment. */
export async function signOut(ctx: Core, caller: Caller, input: { ip: string }): Promise<void> {
  await revokeSession(ctx, caller.tokenHash);
  const table = caller.role === 'voter' ? members : staff;
  const [who] = await ctx.database.db.select({ name: table.name }).from(table).where(eq(table.id, caller.subjectId)).limit(1);
  await recordActivity(ctx, {
    name: who?.name ?? caller.role,
    activity: 'Sign-out',
    userId: caller.subjectId,
    userType: caller.role,
    ip: input.ip,
    status: 'success',
  });
}
