import { and, eq, lt } from 'drizzle-orm';
import type { Core } from '../../core';
import { ussdSessions } from '../../db/schema';

/**
 * Where USSD sessions live between the gateway's requests (docs/operations.md "Voting by USSD
 * with Africa's Talking"): by `sessionId`, outside the process, so any server process answers the
 * next request. Every write names the version it read, so two processes (or a repeated request)
 * never both act on one state: the loser reads again and finds the answer the winner stored.
 */
/** How often a process forgets abandoned sessions (asked at every session's start, done at most this often). */
export const PURGE_EVERY_MS = 60_000;

export type StoredSession<D> = {
  version: number;
  data: D;
  /** A request is being answered until then (a repeat of it waits for the answer). */
  heldUntil: Date | null;
  /** The last answer: the session ends 180 s after it without input. */
  touchedAt: Date;
};

export type UssdSessionStore<D> = {
  read(sessionId: string): Promise<StoredSession<D> | undefined>;
  /**
   * Creates a session with `data` (its first answer already in it), not held: false when the
   * session exists already (a repeated dial, or another request got there first).
   */
  create(sessionId: string, data: D, now: Date): Promise<boolean>;
  /**
   * Reads and takes the session in one step, to answer one request until `heldUntil`: answers it
   * with the version its holder writes with, or undefined when there is no such session or
   * another request holds it (the caller reads it then, to tell which).
   */
  take(sessionId: string, now: Date, heldUntil: Date): Promise<StoredSession<D> | undefined>;
  /** Stores the state after a request and lets go of the session (only by its holder, at `version`). */
  write(sessionId: string, version: number, data: D, now: Date): Promise<void>;
  /** Lets go of the session without a change (the request failed, or it had nothing to change). */
  release(sessionId: string, version: number): Promise<void>;
  /** Forgets sessions untouched since `before` (the database store at most once a minute: PURGE_EVERY_MS). */
  purge(before: Date): Promise<void>;
  /** Lets go of the store's own connections, if it has any (at shutdown). */
  close?(): Promise<void>;
};

/** The store on the database (the `ussd_sessions` table): the default, on PGlite and Postgres alike. */
export class DatabaseSessionStore<D> implements UssdSessionStore<D> {
  constructor(private readonly ctx: Pick<Core, 'database'>) {}

  async read(sessionId: string): Promise<StoredSession<D> | undefined> {
    const [row] = await this.ctx.database.db.select().from(ussdSessions).where(eq(ussdSessions.sessionId, sessionId)).limit(1);
    return row ? { version: row.version, data: row.data as D, heldUntil: row.heldUntil, touchedAt: row.touchedAt } : undefined;
  }

  async create(sessionId: string, data: D, now: Date): Promise<boolean> {
    const rows = await this.ctx.database.db
      .insert(ussdSessions)
      .values({ sessionId, version: 1, data, heldUntil: null, touchedAt: now })
      .onConflictDoNothing()
      .returning({ version: ussdSessions.version });
    return rows.length > 0;
  }

  // `take` and `write` run on every request: plain prepared statements (no query built per call).

  async take(sessionId: string, now: Date, heldUntil: Date): Promise<StoredSession<D> | undefined> {
    // One statement: nobody holds it, so it is held now (the version bumped) and read as it is.
    const [row] = await this.ctx.database.sql<{ version: number; data: D; touched_at: Date }[]>`
      update ussd_sessions set version = version + 1, held_until = ${heldUntil.toISOString()}::timestamptz
      where session_id = ${sessionId} and (held_until is null or held_until < ${now.toISOString()}::timestamptz)
      returning version, data, touched_at`;
    return row ? { version: row.version, data: row.data, heldUntil, touchedAt: new Date(row.touched_at) } : undefined;
  }

  async write(sessionId: string, version: number, data: D, now: Date): Promise<void> {
    await this.ctx.database.sql`
      update ussd_sessions set version = ${version + 1}::int, data = ${JSON.stringify(data)}::jsonb, held_until = null,
        touched_at = ${now.toISOString()}::timestamptz
      where session_id = ${sessionId} and version = ${version}::int`;
  }

  async release(sessionId: string, version: number): Promise<void> {
    await this.ctx.database.db
      .update(ussdSessions)
      .set({ heldUntil: null })
      .where(and(eq(ussdSessions.sessionId, sessionId), eq(ussdSessions.version, version)));
  }

  /** The `before` of the last purge this process ran (the store is one per process, made by the module). */
  private purgedBefore: number | undefined;

  async purge(before: Date): Promise<void> {
    // At most once a minute per process: asked at every session's start, a delete each time would
    // cost every dial a statement.
    const at = before.getTime();
    const last = this.purgedBefore;
    if (last !== undefined && at >= last && at - last < PURGE_EVERY_MS) return;
    this.purgedBefore = at;
    await this.ctx.database.db.delete(ussdSessions).where(lt(ussdSessions.touchedAt, before));
  }
}
