import { isSignInIdentifier, type Session } from '@kura/contract';
import { beginAttempt, countersFor, unknownAdminCounters } from '../../auth/account-limits';
import { deliverCode, type CodeDeliveryInput } from '../../auth/code-delivery';
import { codeFailureSaid, consumeCode, issueCode, issueDecoyCode } from '../../auth/one-time-codes';
import type { PendingSignIn } from '../../auth/pending';
import type { createDecoyThrottle } from '../../auth/rate-limits';
import type { Role } from '../../auth/sessions';
import type { Core } from '../../core';
import { memberSubject } from '../../db/member-store';
import { staffSubject } from '../../db/staff-store';
import { readDefaultLanguage, readMemberNoPattern } from '../../db/election-store';
import type { Delivery } from '../../delivery';
import { AppError } from '../../errors';
import { defaultLanguage, memberLanguage } from '../../i18n';
import { recordActivity } from '../../lib/activity-log';
import { maskPhone } from '../../lib/masking';
import { findMemberByIdentifier, findStaffByEmail, markMemberVerified, noAccount, startSession } from './sign-in-support';
import { inTransaction } from '../../lib/unit-of-work';

/**
 * Two-step sign-in with a one-time code: voters get it by SMS (member number or email first),
 * admins by email after their password, agents by email alone. Step one answers the pending
 * state the router keeps in the encrypted cookie; step two spends the code and starts a session.
 */

/**
 * What the code flows need besides the context: the transports, the throttle for addresses with
 * no account, and `inBackground`, which runs work after the answer (and lets shutdown wait for it).
 */
export type CodeDeps = {
  delivery: Delivery;
  decoy: ReturnType<typeof createDecoyThrottle>;
  inBackground: (work: () => Promise<void>) => void;
};

/** Work started after the answer, awaited at shutdown so none is cut off half-done. */
export function createBackgroundWork(ctx: Core): CodeDeps['inBackground'] {
  const running = new Set<Promise<void>>();
  ctx.onClose(async () => {
    await Promise.allSettled([...running]);
  });
  return (work) => {
    const done: Promise<void> = work()
      .catch((err: unknown) => ctx.logger.error({ err }, 'background sign-in work failed'))
      .finally(() => running.delete(done));
    running.add(done);
  };
}

type Pending = Extract<PendingSignIn, { kind: 'code' }>;
export type CodeSent = { message: string; pending: Pending };

export const INVALID_CREDENTIALS = 'Invalid credentials';
export const SMS_FAILED = 'Could not send the SMS code, please try again';
export const EMAIL_FAILED = 'Could not send the security code by email, please try again';
export const AGENT_CODE_SENT = 'If this email belongs to an agent, a security code has been sent to it';
export const ADMIN_CODE_SENT = 'A security code has been sent to your email';

const pendingFor = (role: Role, subjectId: number, challengeId: number, expiresAt: Date): Pending => ({
  kind: 'code',
  role,
  subjectId,
  challengeId,
  expiresAt: expiresAt.getTime(),
});

/** Issues a code and waits for the transport to take it; a failed delivery answers 502. */
async function sendCode(ctx: Core, deps: CodeDeps, input: CodeDeliveryInput) {
  const issued = await issueCode(ctx, { purpose: input.role, subjectId: input.subjectId, channel: input.channel });
  if (!(await deliverCode(ctx, deps, input, issued))) {
    throw AppError.say('BAD_GATEWAY', input.channel === 'sms' ? 'code.smsFailed' : 'code.emailFailed');
  }
  return pendingFor(input.role, input.subjectId, issued.challengeId, issued.expiresAt);
}

/**
 * Issues a code and delivers it after the answer: for a flow that answers every address alike,
 * where waiting for the relay (or its failure, a 502) would tell a real account from a stranger.
 */
async function sendCodeInBackground(ctx: Core, deps: CodeDeps, input: CodeDeliveryInput) {
  const issued = await issueCode(ctx, { purpose: input.role, subjectId: input.subjectId, channel: input.channel });
  deps.inBackground(async () => {
    await deliverCode(ctx, deps, input, issued);
  });
  return pendingFor(input.role, input.subjectId, issued.challengeId, issued.expiresAt);
}

/**
 * Texts a code to a member's registered phone (sign-in, and sign-up with its own `smsText`) and
 * answers the message naming the masked phone; a failed delivery answers 502.
 */
export async function sendMemberSmsCode(
  ctx: Core,
  deps: CodeDeps,
  member: { id: number; name: string; phone: string; language: string | null },
  input: Pick<CodeDeliveryInput, 'ip' | 'activity' | 'smsMessage'>,
): Promise<CodeSent> {
  const pending = await sendCode(ctx, deps, {
    role: 'voter',
    subjectId: member.id,
    channel: 'sms',
    to: member.phone,
    name: member.name,
    language: memberLanguage(member, await readDefaultLanguage(ctx.database.db)),
    ...input,
  });
  return { message: `A 6 digit code has been sent to your phone ${maskPhone(member.phone)}`, pending };
}

/** verify/phone: texts a code to the member's registered phone. */
export async function sendVoterCode(ctx: Core, deps: CodeDeps, input: { identifier: string; ip: string }): Promise<CodeSent> {
  // The member-number format is the organisation's setting, so it is checked here, not in the contract.
  if (!isSignInIdentifier(input.identifier, await readMemberNoPattern(ctx.database.db)))
    throw AppError.fieldsSaid({ unique_id: [{ id: 'field.identifierFormat' }] });
  const member = await findMemberByIdentifier(ctx.database.db, input.identifier);
  if (!member) {
    await recordActivity(ctx, {
      name: input.identifier,
      activity: 'Voter sign-in: SMS code requested',
      ip: input.ip,
      status: 'failed',
      data: 'no such member',
    });
    throw noAccount();
  }
  return sendMemberSmsCode(ctx, deps, member, { ip: input.ip, activity: 'Voter sign-in: SMS code sent' });
}

/** admin/login: email and password, then an emailed code. */
export async function sendAdminCode(ctx: Core, deps: CodeDeps, input: { email: string; password: string; ip: string }): Promise<CodeSent> {
  const admin = await findStaffByEmail(ctx.database.db, input.email, 'admin');
  const activity = 'Admin sign-in: password check';
  if (!admin?.passwordHash) {
    // Counted like a real admin's failures (5 free, then delays, then the ceiling), so the answers
    // after a few wrong passwords do not say whether the address is an admin's either.
    await beginAttempt(ctx, unknownAdminCounters(ctx, input.email, input.ip));
    // Still one slow hash, so the answer time does not say whether an admin exists.
    await ctx.passwords.verifyNone(input.password);
    await recordActivity(ctx, {
      name: input.email,
      activity,
      userId: admin?.id,
      userType: 'admin',
      ip: input.ip,
      status: 'failed',
      data: 'unknown email',
    });
    throw AppError.say('UNAUTHENTICATED', 'signIn.invalidCredentials');
  }
  const attempt = await beginAttempt(ctx, countersFor(ctx, 'admin', admin.id, 'password', input.ip));
  if (!(await ctx.passwords.verify(input.password, admin.passwordHash))) {
    await recordActivity(ctx, {
      name: admin.name,
      activity,
      userId: admin.id,
      userType: 'admin',
      ip: input.ip,
      status: 'failed',
      data: 'wrong password',
    });
    throw AppError.say('UNAUTHENTICATED', 'signIn.invalidCredentials');
  }
  await attempt.succeeded();
  await recordActivity(ctx, { name: admin.name, activity, userId: admin.id, userType: 'admin', ip: input.ip, status: 'success' });
  const pending = await sendCode(ctx, deps, {
    role: 'admin',
    subjectId: admin.id,
    channel: 'email',
    to: admin.email,
    name: admin.name,
    ip: input.ip,
    activity: 'Admin sign-in: email code sent',
    language: defaultLanguage(await readDefaultLanguage(ctx.database.db)),
  });
  return { message: ADMIN_CODE_SENT, pending };
}

/** agent/login: emails a code to an agent; the answer is the same for any other email. */
export async function sendAgentCode(ctx: Core, deps: CodeDeps, input: { email: string; ip: string }): Promise<CodeSent> {
  const agent = await findStaffByEmail(ctx.database.db, input.email, 'agent');
  if (!agent) {
    const wait = deps.decoy.hit(`agent:${input.email}`);
    if (wait > 0) throw AppError.say('TOO_MANY_REQUESTS', 'code.resendTooSoon', undefined, { retryAfter: wait });
    await recordActivity(ctx, {
      name: input.email,
      activity: 'Agent sign-in: email code requested',
      ip: input.ip,
      status: 'failed',
      data: 'not an agent',
    });
    // A pending state that no code can ever satisfy, backed by a real challenge, so the cookie and
    // every later answer (wrong, too many tries, expired) look the same as for an agent.
    const decoy = await issueDecoyCode(ctx, 'agent');
    return { message: AGENT_CODE_SENT, pending: pendingFor('agent', 0, decoy.challengeId, decoy.expiresAt) };
  }
  // In the background: the answer must not wait for the relay, nor fail with it, for an agent only.
  const pending = await sendCodeInBackground(ctx, deps, {
    role: 'agent',
    subjectId: agent.id,
    channel: 'email',
    to: agent.email,
    name: agent.name,
    ip: input.ip,
    activity: 'Agent sign-in: email code sent',
    language: defaultLanguage(await readDefaultLanguage(ctx.database.db)),
  });
  return { message: AGENT_CODE_SENT, pending };
}

const CHECK_ACTIVITY: Record<Role, string> = {
  voter: 'Voter sign-in: SMS code check',
  admin: 'Admin sign-in: email code check',
  agent: 'Agent sign-in: email code check',
};

/**
 * verify/sms, verify/admin, verify/agent: spends the code of the pending sign-in and starts a
 * session, in one transaction; a voter becomes verified. A wrong code counts against the code
 * (5 tries) and against the account (per-hour ceiling).
 */
export async function verifyCodeSignIn(ctx: Core, input: { pending: Pending; code: string; ip: string }): Promise<Session> {
  const { role, subjectId, challengeId } = input.pending;
  const activity = CHECK_ACTIVITY[role];
  // Independent, sent together (each sequential round trip waits on the event loop under load).
  // A decoy (subject 0, an unknown agent email) has no account to count against.
  const [subject, attempt] = await Promise.all([
    loadSubject(ctx, role, subjectId),
    subjectId > 0 ? beginAttempt(ctx, countersFor(ctx, role, subjectId, 'code', input.ip)) : undefined,
  ]);
  const outcome = await inTransaction(ctx, 'Code sign-in', async (tx) => {
    // What a right code starts: sent with the update that spends it (one pipelined round trip on
    // the transaction's connection), so the session, the verified mark, the activity row and the
    // clearing of the account's code failures commit together with the spent code, or not at all.
    const finish =
      subject &&
      (async () => {
        const { name, photoUrl: photo, language } = subject;
        const [session] = await Promise.all([
          startSession(ctx, tx, { role, subjectId, name, photo, ip: input.ip, language }),
          role === 'voter' ? markMemberVerified(ctx, tx, subjectId) : undefined,
          recordActivity(ctx, { name, activity, userId: subjectId, userType: role, ip: input.ip, status: 'success' }, tx),
          attempt?.succeeded(tx),
        ]);
        return session;
      });
    const check = await consumeCode(ctx, tx, { purpose: role, subjectId, challengeId, code: input.code }, finish);
    if (!check.ok || !subject) return { ok: false as const, reason: check.ok ? ('dead' as const) : check.reason };
    return { ok: true as const, session: check.value };
  });
  if (!outcome.ok) {
    await recordActivity(ctx, {
      name: subject?.name ?? 'unknown',
      activity,
      userId: subjectId || null,
      userType: role,
      ip: input.ip,
      status: 'failed',
      data: outcome.reason,
    });
    throw AppError.sayIssue('UNAUTHENTICATED', codeFailureSaid(outcome.reason));
  }
  return outcome.session;
}

/** The account finishing its sign-in; a member's `language` goes into the session answer. */
type Subject = { name: string; photoUrl: string | null; language?: string | null };

async function loadSubject(ctx: Core, role: Role, id: number): Promise<Subject | undefined> {
  if (id <= 0) return undefined;
  const { db } = ctx.database;
  if (role === 'voter') return memberSubject(db, id);
  const person = await staffSubject(db, id);
  // The role is fixed at step one; someone whose role changed since cannot finish as the old one.
  return person?.role === role ? person : undefined;
}
