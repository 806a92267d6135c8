import { createHmac } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Core } from '../core';
import type { Db, Tx } from '../db/client';
import { lockKeyed } from '../db/locks';
import { otpChallenges } from '../db/schema';
import { AppError } from '../errors';
import type { MessageId } from '../i18n';
import { newOtpCode, newToken, safeEqual } from '../lib/crypto';
import type { Role } from './sessions';
import { inTransaction } from '../lib/unit-of-work';

/**
 * One-time codes (docs/api.md "Rules the server enforces"): 6 digits from the CSPRNG, stored only
 * as an HMAC, valid 5 minutes, single use, dead after 5 wrong tries, a new code kills the older
 * ones, and at most one send per account per minute.
 */

export const CODE_TTL_MS = 5 * 60_000;
export const MAX_TRIES = 5;
export const RESEND_INTERVAL_MS = 60_000;

export const CODE_WRONG = 'The code is incorrect, please try again';
export const CODE_EXHAUSTED = 'Too many wrong codes, please request a new one';
export const CODE_DEAD = 'The code has expired or was already used, please request a new one';
export const RESEND_TOO_SOON = 'A code was sent less than a minute ago, please wait before asking for another';

type Channel = 'sms' | 'email';

/**
 * Keyed with the server secret: six digits are a million guesses, so a plain hash in a stolen
 * database would give the live codes away at once.
 */
function codeHash(ctx: Core, purpose: Role, subjectId: number, code: string): string {
  return createHmac('sha256', ctx.secrets.sessionSecret).update(`otp:${purpose}:${subjectId}:${code}`).digest('hex');
}

export type IssuedCode = { challengeId: number; code: string; expiresAt: Date };

/**
 * Creates a fresh code for the account and revokes its older ones; 429 (with Retry-After) when
 * the last code went out less than a minute ago. The caller delivers the code, and calls
 * `discardCode` if delivery fails so no usable code is left behind.
 */
export async function issueCode(ctx: Core, input: { purpose: Role; subjectId: number; channel: Channel }): Promise<IssuedCode> {
  const now = ctx.now();
  return inTransaction(ctx, 'One-time code issued', async (tx) => {
    // Serialises concurrent sends for one account, so two requests cannot both pass the resend check.
    await lockKeyed(tx, `otp:${input.purpose}:${input.subjectId}`);
    const [latest] = await tx
      .select({ createdAt: otpChallenges.createdAt })
      .from(otpChallenges)
      .where(and(eq(otpChallenges.purpose, input.purpose), eq(otpChallenges.subjectId, input.subjectId)))
      .orderBy(desc(otpChallenges.createdAt))
      .limit(1);
    const since = latest ? now.getTime() - latest.createdAt.getTime() : Infinity;
    if (since < RESEND_INTERVAL_MS) {
      throw AppError.say('TOO_MANY_REQUESTS', 'code.resendTooSoon', undefined, {
        retryAfter: Math.max(1, Math.ceil((RESEND_INTERVAL_MS - since) / 1000)),
      });
    }
    await tx
      .update(otpChallenges)
      .set({ revokedAt: now })
      .where(
        and(
          eq(otpChallenges.purpose, input.purpose),
          eq(otpChallenges.subjectId, input.subjectId),
          isNull(otpChallenges.usedAt),
          isNull(otpChallenges.revokedAt),
        ),
      );
    const code = newOtpCode();
    const expiresAt = new Date(now.getTime() + CODE_TTL_MS);
    const [row] = await tx
      .insert(otpChallenges)
      .values({
        purpose: input.purpose,
        subjectId: input.subjectId,
        channel: input.channel,
        codeHash: codeHash(ctx, input.purpose, input.subjectId, code),
        expiresAt,
        createdAt: now,
      })
      .returning({ id: otpChallenges.id });
    return { challengeId: row!.id, code, expiresAt };
  });
}

/**
 * A challenge for an address that has no account (agent sign-in answers alike for any email):
 * a real row, so wrong tries count, run out and expire exactly as an agent's do, but its hash is
 * of a secret that is not six digits, so no code can ever match, and it is never delivered. It
 * neither revokes nor waits for other codes: subject 0 is shared by every unknown address.
 */
export async function issueDecoyCode(ctx: Core, purpose: Role): Promise<Omit<IssuedCode, 'code'>> {
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + CODE_TTL_MS);
  const [row] = await ctx.database.db
    .insert(otpChallenges)
    .values({
      purpose,
      subjectId: 0,
      channel: 'email',
      codeHash: codeHash(ctx, purpose, 0, `decoy:${newToken()}`),
      expiresAt,
      createdAt: now,
    })
    .returning({ id: otpChallenges.id });
  return { challengeId: row!.id, expiresAt };
}

/** Removes a code whose delivery failed: it was never seen, and the member may ask again at once. */
export async function discardCode(ctx: Core, challengeId: number): Promise<void> {
  await ctx.database.db.delete(otpChallenges).where(eq(otpChallenges.id, challengeId));
}

/** Removes every code issued to this subject (a removed member's), in the removal's transaction. */
export async function discardCodesOf(tx: Tx, purpose: Role, subjectId: number): Promise<void> {
  await tx.delete(otpChallenges).where(and(eq(otpChallenges.purpose, purpose), eq(otpChallenges.subjectId, subjectId)));
}

/** Spends a code without checking it, in the caller's transaction (the USSD menu, when the member's own pin stood in for it). */
export async function spendCode(tx: Tx, challengeId: number, at: Date): Promise<void> {
  await tx.update(otpChallenges).set({ usedAt: at }).where(eq(otpChallenges.id, challengeId));
}

export type CodeFailure = 'wrong' | 'exhausted' | 'dead';
export type CodeCheck<T = undefined> = { ok: true; value: T } | { ok: false; reason: CodeFailure };

/**
 * Checks and spends a code inside the caller's transaction (so the session it leads to is
 * created atomically). The row is locked, so two concurrent correct answers make one session.
 * `alongside` is the work a right code unlocks: it is started together with the update that
 * spends the code (pipelined on the transaction's connection, one round trip for all of it), and
 * its result is the check's `value`; any failure fails the caller's transaction as a whole.
 */
export async function consumeCode<T = undefined>(
  ctx: Core,
  tx: Db | Tx,
  input: { purpose: Role; subjectId: number; challengeId: number; code: string },
  alongside?: () => Promise<T>,
): Promise<CodeCheck<T>> {
  const now = ctx.now();
  if (input.challengeId <= 0) return { ok: false, reason: 'wrong' };
  const [row] = await tx
    .select()
    .from(otpChallenges)
    .where(
      and(eq(otpChallenges.id, input.challengeId), eq(otpChallenges.purpose, input.purpose), eq(otpChallenges.subjectId, input.subjectId)),
    )
    .for('update');
  if (!row || row.usedAt || row.revokedAt || row.expiresAt <= now || row.tries >= MAX_TRIES) return { ok: false, reason: 'dead' };
  if (!safeEqual(row.codeHash, codeHash(ctx, input.purpose, input.subjectId, input.code))) {
    const tries = row.tries + 1;
    await tx.update(otpChallenges).set({ tries }).where(eq(otpChallenges.id, row.id));
    return { ok: false, reason: tries >= MAX_TRIES ? 'exhausted' : 'wrong' };
  }
  const [, value] = await Promise.all([tx.update(otpChallenges).set({ usedAt: now }).where(eq(otpChallenges.id, row.id)), alongside?.()]);
  return { ok: true, value: value as T };
}

/** Why a code was refused, by catalogue id (its English is CODE_WRONG, CODE_EXHAUSTED or CODE_DEAD). */
export const codeFailureSaid = (reason: CodeFailure): MessageId =>
  reason === 'wrong' ? 'code.wrong' : reason === 'exhausted' ? 'code.exhausted' : 'code.dead';
