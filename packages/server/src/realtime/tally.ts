import { createHash } from 'node:crypto';
import { tallyCounts, tallyLayout, type ResultGroup, type ResultsTallyPayload } from '@kura/contract';

/** One election's `tally` payloads for one results snapshot (docs/api.md "Realtime"). */
export type TallyPayloads = {
  layout: string;
  snapshot: Extract<ResultsTallyPayload, { kind: 'snapshot' }>;
  counts: Extract<ResultsTallyPayload, { kind: 'counts' }>;
};

export type TallyCodec = {
  /** The payloads of `results` (a tally's cached ResultGroup[]), built once per snapshot and reused. */
  payloads(electionId: number, results: ResultGroup[]): TallyPayloads;
};

/**
 * The `tally` channel's encoder. The layout id is a digest of everything in the results but the
 * counts (and of the election), so every process computes the same id for the same layout, and a
 * renamed candidate, a new position or another election changes it. The tally's results array is
 * cached until its next change, so a broadcast and the snapshots sent on join reuse one encoding.
 */
export function createTallyCodec(): TallyCodec {
  const memo = new WeakMap<ResultGroup[], Map<number, TallyPayloads>>();
  return {
    payloads(electionId, results) {
      let byElection = memo.get(results);
      if (!byElection) memo.set(results, (byElection = new Map()));
      let payloads = byElection.get(electionId);
      if (!payloads) byElection.set(electionId, (payloads = encode(electionId, results)));
      return payloads;
    },
  };
}

function encode(electionId: number, results: ResultGroup[]): TallyPayloads {
  const ordered = tallyLayout(results);
  const shape = ordered.map((group) => ({ ...group, total: 0, values: group.values.map((value) => ({ ...value, count: 0 })) }));
  const layout = createHash('sha256')
    .update(JSON.stringify([electionId, shape]))
    .digest('base64url')
    .slice(0, 16);
  return {
    layout,
    snapshot: { election_id: electionId, kind: 'snapshot', layout, results: ordered },
    counts: { election_id: electionId, kind: 'counts', layout, counts: tallyCounts(ordered) },
  };
}
