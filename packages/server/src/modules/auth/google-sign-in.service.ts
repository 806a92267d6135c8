import type { GoogleContext } from '../../auth/google';
import type { Session } from '@kura/contract';
import { GOOGLE_EMAIL_MISMATCH, verifyGoogleIdToken, type GoogleIdentity } from '../../auth/google';
import type { Core } from '../../core';
import { linkMemberGoogle, memberByEmail, memberByGoogleSub } from '../../db/member-store';
import { linkStaffGoogle } from '../../db/staff-store';
import { AppError } from '../../errors';
import { tSaid, type Said } from '../../i18n';
import { memberActivity, recordActivity } from '../../lib/activity-log';
import { findStaffByEmail, markMemberVerified, noAccount, startSession, type Member } from './sign-in-support';
import { inTransaction } from '../../lib/unit-of-work';

/**
 * Google sign-in for every role (sign-up, which links a Google account, is in sign-up.service.ts).
 * The ID token is always verified here (signature, audience, issuer, expiry, verified email, not
 * used before); the profile fields the browser sends beside it are never trusted.
 */

export const GOOGLE_LINKED_ELSEWHERE = 'This account is linked to a different Google account';

type GoogleInput = { email: string; idToken: string; ip: string };

/** The verified identity, and the email the browser named must be the token's. */
async function identify(ctx: GoogleContext, input: GoogleInput): Promise<GoogleIdentity> {
  const identity = await verifyGoogleIdToken(ctx, input.idToken);
  if (identity.email !== input.email.trim().toLowerCase()) {
    throw AppError.say('UNAUTHENTICATED', 'google.emailMismatch', undefined, { issue: GOOGLE_EMAIL_MISMATCH });
  }
  return identity;
}

export const isUniqueViolation = (e: unknown) =>
  (e as { code?: unknown })?.code === '23505' || (e as { cause?: { code?: unknown } })?.cause?.code === '23505';

/** Runs a Google token check; a refusal is written to the activity log under `name`, then rethrown. */
export async function checkedOrLogged<T>(
  ctx: Core,
  entry: { name: string; activity: string; ip: string },
  check: () => Promise<T>,
): Promise<T> {
  try {
    return await check();
  } catch (error) {
    await recordActivity(ctx, { ...entry, status: 'failed', data: error instanceof AppError ? error.message : 'error' });
    throw error;
  }
}

/** Verifies the ID token; a refused one is written to the activity log under the claimed email. */
function identifyOrLog(ctx: GoogleContext, input: GoogleInput, activity: string): Promise<GoogleIdentity> {
  return checkedOrLogged(ctx, { name: input.email, activity, ip: input.ip }, () => identify(ctx, input));
}

/** google/login: the member linked to this Google account, or whose email it is. */
export async function signInVoterWithGoogle(ctx: GoogleContext, input: GoogleInput): Promise<Session> {
  const activity = 'Voter sign-in: Google';
  const identity = await identifyOrLog(ctx, input, activity);
  const { db } = ctx.database;
  let member: Member | undefined = await memberByGoogleSub(db, identity.sub);
  if (!member) {
    const byEmail = await memberByEmail(db, identity.email);
    if (byEmail?.googleSub && byEmail.googleSub !== identity.sub) {
      await recordActivity(ctx, { ...memberActivity(byEmail, activity, input.ip), status: 'denied', data: 'different Google account' });
      throw AppError.say('FORBIDDEN', 'google.linkedElsewhere', undefined, { issue: GOOGLE_LINKED_ELSEWHERE });
    }
    member = byEmail;
  }
  if (!member) {
    await recordActivity(ctx, { name: identity.email, activity, ip: input.ip, status: 'failed', data: 'no such member' });
    throw noAccount();
  }
  const found = member;
  const signedIn = await inTransaction(ctx, 'Google sign-in (registered e-mail)', async (tx) => {
    // The registered email proved itself through Google: remember the account for next time.
    // Conditional: the rows above were read unlocked, and another Google account linked since
    // (committed while this waited for the row) is kept, never overwritten.
    if (!(await linkMemberGoogle(tx, found.id, identity.sub, found.photoUrl ?? identity.picture, ctx.now()))) return null;
    await markMemberVerified(ctx, tx, found.id);
    await recordActivity(ctx, { ...memberActivity(found, activity, input.ip), status: 'success' }, tx);
    return startSession(ctx, tx, {
      role: 'voter',
      subjectId: found.id,
      name: found.name,
      photo: found.photoUrl ?? identity.picture,
      ip: input.ip,
      language: found.language,
    });
  });
  if (!signedIn) {
    await recordActivity(ctx, { ...memberActivity(found, activity, input.ip), status: 'denied', data: 'different Google account' });
    throw AppError.say('FORBIDDEN', 'google.linkedElsewhere', undefined, { issue: GOOGLE_LINKED_ELSEWHERE });
  }
  return signedIn;
}

/** admin/google/login and agent/google/login: the email must be a staff member's of that role. */
export async function signInStaffWithGoogle(ctx: GoogleContext, role: 'admin' | 'agent', input: GoogleInput): Promise<Session> {
  const activity = `${role === 'admin' ? 'Admin' : 'Agent'} sign-in: Google`;
  const identity = await identifyOrLog(ctx, input, activity);
  const person = await findStaffByEmail(ctx.database.db, identity.email, role);
  const deny = async (said: Said) => {
    const message = tSaid('en', said);
    await recordActivity(ctx, {
      name: person?.name ?? identity.email,
      activity,
      userId: person?.id,
      userType: role,
      ip: input.ip,
      status: 'denied',
      data: message,
    });
    return AppError.sayIssue('FORBIDDEN', said.id, said.values);
  };
  if (!person || (person.googleSub && person.googleSub !== identity.sub))
    throw await deny(person ? { id: 'google.linkedElsewhere' } : { id: 'google.notStaff', values: { role } });
  const signedIn = await inTransaction(ctx, 'Google sign-in', async (tx) => {
    // Conditional: the check above read the row unlocked, and another Google account linked
    // since (committed while this waited for the row) is kept, never overwritten.
    if (!(await linkStaffGoogle(tx, person.id, identity.sub, person.photoUrl ?? identity.picture))) return null;
    await recordActivity(ctx, { name: person.name, activity, userId: person.id, userType: role, ip: input.ip, status: 'success' }, tx);
    return startSession(ctx, tx, {
      role,
      subjectId: person.id,
      name: person.name,
      photo: person.photoUrl ?? identity.picture,
      ip: input.ip,
    });
  });
  if (!signedIn) throw await deny({ id: 'google.linkedElsewhere' });
  return signedIn;
}
