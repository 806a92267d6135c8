import {
  createCipheriv,
  createDecipheriv,
  createHash,
  hkdfSync,
  randomBytes,
  randomFillSync,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';

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

/**
 * CSPRNG bytes for small, frequent draws (IVs, receipts), served from a buffer refilled by one
 * `randomFillSync` per POOL_BYTES: a `randomBytes(12)` call costs several microseconds (a trip into
 * OpenSSL), and a two-position vote makes six of them (docs/perf-log/2026-11-26-vote-path.md). The
 * same generator's output, each byte handed out once, always as a copy (never a view of the pool).
 */
export class RandomPool {
  private readonly pool: Buffer;
  private offset: number;

  constructor(size = 4096) {
    this.pool = Buffer.allocUnsafeSlow(size);
    this.offset = size;
  }

  take(n: number): Buffer {
    if (n > this.pool.length) return randomBytes(n);
    if (this.offset + n > this.pool.length) {
      randomFillSync(this.pool);
      this.offset = 0;
    }
    const out = Buffer.allocUnsafe(n);
    this.pool.copy(out, 0, this.offset, this.offset + n);
    // Wiped once handed out: what was given never stays readable in the pool.
    this.pool.fill(0, this.offset, this.offset + n);
    this.offset += n;
    return out;
  }
}

/** The process's pool of small random draws (stateless apart from unread CSPRNG bytes). */
const smallRandom = new RandomPool();

/** `n` bytes from the CSPRNG for a small draw (an IV, a receipt), through the process's pool. */
export const smallRandomBytes = (n: number): Buffer => smallRandom.take(n);

/** AES-256-GCM: `iv.tag.ciphertext`, each base64url. */
export function seal(key: Buffer, plaintext: string): string {
  const iv = smallRandomBytes(12);
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
