import { createHmac } from 'node:crypto';
import type { Core } from '../../core';
import { safeEqual, subkey } from '../../lib/crypto';

/** How long the link in a new admin's e-mail works. */
export const PASSWORD_LINK_TTL_MS = 7 * 24 * 60 * 60_000;

/**
 * The token of a set-password link, kept nowhere: `<staff id>.<expiry ms>.<mac>`, the MAC (an HKDF
 * subkey of the session secret) over the id, the expiry and the admin's current password hash. Setting a
 * password changes the hash, so the token is spent by its first use; removing the admin kills it too.
 */
export function passwordToken(ctx: Core, staffId: number, passwordHash: string | null, now: Date): string {
  const expires = now.getTime() + PASSWORD_LINK_TTL_MS;
  return `${staffId}.${expires}.${mac(ctx, staffId, expires, passwordHash)}`;
}

/** The token's staff id and expiry, when it is well formed (its MAC is checked against the row by {@link tokenMatches}). */
export function readPasswordToken(token: string): { staffId: number; expires: number; mac: string } | null {
  const match = /^([1-9][0-9]{0,9})\.([0-9]{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  return { staffId: Number(match[1]), expires: Number(match[2]), mac: match[3]! };
}

export function tokenMatches(
  ctx: Core,
  token: { staffId: number; expires: number; mac: string },
  passwordHash: string | null,
  now: Date,
): boolean {
  return token.expires > now.getTime() && safeEqual(token.mac, mac(ctx, token.staffId, token.expires, passwordHash));
}

function mac(ctx: Core, staffId: number, expires: number, passwordHash: string | null): string {
  return createHmac('sha256', subkey(ctx.secrets.sessionSecret, 'staff set-password link'))
    .update(`${staffId}.${expires}.${passwordHash ?? ''}`)
    .digest('base64url');
}
