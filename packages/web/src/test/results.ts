import type { FinalResultsResponse, MotionResult } from '@kura/contract';

/** A two-thirds motion with a 50 % quorum that passed (6 yes, 3 no, 1 abstain), for declaration tests. */
export const motionResult = (over: Partial<MotionResult> = {}): MotionResult => ({
  position_id: 8,
  title: 'Amend rule 12 National',
  kind: 'motion',
  yes: 6,
  no: 3,
  abstain: 1,
  threshold: 'two_thirds',
  quorum_percent: 50,
  quorum_met: true,
  passed: true,
  ...over,
});

/** A declared result of `data`: 10 of 12 members voted (one branch), committed, closed and audited. */
export const declaredResult = (data: FinalResultsResponse['data']): FinalResultsResponse => ({
  data,
  turnout: { members: 12, voted: 10, branches: [{ branch: 'Nairobi', members: 12, voted: 10 }] },
  commitment: { hash: 'ab'.repeat(32), count: 19, at: '2026-05-03T17:00:00.000Z' },
  closed_at: '2026-05-03T17:00:00.000Z',
  audit: { ok: true, problems: [], at: '2026-05-03T17:00:01.000Z' },
});
