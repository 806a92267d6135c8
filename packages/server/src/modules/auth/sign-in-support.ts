import { normalisePhone as phoneInE164, type Session } from '@kura/contract';
import { createSession, type Role } from '../../auth/sessions';
import type { Core } from '../../core';
import type { Db, Tx } from '../../db/client';
import { markVerified, memberByEmail, memberByNumber, membersByNumberOrPhone, type MemberRow } from '../../db/member-store';
import { staffByEmail, type StaffRow } from '../../db/staff-store';
import { AppError } from '../../errors';

/** Pieces every sign-in flow shares: finding the account, finishing with a session. */

export type Member = MemberRow;
export type StaffMember = StaffRow;

export const NO_ACCOUNT = 'No account found, try signing up';
export const NO_SUCH_USER = 'No such user exists';
export const SIGNED_IN = 'Signed in successfully';

/** 404 with the spec's texts; the sign-in screen sends the person to sign-up on this issue. */
export const noAccount = () => AppError.say('NOT_FOUND', 'signIn.noAccount', undefined, { issue: NO_SUCH_USER });

/**
 * A member by the sign-in identifier (docs/api.md "Sign-in identifiers"): an email (stored
 * lower-cased), a member number, or the member's registered phone in any spelling (compared in
 * E.164). A member number wins over a phone that reads the same; a phone two or more members
 * share finds no one, as an unknown identifier does (no guessing whose code to send). One query
 * whichever it turns out to be, so the answer time does not tell a shared phone from an unknown one.
 */
export async function findMemberByIdentifier(db: Db | Tx, identifier: string): Promise<Member | undefined> {
  const value = identifier.trim();
  if (value.includes('@')) {
    return memberByEmail(db, value.toLowerCase());
  }
  const phone = phoneInE164(value);
  if (phone === null) {
    return memberByNumber(db, value);
  }
  // The member-number match first, then at most two phone matches: enough to tell one from several.
  const rows = await membersByNumberOrPhone(db, value, phone);
  const byNumber = rows.find((row) => row.memberNo === value);
  if (byNumber) return byNumber;
  return rows.length === 1 ? rows[0] : undefined;
}

export async function findStaffByEmail(db: Db | Tx, email: string, role: 'admin' | 'agent'): Promise<StaffMember | undefined> {
  return staffByEmail(db, email.trim().toLowerCase(), role);
}

/** Statistics count a member as verified from their first verified sign-in or sign-up on. */
export async function markMemberVerified(ctx: Core, db: Db | Tx, memberId: number): Promise<void> {
  await markVerified(db, memberId, ctx.now());
}

/**
 * Creates the session and answers the Session body (docs/api.md "Shared shapes"). A voter's
 * `language` (null: the member has chosen none) comes from the caller, read with the member
 * it signs in (one round trip fewer than a query of its own here).
 */
export async function startSession(
  ctx: Core,
  db: Db | Tx,
  input: { role: Role; subjectId: number; name: string; photo: string | null; ip: string; language?: string | null },
): Promise<Session> {
  const { token, hash } = await createSession(ctx, { role: input.role, subjectId: input.subjectId, ip: input.ip }, db);
  const session: Session = { bearer_token: token, hash, name: input.name, photo: input.photo, balance: 0, message: SIGNED_IN };
  if (input.role !== 'voter') return session;
  // docs/api.md "Languages": the web app speaks the member's own language first.
  return { ...session, language: input.language ?? null };
}
