import { describe, expect, it } from 'vitest';
import { RandomPool, seal, smallRandomBytes, unseal } from './crypto';

describe('RandomPool', () => {
  it('hands out fresh copies across refills, never the same bytes twice, and wipes what it gave', () => {
    const pool = new RandomPool(64);
    const draws = Array.from({ length: 200 }, () => pool.take(12));
    // 200 × 12 bytes through a 64-byte pool: many refills, no repeat (96 random bits each).
    expect(new Set(draws.map((b) => b.toString('hex'))).size).toBe(200);
    expect(draws.every((b) => b.length === 12 && !b.equals(Buffer.alloc(12)))).toBe(true);
    // A copy: writing to one draw changes no other. What was handed out is wiped from the pool.
    const fresh = new RandomPool(64);
    const [a, b] = [fresh.take(16), fresh.take(16)];
    const before = Buffer.from(b);
    a.fill(7);
    expect(b.equals(before)).toBe(true);
    const inside = (fresh as unknown as { pool: Buffer }).pool;
    expect(inside.subarray(0, 32).equals(Buffer.alloc(32))).toBe(true);
    expect(inside.subarray(32).equals(Buffer.alloc(32))).toBe(false);
  });

  it('serves a draw larger than the pool straight from the generator', () => {
    const big = new RandomPool(16).take(100);
    expect(big.length).toBe(100);
    expect(big.equals(Buffer.alloc(100))).toBe(false);
  });

  it('gives every seal its own IV', () => {
    const key = smallRandomBytes(32);
    const ivs = new Set(Array.from({ length: 1000 }, () => seal(key, 'x').split('.')[0]));
    expect(ivs.size).toBe(1000);
    expect(unseal(key, seal(key, 'receipt'))).toBe('receipt');
  });
});
