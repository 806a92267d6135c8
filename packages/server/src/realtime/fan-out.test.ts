import { describe, expect, it } from 'vitest';
import { writeInSlices } from './fan-out';

describe('writeInSlices', () => {
  it('writes every member once, in order, a slice per turn of the event loop', async () => {
    const writes: string[][] = [];
    const room = new Set(['a', 'b', 'c', 'd', 'e']);
    await writeInSlices(
      [...room],
      2,
      (id) => room.has(id),
      (ids) => writes.push(ids),
    );
    expect(writes).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('skips a socket that left the room after the broadcast started', async () => {
    const writes: string[][] = [];
    const room = new Set(['a', 'b', 'c', 'd']);
    await writeInSlices(
      [...room],
      1,
      (id) => room.has(id),
      (ids) => {
        writes.push(ids);
        // Between the first and second slice, 'c' is demoted (its session ended) and leaves.
        if (ids[0] === 'a') room.delete('c');
      },
    );
    expect(writes).toEqual([['a'], ['b'], ['d']]);
  });

  it('answers the time its writes held the event loop, not the turns between slices', async () => {
    const spin = (ms: number) => {
      for (const end = performance.now() + ms; performance.now() < end; );
    };
    const started = performance.now();
    // each slice writes for 4 ms and leaves 20 ms of other work (a request) for the turn after it
    const busy = await writeInSlices(['a', 'b', 'c'], 1, () => true, () => (spin(4), setImmediate(() => spin(20))));
    expect(performance.now() - started).toBeGreaterThanOrEqual(52);
    expect(busy).toBeGreaterThanOrEqual(12);
    expect(busy).toBeLessThan(30);
  });
});
