import { createHmac, randomInt } from 'node:crypto';
import { smallRandomBytes } from '../../lib/crypto';

/** Crockford's base32: no I, L, O or U, so a receipt read aloud or copied by hand survives. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A receipt (vvpat ref) such as `VP-7K3Q-M9XD-2F8A`: 12 symbols from the CSPRNG, 60 bits. Receipts
 * are only unique by chance (they are sealed in the queue until mixed), so the space must make a
 * collision negligible even for millions of ballots: 60 bits give ~4e-7 at one million.
 */
export function newReceipt(): string {
  const bytes = smallRandomBytes(12);
  let out = 'VP';
  for (let i = 0; i < 12; i++) {
    if (i % 4 === 0) out += '-';
    out += ALPHABET[bytes[i]! & 31];
  }
  return out;
}

/** Normalises what a person typed: case, spaces and dashes, and the look-alikes Crockford reads as digits (O→0, I/L→1). */
export function normaliseReceipt(input: string): string {
  const compact = input.toUpperCase().replace(/[^0-9A-Z]/g, '');
  if (!/^VP[0-9A-Z]{12}$/.test(compact)) return input.trim().toUpperCase();
  const code = compact.slice(2).replace(/O/g, '0').replace(/[IL]/g, '1');
  return `VP-${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}`;
}

/**
 * The id of a queued ballot: a keyed hash of its receipt (HMAC-SHA256 under a key derived from
 * BALLOT_KEY, 16 bytes), so a receipt check finds the queued ballot by its primary key instead of
 * opening the whole queue. Without the key the id is as meaningless as a random one: it hints at
 * no cast order, and nobody can compute it from a receipt (one a voter shows, or one published
 * later in `ballots`) to find the queue row, and through its xmin the participation row.
 */
export const queueIdOf = (key: Buffer, receipt: string): string =>
  createHmac('sha256', key).update(receipt).digest().subarray(0, 16).toString('base64url');

/** Fisher–Yates with the CSPRNG: the order the mixer writes a batch in. */
export function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(0, i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
