import type { GoogleContext } from '../../auth/google';
import { normalisePhone } from '@kura/contract';
import { beginAttempt, countersFor } from '../../auth/account-limits';
import { verifyGoogleIdToken } from '../../auth/google';
import { codeFailureSaid, consumeCode } from '../../auth/one-time-codes';
import type { PendingSignIn } from '../../auth/pending';
import type { Core } from '../../core';
import { googleSubHolder, linkGoogleIfUnlinked, memberByNumber, memberRow } from '../../db/member-store';
import { AppError } from '../../errors';
import { memberActivity, recordActivity } from '../../lib/activity-log';
import { sendMemberSmsCode, type CodeDeps } from './code-sign-in.service';
import { checkedOrLogged, isUniqueViolation } from './google-sign-in.service';
import { markMemberVerified } from './sign-in-support';
import { inTransaction } from '../../lib/unit-of-work';

/**
 * Sign-up links a Google account to an existing member, in two steps, like a sign-in:
 *
 * 1. `signup`: a Google ID token (accepted once), the member number and the member's registered
 *    phone. A wrong phone counts against the member's sign-up (the lock-out rules of
 *    `account-limits.ts`, method `signup`, never the member's SMS sign-in). The right one texts a
 *    code to that phone and answers the pending state; nothing is linked yet.
 * 2. `signup/verify`: the code proves the phone is the caller's; only then is the Google account
 *    linked, and the link is written to the activity log with the Google account's email.
 *
 * The member's registered name and email stay as the organisation keeps them.
 */

export const ACCOUNT_EXISTS = 'Such an account already exists, try signing in or use a different voter id';
export const SIGNUP_NO_MATCH = 'No member matches this voter ID and phone number';
export const SIGNED_UP = 'Account created successfully, you can now sign in';

export type SignUpPending = Extract<PendingSignIn, { kind: 'signup' }>;

const STARTED = 'Voter sign-up';
const CHECKED = 'Voter sign-up: SMS code check';
const LINKED = 'Voter sign-up: Google account linked';

const conflict = () => AppError.say('CONFLICT', 'signUp.accountExists', undefined, { issue: ACCOUNT_EXISTS });

/** signup: checks the member number and phone, then texts a code to the member's registered phone. */
export async function startSignUp(
  ctx: GoogleContext,
  deps: CodeDeps,
  input: { pfNumber: string; phone: string; credential: string; ip: string },
): Promise<{ message: string; pfNumber: string; pending: SignUpPending }> {
  const identity = await checkedOrLogged(ctx, { name: input.pfNumber, activity: STARTED, ip: input.ip }, () =>
    verifyGoogleIdToken(ctx, input.credential),
  );
  const { db } = ctx.database;
  const member = await memberByNumber(db, input.pfNumber.trim());
  const noMatch = async (data: string) => {
    await recordActivity(ctx, {
      name: input.pfNumber,
      activity: STARTED,
      userId: member?.id,
      userType: 'voter',
      ip: input.ip,
      status: 'failed',
      data,
    });
    return AppError.say('NOT_FOUND', 'signUp.noMatch', undefined, { issue: SIGNUP_NO_MATCH });
  };
  // No member, no account to count against: the per-address limit and one token per try hold.
  if (!member) throw await noMatch('no such member');
  // Counted before the phone is compared, so parallel guesses see each other (429 when limited).
  const attempt = await beginAttempt(ctx, countersFor(ctx, 'voter', member.id, 'signup', input.ip));
  // Both in E.164 (the register's form), whatever spelling was typed; a phone that is no mobile number matches nothing.
  const registered = normalisePhone(member.phone);
  if (registered === null || registered !== normalisePhone(input.phone)) throw await noMatch('voter ID and phone do not match');
  // The phone was right, but only the code finishes the method: this attempt alone is withdrawn.
  await attempt.withdraw();

  const holder = await googleSubHolder(db, identity.sub);
  if (member.googleSub || holder !== undefined) {
    await recordActivity(ctx, { ...memberActivity(member, STARTED, input.ip), status: 'failed', data: 'account exists' });
    throw conflict();
  }
  const sent = await sendMemberSmsCode(ctx, deps, member, {
    ip: input.ip,
    activity: 'Voter sign-up: SMS code sent',
    smsMessage: 'sms.signUpCode',
  });
  return {
    message: sent.message,
    pfNumber: member.memberNo,
    pending: {
      kind: 'signup',
      role: 'voter',
      subjectId: member.id,
      challengeId: sent.pending.challengeId,
      googleSub: identity.sub,
      googleEmail: identity.email,
      expiresAt: sent.pending.expiresAt,
    },
  };
}

/** Thrown inside the linking transaction to roll it back, spent code and all, when the account is taken. */
class AccountTaken extends Error {}

/**
 * signup/verify: spends the code of the pending sign-up and links its Google account, in one
 * transaction. A wrong code counts against the code (5 tries) and the member's sign-up.
 *
 * "Account exists" (409, docs/api.md "Rules the server enforces", sign-up) can arise between the
 * two steps: the member signed in with Google by email meanwhile, or this Google account was
 * linked to another member. It is judged only after the code: a wrong, dead or used-up code
 * answers (and counts) exactly as for a free account, so whoever holds the pending cookie
 * without the code learns nothing about the member's or the Google account's links from it.
 * With a right code the 409 rolls the whole transaction back, the spent code with it: a right
 * code that links nothing is neither spent nor counted against the sign-up, and stays usable by
 * this pending sign-up for the rest of its 5 minutes, should the conflict be resolved.
 */
export async function finishSignUp(
  ctx: Core,
  input: { pending: SignUpPending; code: string; ip: string },
): Promise<{ message: string; pfNumber: string }> {
  const { subjectId, challengeId, googleSub, googleEmail } = input.pending;
  const { db } = ctx.database;
  const [attempt, member] = await Promise.all([
    beginAttempt(ctx, countersFor(ctx, 'voter', subjectId, 'signup', input.ip)),
    memberRow(db, subjectId),
  ]);
  let outcome: { ok: true } | { ok: false; reason: 'wrong' | 'exhausted' | 'dead' | 'taken' };
  try {
    outcome = await inTransaction(ctx, 'Google account linked', async (tx) => {
      const check = await consumeCode(ctx, tx, { purpose: 'voter', subjectId, challengeId, code: input.code });
      if (!check.ok || !member) return { ok: false as const, reason: check.ok ? ('dead' as const) : check.reason };
      if (!(await linkGoogleIfUnlinked(tx, member.id, googleSub, ctx.now()))) throw new AccountTaken();
      await markMemberVerified(ctx, tx, member.id);
      await recordActivity(
        ctx,
        { ...memberActivity(member, LINKED, input.ip), status: 'success', data: `Google account ${googleEmail}` },
        tx,
      );
      return { ok: true as const };
    });
  } catch (error) {
    // The member was linked meanwhile (AccountTaken), or this Google account was, to another member.
    if (!(error instanceof AccountTaken) && !isUniqueViolation(error)) throw error;
    outcome = { ok: false, reason: 'taken' };
  }
  if (!outcome.ok) {
    const row = member ? memberActivity(member, CHECKED, input.ip) : { name: 'unknown', activity: CHECKED, ip: input.ip };
    await recordActivity(ctx, { ...row, status: 'failed', data: outcome.reason === 'taken' ? 'account exists' : outcome.reason });
    if (outcome.reason === 'taken') {
      await attempt.withdraw();
      throw conflict();
    }
    throw AppError.sayIssue('UNAUTHENTICATED', codeFailureSaid(outcome.reason));
  }
  await attempt.succeeded();
  return { message: SIGNED_UP, pfNumber: member!.memberNo };
}
