/**
 * The receipts of an election's box and the position each ballot is under, for the audit at close
 * (the declaration module's audit.ts), kept in two flat buffers rather than a Map of 100,000 strings: the audit runs in the
 * server process beside other elections' votes, and a Map that size keeps 100,000 live heap objects
 * whose garbage collections pause every request of the process (BENCHMARKS.md, figure 9). Receipts
 * arrive in the box's digest order (`receipt collate "C"`, i.e. byte order), so the index is built
 * sorted and looked up by binary search; a receipt seen again in a row (a ballot for several seats
 * is a row per candidate) keeps the position of its last row, as a Map's `set` would.
 */
export class SortedReceiptIndex {
  private bytes = Buffer.alloc(64 * 1024);
  private used = 0;
  /** Where receipt i starts in `bytes`; receipt i ends where i + 1 starts (or at `used`). */
  private starts = new Uint32Array(4096);
  private positions = new Int32Array(4096);
  private n = 0;

  get size(): number {
    return this.n;
  }

  /** Appends a receipt at or after the last one in byte order (a programming fault otherwise). */
  add(receipt: string, positionId: number): void {
    const length = Buffer.byteLength(receipt);
    if (this.n > 0) {
      const order = this.compareAt(this.n - 1, Buffer.from(receipt, 'utf8'));
      if (order === 0) {
        this.positions[this.n - 1] = positionId;
        return;
      }
      if (order < 0) throw new Error('receipts must be added in byte order (the digest orders them collate "C")');
    }
    if (this.n === this.starts.length) {
      this.starts = grow(this.starts, new Uint32Array(this.starts.length * 2));
      this.positions = grow(this.positions, new Int32Array(this.positions.length * 2));
    }
    if (this.used + length > this.bytes.length) {
      const bigger = Buffer.alloc(Math.max(this.bytes.length * 2, this.used + length));
      this.bytes.copy(bigger, 0, 0, this.used);
      this.bytes = bigger;
    }
    this.starts[this.n] = this.used;
    this.positions[this.n] = positionId;
    this.used += this.bytes.write(receipt, this.used, 'utf8');
    this.n++;
  }

  /** The position of a receipt's ballot, or undefined when the box has no ballot with it. */
  positionOf(receipt: string): number | undefined {
    const target = Buffer.from(receipt, 'utf8');
    let lo = 0;
    let hi = this.n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const order = this.compareAt(mid, target);
      if (order === 0) return this.positions[mid];
      if (order < 0) hi = mid - 1;
      else lo = mid + 1;
    }
    return undefined;
  }

  /** Every ballot's position, once per receipt. */
  *eachPosition(): Generator<number> {
    for (let i = 0; i < this.n; i++) yield this.positions[i]!;
  }

  /** Byte order of `target` against stored receipt i: negative when it sorts before it. */
  private compareAt(i: number, target: Buffer): number {
    const end = i + 1 < this.n ? this.starts[i + 1]! : this.used;
    return target.compare(this.bytes, this.starts[i]!, end);
  }
}

function grow<T extends Uint32Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
