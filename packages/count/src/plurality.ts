/**
 * Plurality (choose up to `seats`) and approval (choose any number): both elect the `seats`
 * highest counts. Candidates tied across the last seat are all marked `tied` and none of them is
 * elected (API.md "Elected"); a tie inside the seats elects all of its candidates.
 */
import { CountError } from './errors';

export type TallyCandidate = { id: number; name: string };
export type TallyValue = { candidate_id: number; name: string; count: number; elected: boolean; tied: boolean };
export type TallyResult = {
  method: 'plurality' | 'approval';
  seats: number;
  /** Ballots counted (each may mark several candidates). */
  ballots: number;
  /** By count, descending; equal counts by name. */
  values: TallyValue[];
  elected: number[];
  /** The candidates tied across the last seat (empty when there is no such tie). */
  tied: number[];
};

/** Marks the `seats` highest counts elected, or tied across the last seat. */
export function electHighest(
  method: TallyResult['method'],
  seats: number,
  counts: readonly { candidate_id: number; name: string; count: number }[],
  ballots: number,
): TallyResult {
  if (!Number.isSafeInteger(seats) || seats < 1) throw new CountError('seats must be a whole number of at least 1');
  const sorted = [...counts].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name) || a.candidate_id - b.candidate_id);
  let values: TallyValue[];
  if (sorted.length <= seats) {
    values = sorted.map((v) => ({ ...v, elected: true, tied: false }));
  } else {
    const cutoff = sorted[seats - 1]!.count;
    const across = sorted[seats]!.count === cutoff;
    values = sorted.map((v) => ({
      ...v,
      elected: v.count > cutoff || (!across && v.count === cutoff),
      tied: across && v.count === cutoff,
    }));
  }
  return {
    method,
    seats,
    ballots,
    values,
    elected: values.filter((v) => v.elected).map((v) => v.candidate_id),
    tied: values.filter((v) => v.tied).map((v) => v.candidate_id),
  };
}

function tally(
  method: TallyResult['method'],
  input: { seats: number; candidates: readonly TallyCandidate[]; ballots: Iterable<readonly number[]> },
  allowed: (marks: number) => boolean,
  shape: string,
): TallyResult {
  const index = new Map<number, number>();
  input.candidates.forEach((c, k) => {
    if (index.has(c.id)) throw new CountError(`candidate ${c.id} is listed twice`);
    index.set(c.id, k);
  });
  const counts = input.candidates.map(() => 0);
  let ballots = 0;
  for (const ballot of input.ballots) {
    ballots++;
    if (!allowed(ballot.length)) throw new CountError(`ballot ${ballots}: ${shape}`);
    const seen = new Set<number>();
    for (const id of ballot) {
      const k = index.get(id);
      if (k === undefined) throw new CountError(`ballot ${ballots}: candidate ${id} is not standing`);
      if (seen.has(id)) throw new CountError(`ballot ${ballots}: candidate ${id} appears twice`);
      seen.add(id);
      counts[k] = counts[k]! + 1;
    }
  }
  return electHighest(
    method,
    input.seats,
    input.candidates.map((c, k) => ({ candidate_id: c.id, name: c.name, count: counts[k]! })),
    ballots,
  );
}

/** Plurality: each ballot marks 1..seats distinct candidates. */
export function countPlurality(input: {
  seats: number;
  candidates: readonly TallyCandidate[];
  ballots: Iterable<readonly number[]>;
}): TallyResult {
  return tally('plurality', input, (m) => m >= 1 && m <= input.seats, `a ballot marks 1 to ${input.seats} candidates`);
}

/** Approval: each ballot marks any number (at least one) of distinct candidates. */
export function countApproval(input: {
  seats: number;
  candidates: readonly TallyCandidate[];
  ballots: Iterable<readonly number[]>;
}): TallyResult {
  return tally('approval', input, (m) => m >= 1 && m <= input.candidates.length, 'a ballot marks at least one candidate');
}
