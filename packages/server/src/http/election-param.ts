import type { ElectionQuery } from '@kura/contract';
import type { Core } from '../core';
import type { Db, Tx } from '../db/client';
import { currentElectionId, electionExists, type ElectionId } from '../db/election-store';
import { AppError } from '../errors';

/**
 * The election a request names (`?election_id=N`), unchecked against the table; null when it names
 * none. Text that is no election id is a 404, whatever it says (docs/api.md "Many elections").
 */
export function electionParam(requested?: unknown): ElectionId | null {
  if (requested === undefined || requested === '') return null;
  const text = Array.isArray(requested) ? undefined : String(requested);
  const id = text !== undefined && /^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(id) || id > 2147483647) throw AppError.say('NOT_FOUND', 'election.noSuch');
  return id;
}

/**
 * The election a call acts on (docs/api.md "Many elections"): the one it names (a path's id or
 * `?election_id=N`; 404 when there is no such election, whatever the text), otherwise the current
 * election: the organisation's `current_election_id`; else the only open election; else the most
 * recently created one that is not archived (else the newest of all).
 */
export async function resolveElection(db: Db | Tx, requested?: unknown): Promise<ElectionId> {
  const named = electionParam(requested);
  if (named !== null) {
    if (!(await electionExists(db, named))) throw AppError.say('NOT_FOUND', 'election.noSuch');
    return named;
  }
  const current = await currentElectionId(db);
  if (current === null) throw AppError.say('NOT_FOUND', 'election.noSuch');
  return current;
}

/**
 * The election a request acts on, from its typed query (`ElectionQuery`, declared by the route in
 * the contract): its `election_id` (on POSTs too; 404 when there is no such election), else the
 * current election. Resolved once, where the handler starts; services take the id, never a request.
 */
export function electionOf(ctx: Pick<Core, 'database'>, query: ElectionQuery): Promise<ElectionId> {
  return resolveElection(ctx.database.db, query.election_id);
}
