import type { Core } from '../core';
import { resolveElection, type ElectionId } from '../db/election-store';

/**
 * The election a request acts on: its `?election_id=N` (a query parameter, on POSTs too; 404 when
 * there is no such election), else the current election (docs/api.md "Many elections").
 */
export function electionOf(ctx: Pick<Core, 'database'>, req: { query?: unknown }): Promise<ElectionId> {
  const query = (req.query ?? {}) as Record<string, unknown>;
  return resolveElection(ctx.database.db, query.election_id);
}
