import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/**
 * A 32-byte key for one purpose derived from a secret (HKDF-SHA256, salt 'kura', the purpose as
 * info): one secret in the environment, a separate key per use, none usable for another.
 */
export const subkey = (secret: string, label: string): Buffer => Buffer.from(hkdfSync('sha256', secret, 'kura', label, 32));

/** An opaque bearer token: 32 random bytes (256 bits), base64url. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** A 6-digit one-time code from the CSPRNG. */
export const newOtpCode = (): string => randomInt(0, 1_000_000).toString().padStart(6, '0');

export const safeEqual = (a: string, b: string): boolean => {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
};

// scrypt N=2^15, r=8: ~50 ms and 32 MiB per hash on this class of machine, deliberately slow.
const SCRYPT = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** Slow password/pin hash: `scrypt$<salt b64>$<hash b64>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32, SCRYPT);
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, saltB64, hashB64] = stored.split('$');
  if (scheme !== 'scrypt' || !saltB64 || !hashB64) return false;
  const expected = Buffer.from(hashB64, 'base64');
  const actual = await scryptAsync(password, Buffer.from(saltB64, 'base64'), expected.length, SCRYPT);
  return timingSafeEqual(expected, actual);
}

/** AES-256-GCM: `iv.tag.ciphertext`, each base64url. */
export function seal(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

/**
 * Seals JSON padded with spaces to a whole number of `block` bytes, so the sealed length says
 * nothing about the content (a candidate id's digit count, how many entries a message holds)
 * beyond the number of blocks. `JSON.parse` ignores the padding, so `unseal` + `JSON.parse` opens it.
 */
export function sealPadded(key: Buffer, value: unknown, block: number): string {
  const json = JSON.stringify(value);
  const size = Buffer.byteLength(json, 'utf8');
  const padded = Math.max(1, Math.ceil(size / block)) * block;
  return seal(key, json + ' '.repeat(padded - size));
}

/** Opens what `seal` made; throws on a wrong key or tampered data. */
export function unseal(key: Buffer, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  if (!iv || !tag || !body) throw new Error('malformed sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}
