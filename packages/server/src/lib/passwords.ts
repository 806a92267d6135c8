import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

/**
 * Slow password and pin hashes: scrypt with r = 8, p = 1 and N = 2^cost, a 16-byte salt and a
 * 32-byte hash. The product hashes at cost 15 (~50 ms and 32 MiB per hash on a small server,
 * deliberately slow) and stores it as `scrypt$<salt b64>$<hash b64>`, the form every version has
 * written and read. Another cost is stored with the hash, `scrypt$ln=<cost>$<salt b64>$<hash b64>`,
 * so a hash always verifies at the cost it was made with; only the test harness hashes at another
 * cost (docs/architecture.md "Checks"), and a production core refuses one below the product's.
 */
export const PASSWORD_COST = 15;
/** The costs a stored hash may name: a row naming another is refused unread, never computed (2^30 would take 128 GiB). */
export const MIN_PASSWORD_COST = 10;
export const MAX_PASSWORD_COST = 16;

const options = (cost: number) => ({ N: 2 ** cost, r: 8, p: 1, maxmem: 2 * 128 * 8 * 2 ** cost });

/** A hash of `password` at `cost` (N = 2^cost), in the stored form above. */
export async function hashPassword(password: string, cost = PASSWORD_COST): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32, options(checkedCost(cost)));
  const parts = cost === PASSWORD_COST ? [] : [`ln=${cost}`];
  return ['scrypt', ...parts, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** Whether `password` is the one `stored` was made from, at the cost `stored` names; false for any malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const actual = await scryptAsync(password, parsed.salt, parsed.hash.length, options(parsed.cost));
  return timingSafeEqual(parsed.hash, actual);
}

function validCost(cost: number): boolean {
  return Number.isInteger(cost) && cost >= MIN_PASSWORD_COST && cost <= MAX_PASSWORD_COST;
}

/** `cost` when it is one this module hashes at; a RangeError otherwise (a caller's mistake, never a row's). */
function checkedCost(cost: number): number {
  if (!validCost(cost)) throw new RangeError(`password cost ${cost} is outside ${MIN_PASSWORD_COST}..${MAX_PASSWORD_COST}`);
  return cost;
}

function parse(stored: string): { cost: number; salt: Buffer; hash: Buffer } | undefined {
  const parts = stored.split('$');
  if (parts[0] !== 'scrypt') return undefined;
  let cost = PASSWORD_COST;
  if (parts.length === 4) {
    const named = /^ln=(\d{1,2})$/.exec(parts[1]!);
    if (!named) return undefined;
    cost = Number(named[1]);
    parts.splice(1, 1);
  }
  const [, saltB64, hashB64] = parts;
  if (parts.length !== 3 || !saltB64 || !hashB64 || !validCost(cost)) return undefined;
  const hash = Buffer.from(hashB64, 'base64');
  // scrypt's key length comes from the row: a hash of another length than the product writes is not one of ours.
  if (hash.length !== 32) return undefined;
  return { cost, salt: Buffer.from(saltB64, 'base64'), hash };
}

/**
 * Hashes at one cost for the whole process (the core's `passwords`): the product's everywhere but
 * in the test harness. `verifyNone` costs what checking a hash of this cost costs and is always
 * false, so an answer about an unknown account takes as long as one about a real account.
 */
export class PasswordHasher {
  private dummy: Promise<string> | undefined;

  readonly cost: number;

  constructor(cost: number = PASSWORD_COST) {
    this.cost = checkedCost(cost);
  }

  hash(password: string): Promise<string> {
    return hashPassword(password, this.cost);
  }

  verify(password: string, stored: string): Promise<boolean> {
    return verifyPassword(password, stored);
  }

  async verifyNone(password: string): Promise<false> {
    await verifyPassword(password, await (this.dummy ??= this.hash('not-a-real-password')));
    return false;
  }
}
