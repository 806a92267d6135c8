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
});
