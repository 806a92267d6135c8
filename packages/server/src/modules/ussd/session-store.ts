import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Core } from '../../core';
import { ussdSessions } from '../../db/schema';

/**
 * Where USSD sessions live between the gateway's requests (docs/operations.md "Voting by USSD
 * with Africa's Talking"): by `sessionId`, outside the process, so any server process answers the
 * next request. Every write names the version it read, so two processes (or a repeated request)
 * never both act on one state: the loser reads again and finds the answer the winner stored.
 */
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
   * Takes the session to answer one request, until `heldUntil`: a new session is created with
   * `data`; an existing one only if it is still at `version` and nobody holds it. Answers the
   * version the holder writes with, or null when another request got there first.
   */
  hold(sessionId: string, expected: { version: number } | { data: D }, now: Date, heldUntil: Date): Promise<number | null>;
  /** Stores the state after a request and lets go of the session (only by its holder, at `version`). */
  write(sessionId: string, version: number, data: D, now: Date): Promise<void>;
  /** Lets go of the session without a change (the request failed). */
  release(sessionId: string, version: number): Promise<void>;
  /** Forgets sessions untouched since `before`. */
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

  async hold(sessionId: string, expected: { version: number } | { data: D }, now: Date, heldUntil: Date): Promise<number | null> {
    const { db } = this.ctx.database;
    if ('data' in expected) {
      const rows = await db
        .insert(ussdSessions)
        .values({ sessionId, version: 1, data: expected.data, heldUntil, touchedAt: now })
        .onConflictDoNothing()
        .returning({ version: ussdSessions.version });
      return rows[0]?.version ?? null;
    }
    const rows = await db
      .update(ussdSessions)
      .set({ version: sql`${ussdSessions.version} + 1`, heldUntil })
      .where(
        and(
          eq(ussdSessions.sessionId, sessionId),
          eq(ussdSessions.version, expected.version),
          or(isNull(ussdSessions.heldUntil), lt(ussdSessions.heldUntil, now)),
        ),
      )
      .returning({ version: ussdSessions.version });
    return rows[0]?.version ?? null;
  }

  async write(sessionId: string, version: number, data: D, now: Date): Promise<void> {
    await this.ctx.database.db
      .update(ussdSessions)
      .set({ version: version + 1, data, heldUntil: null, touchedAt: now })
      .where(and(eq(ussdSessions.sessionId, sessionId), eq(ussdSessions.version, version)));
  }

  async release(sessionId: string, version: number): Promise<void> {
    await this.ctx.database.db
      .update(ussdSessions)
      .set({ heldUntil: null })
      .where(and(eq(ussdSessions.sessionId, sessionId), eq(ussdSessions.version, version)));
  }

  async purge(before: Date): Promise<void> {
    await this.ctx.database.db.delete(ussdSessions).where(lt(ussdSessions.touchedAt, before));
  }
}
