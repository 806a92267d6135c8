import { createHash } from 'node:crypto';
import { tallyPayloads, type ResultGroup, type ResultsTallyCounts, type ResultsTallySnapshot } from '@kura/contract';

/** One election's `tally` payloads for one results snapshot (docs/api.md "Realtime"). */
export type TallyPayloads = { layout: string; snapshot: ResultsTallySnapshot; counts: ResultsTallyCounts };

export type TallyCodec = {
  /** The payloads of `results` (a tally's cached ResultGroup[]), built once per snapshot and reused. */
  payloads(electionId: number, results: ResultGroup[]): TallyPayloads;
  /** A socket joined `room` and was sent a snapshot in `layout`. */
  joined(room: string, layout: string): void;
  /**
   * A broadcast of `layout` to `rooms` is about to go out: whether every socket in them holds
   * that layout already (counts will do) or some may not (a snapshot is needed).
   */
  broadcast(rooms: readonly string[], layout: string): boolean;
};

/**
 * The `tally` channel's encoder. The layout id is a digest of everything in the results but the
 * counts (and of the election), so every process computes the same id for the same layout, and a
 * renamed candidate, a new position or another election changes it. The tally's results array is
 * cached until its next change, so a broadcast and the snapshots sent on join reuse one encoding.
 */
export function createTallyCodec(): TallyCodec {
  const memo = new WeakMap<ResultGroup[], TallyPayloads>();
  /**
   * The layout every socket of a room holds, as far as this process knows: set by the room's
   * first joiner's snapshot or by a broadcast. A joiner sent another layout leaves it as it was,
   * so the next broadcast is a snapshot (a layout change is rare: a rename, a new candidate).
   */
  const roomLayout = new Map<string, string>();
  return {
    joined(room, layout) {
      if (!roomLayout.has(room)) roomLayout.set(room, layout);
    },
    broadcast(rooms, layout) {
      const known = rooms.every((room) => roomLayout.get(room) === layout);
      rooms.forEach((room) => roomLayout.set(room, layout));
      return known;
    },
    payloads(electionId, results) {
      // A results array is one election's tally's (tallyOf(id).results()), so it keys alone.
      let payloads = memo.get(results);
      if (!payloads) memo.set(results, (payloads = encode(electionId, results)));
      return payloads;
    },
  };
}

function encode(electionId: number, results: ResultGroup[]): TallyPayloads {
  return tallyPayloads(electionId, results, (ordered) => {
    const shape = ordered.map((group) => ({ ...group, total: 0, values: group.values.map((value) => ({ ...value, count: 0 })) }));
    return createHash('sha256')
      .update(JSON.stringify([electionId, shape]))
      .digest('base64url')
      .slice(0, 16);
  });
}
