import { lt } from 'drizzle-orm';
import type { OAuth2Client } from 'google-auth-library';
import type { Core } from '../core';
import { usedIdTokens } from '../db/schema';
import { AppError } from '../errors';
import { sha256 } from '../lib/crypto';

/** Google's public keys by key id (PEM), as `https://www.googleapis.com/oauth2/v1/certs` serves them. */
export type GoogleCertsSource = () => Promise<Record<string, string>>;

/** What a verified Google ID token says about its holder. */
export type GoogleIdentity = { sub: string; email: string; name: string | null; picture: string | null };

const ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];

export const GOOGLE_NOT_CONFIGURED = 'Google sign-in is not configured on this server';
export const GOOGLE_INVALID = 'Invalid Google credential, please sign in with Google again';
export const GOOGLE_EMAIL_UNVERIFIED = 'Your Google email address is not verified';
export const GOOGLE_EMAIL_MISMATCH = 'The email does not match the Google account';
export const GOOGLE_TOKEN_USED = 'This Google sign-in was already used, please sign in with Google again';

/**
 * Google's verifier of this process (`ctx.google`): one OAuth client, which caches Google's
 * certificates for as long as Google allows. The library is loaded on first use, so servers
 * without Google sign-in never pay its start-up cost. No lifecycle.
 */
export class GoogleVerifier {
  private client: Promise<OAuth2Client> | undefined;
  /** Google's signing keys; unset means fetch them from Google (tests set their own). */
  certs: GoogleCertsSource | undefined;

  oauthClient(): Promise<OAuth2Client> {
    // The audience is given on every check (from ctx.env), so the client needs no client id.
    return (this.client ??= import('google-auth-library').then(({ OAuth2Client }) => new OAuth2Client()));
  }

  async certificates(): Promise<Record<string, string>> {
    if (this.certs) return await this.certs();
    const { certs } = await (await this.oauthClient()).getFederatedSignonCertsAsync();
    return certs as Record<string, string>;
  }
}

/** What a Google sign-in needs: the core and the process's verifier (`google`). */
export type GoogleContext = Core & { google: GoogleVerifier };

async function certificates(ctx: GoogleContext): Promise<Record<string, string>> {
  try {
    return await ctx.google.certificates();
  } catch (error) {
    ctx.logger.warn({ reason: error instanceof Error ? error.message.split('\n')[0] : 'unknown' }, 'could not load Google certificates');
    throw AppError.say('UNAVAILABLE', 'google.unreachable');
  }
}

/**
 * Checks a Google ID token server-side: RS256 signature against Google's keys, audience =
 * GOOGLE_CLIENT_ID, issuer, expiry and a verified email; then spends it, so a token is accepted
 * once (a second use answers 401, whatever the first one led to). Only the canonical spelling of
 * a token is accepted, so no re-encoding of a spent token is a new one. Without GOOGLE_CLIENT_ID every
 * Google sign-in answers 503, never a silent accept.
 */
export async function verifyGoogleIdToken(ctx: GoogleContext, idToken: string): Promise<GoogleIdentity> {
  const audience = ctx.env.GOOGLE_CLIENT_ID;
  if (!audience) throw AppError.say('UNAVAILABLE', 'google.notConfigured');
  // Base64 decoders forgive padding, the standard alphabet, whitespace and spare bits, so one
  // token has many spellings that verify: only its one canonical spelling is accepted.
  const spentKey = canonicalTokenKey(idToken);
  if (!spentKey) throw AppError.say('UNAUTHENTICATED', 'google.invalid', undefined, { issue: GOOGLE_INVALID });
  const certs = await certificates(ctx);
  const client = await ctx.google.oauthClient();
  let payload: Record<string, unknown> | undefined;
  try {
    const ticket = await client.verifySignedJwtWithCertsAsync(idToken, certs, audience, ISSUERS);
    payload = ticket.getPayload() as Record<string, unknown> | undefined;
  } catch {
    // The library's messages quote the token itself: never log them.
    throw AppError.say('UNAUTHENTICATED', 'google.invalid', undefined, { issue: GOOGLE_INVALID });
  }
  const sub = payload?.sub;
  const email = payload?.email;
  if (typeof sub !== 'string' || !sub || typeof email !== 'string' || !email) {
    throw AppError.say('UNAUTHENTICATED', 'google.invalid', undefined, { issue: GOOGLE_INVALID });
  }
  if (payload?.email_verified !== true && payload?.email_verified !== 'true') {
    throw AppError.say('UNAUTHENTICATED', 'google.emailUnverified', undefined, { issue: GOOGLE_EMAIL_UNVERIFIED });
  }
  const exp = typeof payload?.exp === 'number' ? payload.exp * 1000 : ctx.now().getTime() + 3_600_000;
  await spendIdToken(ctx, spentKey, new Date(exp));
  return {
    sub,
    email: email.trim().toLowerCase(),
    name: typeof payload?.name === 'string' ? payload.name : null,
    picture: typeof payload?.picture === 'string' && /^https:\/\//.test(payload.picture) ? payload.picture : null,
  };
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The key a token is spent under: the SHA-256 of its three segments' decoded bytes, each written
 * back in unpadded base64url (so a canonical token keeps the key it always had). Undefined, to be
 * answered like any invalid token, unless the token is exactly three segments each in that
 * canonical form: no padding, no `+` or `/`, no whitespace, no set spare bits in the last character.
 */
export function canonicalTokenKey(idToken: string): string | undefined {
  const segments = idToken.split('.');
  if (segments.length !== 3) return undefined;
  const canonical: string[] = [];
  for (const segment of segments) {
    if (!BASE64URL.test(segment)) return undefined;
    const decoded = Buffer.from(segment, 'base64url').toString('base64url');
    if (decoded !== segment) return undefined;
    canonical.push(decoded);
  }
  return sha256(canonical.join('.'));
}

/**
 * Marks a verified token as used until it expires; 401 when it was used before (also when two
 * requests race with one token: the primary key lets exactly one through). Expired marks go.
 */
async function spendIdToken(ctx: GoogleContext, key: string, expiresAt: Date): Promise<void> {
  const { db } = ctx.database;
  await db.delete(usedIdTokens).where(lt(usedIdTokens.expiresAt, ctx.now()));
  const spent = await db
    .insert(usedIdTokens)
    .values({ tokenHash: key, expiresAt })
    .onConflictDoNothing()
    .returning({ tokenHash: usedIdTokens.tokenHash });
  if (spent.length === 0) throw AppError.say('UNAUTHENTICATED', 'google.tokenUsed', undefined, { issue: GOOGLE_TOKEN_USED });
}
