import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { SortedReceiptIndex } from './receipt-index';

/** The audit's receipt index (receipt-index.ts) answers as the Map it replaced would. */
describe('SortedReceiptIndex', () => {
  // Shaped as receipts are (VP-XXXX-XXXX-XXXX), from the CSPRNG.
  const newReceipt = () => {
    const code = randomBytes(6).toString('hex').toUpperCase();
    return `VP-${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}`;
  };
  const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

  it('finds every receipt added in byte order, and no other, across its buffers growing', () => {
    const receipts = [...new Set(Array.from({ length: 20_000 }, () => newReceipt()))].sort(byteOrder);
    const index = new SortedReceiptIndex();
    const map = new Map<string, number>();
    receipts.forEach((r, i) => {
      index.add(r, i % 7);
      map.set(r, i % 7);
    });
    expect(index.size).toBe(receipts.length);
    for (const r of receipts) expect(index.positionOf(r)).toBe(map.get(r));
    for (let i = 0; i < 2_000; i++) {
      const other = newReceipt();
      expect(index.positionOf(other)).toBe(map.get(other));
    }
    expect(index.positionOf('')).toBeUndefined();
    expect([...index.eachPosition()]).toEqual([...map.values()]);
  });

  it('keeps one entry for a receipt seen again in a row, with its last position, as Map#set would', () => {
    const index = new SortedReceiptIndex();
    index.add('VP-AAAA-AAAA-AAAA', 1);
    index.add('VP-AAAA-AAAA-AAAA', 2);
    index.add('VP-BBBB-BBBB-BBBB', 3);
    expect(index.size).toBe(2);
    expect(index.positionOf('VP-AAAA-AAAA-AAAA')).toBe(2);
    expect([...index.eachPosition()]).toEqual([2, 3]);
  });

  it('compares bytes as collate "C" does (lengths differ, a prefix sorts first, non-ASCII after ASCII)', () => {
    const odd = ['VP-A', 'VP-AA', 'VP-B', 'vp-a', 'VP-Ä'].sort(byteOrder);
    const index = new SortedReceiptIndex();
    odd.forEach((r, i) => index.add(r, i));
    odd.forEach((r, i) => expect(index.positionOf(r)).toBe(i));
    expect(index.positionOf('VP-')).toBeUndefined();
  });

  it('refuses a receipt out of byte order (the digest orders them; anything else is a fault)', () => {
    const index = new SortedReceiptIndex();
    index.add('VP-B', 1);
    expect(() => index.add('VP-A', 1)).toThrow(/byte order/);
  });
});
