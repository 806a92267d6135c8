import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from './env';
import { subkey } from './lib/crypto';

export type Secrets = {
  /** 32 bytes: AES-256-GCM key sealing voter→receipt links, queued ballots and TOTP secrets. */
  ballotKey: Buffer;
  /** Signs cookies and one-time code hashes; the keys below are derived from it. */
  sessionSecret: string;
  /** AES-256-GCM key of the pending sign-in cookie (HKDF from sessionSecret). */
  pendingCookieKey: Buffer;
  /** HMAC key of the signed help-report image URLs (HKDF from sessionSecret). */
  reportImageKey: Buffer;
  /** HMAC key naming a queued ballot by its receipt (HKDF from ballotKey): the queue's keyed probe. */
  queueIdKey: Buffer;
};

/** The secrets with the keys derived from them, derived once at start. */
function withSubkeys(ballotKey: Buffer, sessionSecret: string): Secrets {
  return {
    ballotKey,
    sessionSecret,
    pendingCookieKey: subkey(sessionSecret, 'pending sign-in cookie'),
    reportImageKey: subkey(sessionSecret, 'report image urls'),
    queueIdKey: subkey(ballotKey.toString('hex'), 'queued ballot ids'),
  };
}

function decodeKey(value: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
}

/**
 * Keys come from the environment in production. Outside production a missing key is generated
 * once into DATA_DIR/secrets.json (mode 0600) so a restart can still read what was sealed.
 */
export function loadSecrets(env: Pick<Env, 'BALLOT_KEY' | 'SESSION_SECRET' | 'DATA_DIR'>): Secrets {
  let stored: { ballotKey?: string; sessionSecret?: string } = {};
  const file = join(env.DATA_DIR, 'secrets.json');
  if ((!env.BALLOT_KEY || !env.SESSION_SECRET) && existsSync(file)) {
    stored = JSON.parse(readFileSync(file, 'utf8')) as typeof stored;
  }
  const ballotKey = env.BALLOT_KEY ?? stored.ballotKey ?? randomBytes(32).toString('hex');
  const sessionSecret = env.SESSION_SECRET ?? stored.sessionSecret ?? randomBytes(32).toString('hex');
  if (!env.BALLOT_KEY || !env.SESSION_SECRET) {
    const toStore = { ballotKey: env.BALLOT_KEY ? undefined : ballotKey, sessionSecret: env.SESSION_SECRET ? undefined : sessionSecret };
    if (toStore.ballotKey !== stored.ballotKey || toStore.sessionSecret !== stored.sessionSecret) {
      mkdirSync(env.DATA_DIR, { recursive: true });
      writeFileSync(file, JSON.stringify(toStore, null, 2), { mode: 0o600 });
    }
  }
  return withSubkeys(decodeKey(ballotKey), sessionSecret);
}

/** Fresh random secrets (tests). */
export function randomSecrets(): Secrets {
  return withSubkeys(randomBytes(32), randomBytes(32).toString('hex'));
}
