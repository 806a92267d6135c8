import type { Position } from '@kura/contract';

/** A national single-seat plurality position as the positions lists answer it (the tests' fixture); `overrides` name what differs. */
export function aPosition(id: number, name: string, overrides: Partial<Position> = {}): Position {
  return {
    id,
    name,
    level: 'National',
    seats: 1,
    description: null,
    branch_id: null,
    kind: 'candidates',
    method: 'plurality',
    threshold: null,
    quorum_percent: null,
    ...overrides,
  };
}

/** A national motion (simple majority, no quorum) as the positions lists answer it; `overrides` name what differs. */
export function aMotion(id: number, name: string, overrides: Partial<Position> = {}): Position {
  return aPosition(id, name, { kind: 'motion', method: null, threshold: 'majority', ...overrides });
}
