import type { BallotGroup } from '@kura/contract';

type BallotCandidate = BallotGroup['candidates'][number];

/** A ballot's candidate as GET psk/candidates/v2 answers it (no photo, no statement unless `overrides` give one). */
export const aCandidate = (id: number, name: string, overrides: Partial<BallotCandidate> = {}): BallotCandidate => ({
  id,
  name,
  photo: null,
  statement: null,
  ...overrides,
});

/** A ballot's single-seat plurality position as GET psk/candidates/v2 answers it; `overrides` name what differs. */
export const aBallotGroup = (
  position_id: number,
  title: string,
  candidates: BallotCandidate[],
  overrides: Partial<BallotGroup> = {},
): BallotGroup => ({
  title,
  position_id,
  seats: 1,
  kind: 'candidates',
  method: 'plurality',
  description: null,
  threshold: null,
  quorum_percent: null,
  candidates,
  ...overrides,
});

/** A ballot's motion (simple majority, no quorum) with its options Yes, No, Abstain as `ids`; `overrides` name what differs. */
export const aMotionGroup = (
  position_id: number,
  title: string,
  ids: [number, number, number],
  overrides: Partial<BallotGroup> = {},
): BallotGroup =>
  aBallotGroup(
    position_id,
    title,
    ['Yes', 'No', 'Abstain'].map((name, i) => aCandidate(ids[i]!, name)),
    { kind: 'motion', method: null, threshold: 'majority', ...overrides },
  );
