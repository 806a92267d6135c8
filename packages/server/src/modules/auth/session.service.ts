import { revokeSession, type Caller } from '../../auth/sessions';
import type { Core } from '../../core';
import { memberName, memberNameAndLanguage } from '../../db/member-store';
import { staffName, staffNameAndRole } from '../../db/staff-store';
import { AppError } from '../../errors';
import { recordActivity } from '../../lib/activity-log';

/** validate and validate/admin: the server, not the browser, says who the session belongs to. */
export async function describeVoter(
  ctx: Core,
  caller: Caller,
): Promise<{ user_type: 'voter'; data: { name: string; language: string | null } }> {
  const member = await memberNameAndLanguage(ctx.database.db, caller.subjectId);
  // A session whose member was removed is no session.
  if (!member) throw new AppError('UNAUTHENTICATED');
  return { user_type: 'voter', data: { name: member.name, language: member.language } };
}

export async function describeStaff(ctx: Core, caller: Caller): Promise<{ user_type: 'admin' | 'agent'; data: { name: string } }> {
  const person = await staffNameAndRole(ctx.database.db, caller.subjectId);
  if (!person || person.role !== caller.role) throw new AppError('UNAUTHENTICATED');
  return { user_type: person.role, data: { name: person.name } };
}

/** logout: the token is dead from this moment. */
export async function signOut(ctx: Core, caller: Caller, input: { ip: string }): Promise<void> {
  await revokeSession(ctx, caller.tokenHash);
  const db = ctx.database.db;
  const who = caller.role === 'voter' ? await memberName(db, caller.subjectId) : await staffName(db, caller.subjectId);
  await recordActivity(ctx, {
    name: who ?? caller.role,
    activity: 'Sign-out',
    userId: caller.subjectId,
    userType: caller.role,
    ip: input.ip,
    status: 'success',
  });
}
