import type { Request, Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context';
import { AppError } from '../errors';
import type { Role } from './sessions';

/**
 * The state between the two steps of a sign-in, kept in an httpOnly, SameSite=Lax cookie signed
 * with the session secret (cookie-parser). It holds ids only, never a code or pin, so a stolen
 * cookie is worth nothing without the code; the code itself lives hashed in otp_challenges.
 */
export type PendingSignIn =
  /** A one-time code was sent (SMS for voters, email for staff); `challengeId` 0 = nothing was sent. */
  | { kind: 'code'; role: Role; subjectId: number; challengeId: number; expiresAt: number }
  /** Authenticator sign-in: the pin step was passed for this member. */
  | { kind: 'pin'; role: 'voter'; subjectId: number; pinPassed: true; expiresAt: number };

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
    expiresAt: z.number(),
  }),
]);

/** How long a started sign-in stays open: the life of a one-time code. */
export const PENDING_TTL_MS = 5 * 60_000;

export const pendingCookieName = (role: Role) => `kura_pending_${role}`;

/** The cookie reaches only the API (both /api and /api/v1). */
const COOKIE_PATH = '/api';

export function setPendingSignIn(req: Request, res: Response, state: PendingSignIn): void {
  res.cookie(pendingCookieName(state.role), JSON.stringify(state), {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: req.secure,
    path: COOKIE_PATH,
    // The browser may drop it a little later than the server stops honouring it; `expiresAt` rules.
    maxAge: PENDING_TTL_MS + 60_000,
  });
}

export function clearPendingSignIn(req: Request, res: Response, role: Role): void {
  res.clearCookie(pendingCookieName(role), { httpOnly: true, sameSite: 'lax', secure: req.secure, path: COOKIE_PATH, signed: true });
}

export const SIGN_IN_EXPIRED = 'Your sign-in has expired, please start again';

/**
 * The pending sign-in of `role`, or a 401 when it is missing, forged (bad signature), of the
 * wrong kind or expired by the server clock.
 */
export function readPendingSignIn<K extends PendingSignIn['kind']>(
  ctx: AppContext,
  req: Request,
  role: Role,
  kind: K,
): Extract<PendingSignIn, { kind: K }> {
  const raw = (req.signedCookies as Record<string, unknown> | undefined)?.[pendingCookieName(role)];
  let parsed: PendingSignIn | undefined;
  if (typeof raw === 'string') {
    try {
      const result = PendingSchema.safeParse(JSON.parse(raw));
      if (result.success) parsed = result.data;
    } catch {
      parsed = undefined;
    }
  }
  if (!parsed || parsed.kind !== kind || parsed.role !== role || parsed.expiresAt <= ctx.now().getTime()) {
    throw new AppError('UNAUTHENTICATED', SIGN_IN_EXPIRED, { issue: SIGN_IN_EXPIRED });
  }
  return parsed as Extract<PendingSignIn, { kind: K }>;
}
