/** Reading what Postgres (through drizzle and the driver) says went wrong. */

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
