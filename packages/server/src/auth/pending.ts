import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Core } from '../core';
import { AppError } from '../errors';
import type { Role } from './sessions';

/**
 * The state between the two steps of a sign-in, kept in an httpOnly, SameSite=Lax cookie that is
 * opaque: AES-256-GCM under a key derived from the session secret (HKDF), a random IV, the JSON
 * padded to one length, base64url (SECURITY.md "Enumeration"). So the cookie of an unknown email
 * looks exactly like an agent's and shows no id; a forged or altered cookie fails to decrypt and
 * counts as no pending sign-in (a sign-up state, which also names the Google account, may pad to a
 * longer length: whoever holds it started a sign-up). It holds ids only, never a code or pin; the
 * code itself lives hashed in otp_challenges.
 */
export type PendingSignIn =
  /** A one-time code was sent (SMS for voters, email for staff); `challengeId` 0 = nothing was sent. */
  | { kind: 'code'; role: Role; subjectId: number; challengeId: number; expiresAt: number }
  /**
   * Authenticator sign-in: the pin step was passed for this member. `lastStep` is the member's last
   * accepted authenticator step when the pin passed: the first token accepted after it (this
   * sign-in's) moves it on, so the state is good for one sign-in only, however often it is replayed.
   */
  | { kind: 'pin'; role: 'voter'; subjectId: number; pinPassed: true; lastStep: number | null; expiresAt: number }
  /**
   * Sign-up: a code was texted to the member's registered phone; spending it links this Google
   * account (the verified `sub`, and its email for the activity log) to the member.
   */
  | { kind: 'signup'; role: 'voter'; subjectId: number; challengeId: number; googleSub: string; googleEmail: string; expiresAt: number };

const PendingSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('code'),
    role: z.enum(['voter', 'agent', 'admin']),
    subjectId: z.number().int().nonnegative(),
    challengeId: z.number().int().nonnegative(),
    expiresAt: z.number(),
  }),
  z.object({
    kind: z.literal('pin'),
    role: z.literal('voter'),
    subjectId: z.number().int().positive(),
    pinPassed: z.literal(true),
    lastStep: z.number().int().nullable(),
    expiresAt: z.number(),
  }),
  z.object({
    kind: z.literal('signup'),
    role: z.literal('voter'),
    subjectId: z.number().int().positive(),
    challengeId: z.number().int().positive(),
    googleSub: z.string().min(1).max(255),
    googleEmail: z.string().max(320),
    expiresAt: z.number(),
  }),
]);

/** How long a started sign-in stays open: the life of a one-time code. */
export const PENDING_TTL_MS = 5 * 60_000;

export const pendingCookieName = (role: Role) => `kura_pending_${role}`;

/** The cookie reaches only the API (both /api and /api/v1). */
const COOKIE_PATH = '/api';

/** Every state is padded to this many bytes before sealing, so all cookies have one length. */
const PADDED_BYTES = 192;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The cookie value for `state` (exported for the tests that check it is opaque). */
export function sealPending(ctx: Core, state: PendingSignIn): string {
  const json = JSON.stringify(state);
  const plain = Buffer.alloc(Math.max(PADDED_BYTES, Math.ceil(json.length / 64) * 64), ' ');
  plain.write(json, 'utf8');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', ctx.secrets.pendingCookieKey, iv);
  cipher.setAAD(Buffer.from(state.role));
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
}

/** The state in a cookie value, or undefined when it is not one this server sealed for `role`. */
function openPending(ctx: Core, value: string, role: Role): unknown {
  try {
    const bytes = Buffer.from(value, 'base64url');
    if (bytes.length < IV_BYTES + TAG_BYTES + PADDED_BYTES) return undefined;
    const decipher = createDecipheriv('aes-256-gcm', ctx.secrets.pendingCookieKey, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(role));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
    return JSON.parse(plain.toString('utf8'));
  } catch {
    return undefined;
  }
}

export function setPendingSignIn(ctx: Core, req: Request, res: Response, state: PendingSignIn): void {
  res.cookie(pendingCookieName(state.role), sealPending(ctx, state), {
    httpOnly: true,
    sameSite: 'lax',
    secure: req.secure,
    path: COOKIE_PATH,
    // The browser may drop it a little later than the server stops honouring it; `expiresAt` rules.
    maxAge: PENDING_TTL_MS + 60_000,
  });
}

export function clearPendingSignIn(req: Request, res: Response, role: Role): void {
  res.clearCookie(pendingCookieName(role), { httpOnly: true, sameSite: 'lax', secure: req.secure, path: COOKIE_PATH });
}

export const SIGN_IN_EXPIRED = 'Your sign-in has expired, please start again';

/**
 * The pending sign-in of `role`, or a 401 when it is missing, forged or altered (fails to decrypt), of the
 * wrong kind or expired by the server clock.
 */
export function readPendingSignIn<K extends PendingSignIn['kind']>(
  ctx: Core,
  req: Request,
  role: Role,
  kind: K,
): Extract<PendingSignIn, { kind: K }> {
  const raw = (req.cookies as Record<string, unknown> | undefined)?.[pendingCookieName(role)];
  let parsed: PendingSignIn | undefined;
  if (typeof raw === 'string') {
    const result = PendingSchema.safeParse(openPending(ctx, raw, role));
    if (result.success) parsed = result.data;
  }
  if (!parsed || parsed.kind !== kind || parsed.role !== role || parsed.expiresAt <= ctx.now().getTime()) {
    throw AppError.say('UNAUTHENTICATED', 'signIn.expired', undefined, { issue: SIGN_IN_EXPIRED });
  }
  return parsed as Extract<PendingSignIn, { kind: K }>;
}
