import { randomUUID } from 'node:crypto';
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import type postgres from 'postgres';
import { whileHeld } from '../two-sessions';

export const TEST_GOOGLE_CLIENT_ID = 'kura-test-client.apps.googleusercontent.com';

export type IdTokenClaims = {
  email: string;
  sub?: string;
  emailVerified?: boolean;
  name?: string;
  picture?: string;
  audience?: string;
  issuer?: string;
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number;
  /** Sign with a key Google's certificate list does not have. */
  foreignKey?: boolean;
};

export type GoogleSigner = {
  /** For ctx.google.certs: the test key by key id, as Google serves its PEM certificates. */
  certs: () => Promise<Record<string, string>>;
  idToken(claims: IdTokenClaims): Promise<string>;
};

/** Signs Google-shaped ID tokens with its own RSA key, so Google sign-in tests never touch the network. */
export async function createGoogleSigner(): Promise<GoogleSigner> {
  const kid = 'kura-test-key';
  const trusted = await generateKeyPair('RS256', { extractable: true });
  const foreign = await generateKeyPair('RS256');
  const pem = await exportSPKI(trusted.publicKey);
  let n = 0;
  return {
    certs: async () => ({ [kid]: pem }),
    async idToken(claims) {
      const now = Math.floor(Date.now() / 1000);
      const expiresIn = claims.expiresIn ?? 3600;
      return (
        new SignJWT({
          email: claims.email,
          email_verified: claims.emailVerified ?? true,
          name: claims.name ?? 'Google Person',
          picture: claims.picture ?? 'https://lh3.googleusercontent.com/a/test-photo',
        })
          .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
          .setSubject(claims.sub ?? `google-sub-${claims.email}-${++n}`)
          .setAudience(claims.audience ?? TEST_GOOGLE_CLIENT_ID)
          .setIssuer(claims.issuer ?? 'https://accounts.google.com')
          .setIssuedAt(Math.min(now, now + expiresIn - 60))
          // Google's tokens carry a unique id: two with the same claims in one second still differ.
          .setJti(randomUUID())
          .setExpirationTime(now + expiresIn)
          .sign(claims.foreignKey ? foreign.privateKey : trusted.privateKey)
      );
    },
  };
}

/**
 * Runs `signIn` while another session holds the account's row (`table`, `id`) and links another
 * Google account to it meanwhile (a sign-up, or another sign-in, committing first).
 */
export function signedInWhileLinked<T>(
  sql: postgres.Sql,
  table: 'members' | 'staff',
  id: number,
  signIn: () => PromiseLike<T>,
): Promise<T> {
  return whileHeld(sql, {
    hold: (s) => s`select id from ${s(table)} where id = ${id} for update`,
    action: signIn,
    meanwhile: (s) => s`update ${s(table)} set google_sub = 'linked-meanwhile' where id = ${id}`,
    what: 'the sign-in',
  });
}
