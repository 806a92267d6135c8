/** Reading what Postgres (through drizzle and the driver) says went wrong, and the stores' own failures. */

/**
 * A store was asked for an election that is not there (never was, or deleted meanwhile). The
 * stores know no HTTP: `refusalOf` (errors.ts) makes it the request's 404, never a 500.
 */
export class NoSuchElection extends Error {
  constructor(readonly electionId: number) {
    super(`no election ${electionId}`);
    this.name = 'NoSuchElection';
  }
}

/** The unique constraint a Postgres error names, when it is a unique violation (drizzle wraps driver errors). */
export function uniqueViolation(error: unknown): string | undefined {
  for (
    let e = error as { code?: unknown; constraint_name?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 3;
    e = e.cause as typeof e, depth++
  ) {
    if (e.code === '23505') return typeof e.constraint_name === 'string' ? e.constraint_name : '';
  }
  return undefined;
}

/**
 * SQLSTATEs with which Postgres aborts a transaction that lost a race, not one that was wrong:
 * 40P01 deadlock detected, 40001 serialization failure. Run again, the same work usually commits.
 */
const TRANSIENT_CONFLICTS = new Set(['40P01', '40001']);

/** The SQLSTATE when the error (or what drizzle wrapped) is a deadlock or serialization failure. */
export function transientConflict(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 3; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && TRANSIENT_CONFLICTS.has(e.code)) return e.code;
  }
  return undefined;
}
