import type postgres from 'postgres';
import { expect } from 'vitest';
import { ELECTION_LOCK, ELECTION_LOCK_NAMESPACE } from '../src/db/locks';
import { waitFor } from './voting/sockets';

/**
 * Two-session race tests (Postgres only): one session holds what a change waits for and commits a
 * conflicting change meanwhile, so the test shows the change judged what its lock found, not what
 * it read before.
 */

export type HoldingSession = postgres.ReservedSql;

/** Sessions of this database waiting on a lock. */
export async function lockWaiters(sql: postgres.Sql): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
  return row!.n;
}

/**
 * Starts `action` while another session, in a transaction, holds what `hold` takes; checks that the
 * action waits for it (`what` names the action in the failure); runs `meanwhile` (in the holding
 * session, or through the API), commits, and answers the action's result.
 */
export async function whileHeld<T>(
  sql: postgres.Sql,
  steps: {
    hold: (session: HoldingSession) => Promise<unknown>;
    action: () => PromiseLike<T>;
    meanwhile: (session: HoldingSession) => Promise<unknown>;
    what: string;
  },
): Promise<T> {
  const session = await sql.reserve();
  try {
    await session`begin`;
    await steps.hold(session);
    const acting = Promise.resolve(steps.action());
    const first = await Promise.race([
      acting.then(() => 'answered' as const),
      waitFor(async () => (await lockWaiters(sql)) >= 1, 5000, `${steps.what} waiting`).then(() => 'waiting' as const),
    ]);
    expect(first, `${steps.what} did not wait`).toBe('waiting');
    await steps.meanwhile(session);
    await session`commit`;
    return await acting;
  } finally {
    await session`rollback`.catch(() => undefined);
    session.release();
  }
}

/**
 * What `closeElection` holds while it closes (db/ballot-box.ts `lockElection`): the installation's
 * election lock shared and the election's own exclusively, then the election's row.
 */
export async function holdAsClose(session: HoldingSession, id: number): Promise<void> {
  await session`select pg_advisory_xact_lock_shared(${ELECTION_LOCK}::bigint), pg_advisory_xact_lock(${ELECTION_LOCK_NAMESPACE}::int, ${id}::int)`;
  await session`select id from election where id = ${id} for update`;
}

/** The close's own change of the row, committed by the holding session. */
export async function closeIn(session: HoldingSession, id: number): Promise<void> {
  await session`update election set voting_active = false, closed_at = now() where id = ${id}`;
}

/** Runs `action` while another session closes election `id` as `closeElection` does, the close committing once the action waits. */
export function whileClosing<T>(sql: postgres.Sql, id: number, action: () => PromiseLike<T>, what = 'the change'): Promise<T> {
  return whileHeld(sql, { hold: (s) => holdAsClose(s, id), action, meanwhile: (s) => closeIn(s, id), what });
}
