import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, MAX_PASSWORD_COST, MIN_PASSWORD_COST, PASSWORD_COST, PasswordHasher, verifyPassword } from './passwords';

/** A hash as every earlier version stored it: `scrypt$salt$hash`, N = 2^15, r = 8, p = 1, 32 bytes. */
function earlierVersionsHash(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
}

describe('password hashes', () => {
  it('checks a hash stored by an earlier version (no cost named: N = 2^15)', async () => {
    const stored = earlierVersionsHash('correct horse');
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct hors', stored)).toBe(false);
  });

  it('hashes at the product cost in the form earlier versions read, and at another cost with the cost named', async () => {
    expect(PASSWORD_COST).toBe(15);
    const product = await hashPassword('1234 5678');
    expect(product).toMatch(/^scrypt\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(await verifyPassword('1234 5678', product)).toBe(true);
    const cheap = await hashPassword('1234 5678', 10);
    expect(cheap).toMatch(/^scrypt\$ln=10\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(await verifyPassword('1234 5678', cheap)).toBe(true);
    expect(await verifyPassword('1234 567', cheap)).toBe(false);
    // Two hashes of one password differ (fresh salt).
    expect(await hashPassword('1234 5678', 10)).not.toBe(cheap);
  });

  it('checks at the cost the hash names: a hash whose cost was rewritten does not match', async () => {
    const cheap = await hashPassword('pin 8642', 10);
    expect(await verifyPassword('pin 8642', cheap.replace('ln=10', 'ln=11'))).toBe(false);
    // Dropping the cost reads it as the product's 2^15: no match either.
    expect(await verifyPassword('pin 8642', cheap.replace('ln=10$', ''))).toBe(false);
  });

  it('refuses malformed hashes and costs outside the bounds without computing them', async () => {
    const cheap = await hashPassword('secret', 10);
    const [, , salt, hash] = cheap.split('$');
    const refused = [
      '',
      'secret',
      `bcrypt$${salt}$${hash}`,
      `scrypt$${salt}`,
      `scrypt$$${hash}`,
      `scrypt$ln=10$${salt}$`,
      `scrypt$n=10$${salt}$${hash}`,
      `scrypt$ln=abc$${salt}$${hash}`,
      `scrypt$ln=-1$${salt}$${hash}`,
      `scrypt$ln=${MIN_PASSWORD_COST - 1}$${salt}$${hash}`,
      `scrypt$ln=${MAX_PASSWORD_COST + 1}$${salt}$${hash}`,
      // 2^30 would take 128 GiB and minutes: refused unread.
      `scrypt$ln=30$${salt}$${hash}`,
      `scrypt$ln=100$${salt}$${hash}`,
      `scrypt$ln=10$${salt}$${hash}$extra`,
      // Another key length than ours.
      `scrypt$ln=10$${salt}$${Buffer.alloc(16).toString('base64')}`,
    ];
    for (const stored of refused) expect(await verifyPassword('secret', stored), stored).toBe(false);
    expect(await verifyPassword('secret', cheap)).toBe(true);
  });

  it('a hasher hashes at its cost, refuses one outside the bounds, and its check of nothing is false', async () => {
    const hasher = new PasswordHasher(11);
    const stored = await hasher.hash('abc');
    expect(stored.startsWith('scrypt$ln=11$')).toBe(true);
    expect(await hasher.verify('abc', stored)).toBe(true);
    // Checks any cost's hash, whatever its own.
    expect(await hasher.verify('abc', await hashPassword('abc', 10))).toBe(true);
    expect(await hasher.verifyNone('not-a-real-password')).toBe(false);
    expect(await hasher.verifyNone('abc')).toBe(false);
    expect(new PasswordHasher().cost).toBe(PASSWORD_COST);
    for (const cost of [MIN_PASSWORD_COST - 1, MAX_PASSWORD_COST + 1, 12.5, Number.NaN]) {
      expect(() => new PasswordHasher(cost)).toThrow(RangeError);
    }
    await expect(hashPassword('abc', 30)).rejects.toThrow(RangeError);
  });
});
