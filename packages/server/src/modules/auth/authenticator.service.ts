import type { Session } from '@kura/contract';
import { beginAttempt, countersFor } from '../../auth/account-limits';
import { SIGN_IN_EXPIRED, PENDING_TTL_MS, type PendingSignIn } from '../../auth/pending';
import type { Caller } from '../../auth/sessions';
import { matchTotpStep, newTotpSecret, qrCodeDataUrl } from '../../auth/totp';
import type { Core } from '../../core';
import type { Db, Tx } from '../../db/client';
import { acceptTotpStep, confirmTotp, memberRow, replacePinIfUnchanged, startTotpEnrolment } from '../../db/member-store';
import { AppError } from '../../errors';
import { memberActivity, recordActivity } from '../../lib/activity-log';
import { safeEqual, seal, unseal } from '../../lib/crypto';
import { findMemberByIdentifier, markMemberVerified, noAccount, startSession, type Member } from './sign-in-support';
import { inTransaction } from '../../lib/unit-of-work';

/**
 * Authenticator app sign-in: enrolment (send-qr, verify-token) needs a signed-in voter, so
 * nobody can enrol an authenticator knowing only public data (member number, default pin).
 * Sign-in is pin (sign-pass) then a TOTP token (verify-token-login); each 30 s step is accepted
 * once per member.
 */

export const NOT_YOUR_ACCOUNT = 'You can only set up an authenticator for your own account';
export const SCAN_FIRST = 'Scan the QR code with your authenticator app first';
export const TOKEN_WRONG = 'The token is incorrect or has expired, please try again';
export const PIN_WRONG = 'Incorrect pin';
export const NO_AUTHENTICATOR = 'Set up an authenticator app first: sign in with an SMS code, then scan the QR code';
export const AUTHENTICATOR_CONFIRMED = 'Authenticator set up successfully';
export const PIN_ACCEPTED = 'Pin accepted, enter the token from your authenticator app';
export const PIN_CHANGED = 'Pin changed';
export const PIN_IS_DEFAULT = 'Choose a pin other than the default pin';

/** The caller's own member record named by pfNumber (member number or email), or 403. */
async function ownMember(ctx: Core, caller: Caller, pfNumber: string): Promise<Member> {
  const member = await findMemberByIdentifier(ctx.database.db, pfNumber);
  if (!member || member.id !== caller.subjectId)
    throw AppError.say('FORBIDDEN', 'authenticator.notYourAccount', undefined, { issue: NOT_YOUR_ACCOUNT });
  return member;
}

/** send-qr: a new secret (sealed with the server key) replaces any earlier one until confirmed. */
export async function startEnrolment(
  ctx: Core,
  caller: Caller,
  input: { pfNumber: string; ip: string },
): Promise<{ url: string; secret: string }> {
  const member = await ownMember(ctx, caller, input.pfNumber);
  const { secret, otpauthUrl } = newTotpSecret(ctx.env.APP_NAME);
  const url = await qrCodeDataUrl(otpauthUrl);
  await inTransaction(ctx, 'Authenticator enrolment started', async (tx) => {
    await startTotpEnrolment(tx, member.id, seal(ctx.secrets.ballotKey, secret), ctx.now());
    await recordActivity(
      ctx,
      {
        name: member.name,
        activity: 'Authenticator enrolment started',
        userId: member.id,
        userType: 'voter',
        ip: input.ip,
        status: 'success',
      },
      tx,
    );
  });
  return { url, secret };
}

/**
 * Accepts a token for the member if it matches a step newer than the last accepted one. The
 * conditional update makes the check-and-store atomic, so a token raced twice is accepted once.
 */
async function acceptToken(ctx: Core, db: Db | Tx, member: Member, token: string): Promise<number | null> {
  if (!member.totpSecretEnc) return null;
  const secret = unseal(ctx.secrets.ballotKey, member.totpSecretEnc);
  const step = matchTotpStep(secret, token, ctx.now(), member.totpLastStep);
  if (step === null) return null;
  // Only from the last step read with the member: a token accepted meanwhile (another sign-in on
  // the same passed pin) leaves this one nothing to accept.
  return (await acceptTotpStep(db, member.id, member.totpLastStep, step)) ? step : null;
}

/** verify-token: the first token from the app confirms the enrolment. */
export async function confirmEnrolment(
  ctx: Core,
  caller: Caller,
  input: { pfNumber: string; token: string; ip: string },
): Promise<{ message: string }> {
  const member = await ownMember(ctx, caller, input.pfNumber);
  if (!member.totpSecretEnc) throw AppError.say('FORBIDDEN', 'authenticator.scanFirst', undefined, { issue: SCAN_FIRST });
  const attempt = await beginAttempt(ctx, countersFor(ctx, 'voter', member.id, 'token', input.ip));
  const activity = 'Authenticator enrolment confirmed';
  const ok = await inTransaction(ctx, 'Authenticator enrolment confirmed', async (tx) => {
    const step = await acceptToken(ctx, tx, member, input.token);
    if (step === null) return false;
    await confirmTotp(tx, member.id, ctx.now());
    await recordActivity(ctx, { ...memberActivity(member, activity, input.ip), status: 'success' }, tx);
    return true;
  });
  if (!ok) {
    await recordActivity(ctx, { ...memberActivity(member, activity, input.ip), status: 'failed', data: 'wrong token' });
    // 422, not 401: the caller is signed in, and a 401 would end their session in the browser.
    throw AppError.fieldsSaid({ token: [{ id: 'authenticator.tokenWrong' }] });
  }
  await attempt.succeeded();
  return { message: AUTHENTICATOR_CONFIRMED };
}

async function pinMatches(ctx: Core, member: Member, pin: string): Promise<boolean> {
  // No stored pin means the configured default pin, until the member changes it.
  if (!member.pinHash) return safeEqual(pin, ctx.env.DEFAULT_PIN);
  return ctx.passwords.verify(pin, member.pinHash);
}

/**
 * psk/pin: a signed-in member replaces their pin (the default until they set one), which ends
 * the default pin for them. The current pin is counted with the member's pin failures at
 * sign-pass, so a borrowed session cannot guess it faster than the sign-in could. Only the hash
 * is stored; the log says that the pin changed, never what it is.
 */
export async function changePin(
  ctx: Core,
  caller: Caller,
  input: { currentPin: string; newPin: string; ip: string },
): Promise<{ message: string }> {
  const member = await memberRow(ctx.database.db, caller.subjectId);
  if (!member) throw new AppError('UNAUTHENTICATED');
  if (safeEqual(input.newPin, ctx.env.DEFAULT_PIN)) throw AppError.fieldsSaid({ new_pin: [{ id: 'authenticator.pinIsDefault' }] });
  const activity = 'Pin changed';
  const attempt = await beginAttempt(ctx, countersFor(ctx, 'voter', member.id, 'pin', input.ip));
  const matches = await pinMatches(ctx, member, input.currentPin);
  const newHash = matches ? await ctx.passwords.hash(input.newPin) : '';
  const changed = matches
    ? await inTransaction(ctx, 'PIN changed', async (tx) => {
        // Only over the pin just checked: a change that landed meanwhile makes this current pin stale.
        const replaced = await replacePinIfUnchanged(tx, member.id, member.pinHash, newHash, ctx.now());
        if (replaced) await recordActivity(ctx, { ...memberActivity(member, activity, input.ip), status: 'success' }, tx);
        return replaced;
      })
    : false;
  if (!changed) {
    await recordActivity(ctx, { ...memberActivity(member, activity, input.ip), status: 'failed', data: 'wrong current pin' });
    // 422, not 401: the caller is signed in, and a 401 would end their session in the browser.
    throw AppError.fieldsSaid({ current_pin: [{ id: 'authenticator.pinWrong' }] });
  }
  await attempt.succeeded();
  return { message: PIN_CHANGED };
}

/**
 * sign-pass: checks the pin of a member with a confirmed authenticator and answers the pending
 * "pin passed" state for the cookie; a member without one gets 403 whatever the pin.
 */
export async function checkPin(
  ctx: Core,
  input: { pfNumber: string; pin: string; ip: string },
): Promise<{ message: string; pending: Extract<PendingSignIn, { kind: 'pin' }> }> {
  const activity = 'Authenticator sign-in: pin check';
  const member = await findMemberByIdentifier(ctx.database.db, input.pfNumber);
  if (!member) {
    await recordActivity(ctx, { name: input.pfNumber, activity, ip: input.ip, status: 'failed', data: 'no such member' });
    throw noAccount();
  }
  // Without a confirmed authenticator the pin opens nothing, so it is not checked at all: the
  // same 403 whatever the pin (an answer that differed would be an uncounted oracle for the
  // member's own pin), and no failure is counted (otherwise anyone knowing a member number
  // could spend the member's failures). See SECURITY.md.
  if (!member.totpConfirmedAt) {
    await recordActivity(ctx, { ...memberActivity(member, activity, input.ip), status: 'denied', data: 'no authenticator' });
    throw AppError.say('FORBIDDEN', 'authenticator.none', undefined, { issue: NO_AUTHENTICATOR });
  }
  const attempt = await beginAttempt(ctx, countersFor(ctx, 'voter', member.id, 'pin', input.ip));
  if (!(await pinMatches(ctx, member, input.pin))) {
    await recordActivity(ctx, { ...memberActivity(member, activity, input.ip), status: 'failed', data: 'wrong pin' });
    throw AppError.say('UNAUTHENTICATED', 'authenticator.pinWrong', undefined, { issue: PIN_WRONG });
  }
  await attempt.succeeded();
  await recordActivity(ctx, { ...memberActivity(member, activity, input.ip), status: 'success' });
  return {
    message: PIN_ACCEPTED,
    pending: {
      kind: 'pin',
      role: 'voter',
      subjectId: member.id,
      pinPassed: true,
      lastStep: member.totpLastStep,
      expiresAt: ctx.now().getTime() + PENDING_TTL_MS,
    },
  };
}

/** verify-token-login: after a passed pin, a fresh authenticator token starts the session. */
export async function signInWithAuthenticator(
  ctx: Core,
  input: { pending: Extract<PendingSignIn, { kind: 'pin' }>; pfNumber: string; token: string; ip: string },
): Promise<Session> {
  const activity = 'Authenticator sign-in: token check';
  const member = await findMemberByIdentifier(ctx.database.db, input.pfNumber);
  // A pin-passed state is spent by the first token accepted after it: replayed, it is no sign-in.
  if (!member || member.id !== input.pending.subjectId || member.totpLastStep !== input.pending.lastStep) {
    throw AppError.say('UNAUTHENTICATED', 'signIn.expired', undefined, { issue: SIGN_IN_EXPIRED });
  }
  if (!member.totpConfirmedAt) throw AppError.say('FORBIDDEN', 'authenticator.none', undefined, { issue: NO_AUTHENTICATOR });
  const attempt = await beginAttempt(ctx, countersFor(ctx, 'voter', member.id, 'token', input.ip));
  const session = await inTransaction(ctx, 'Authenticator sign-in', async (tx) => {
    const step = await acceptToken(ctx, tx, member, input.token);
    if (step === null) return null;
    await markMemberVerified(ctx, tx, member.id);
    await recordActivity(ctx, { ...memberActivity(member, activity, input.ip), status: 'success' }, tx);
    const { id: subjectId, name, photoUrl: photo, language } = member;
    return startSession(ctx, tx, { role: 'voter', subjectId, name, photo, ip: input.ip, language });
  });
  if (!session) {
    await recordActivity(ctx, { ...memberActivity(member, activity, input.ip), status: 'failed', data: 'wrong token' });
    throw AppError.say('UNAUTHENTICATED', 'authenticator.tokenWrong', undefined, { issue: TOKEN_WRONG });
  }
  await attempt.succeeded();
  return session;
}
