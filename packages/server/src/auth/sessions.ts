import { and, eq, inArray } from 'drizzle-orm';
import type { Core } from '../core';
import type { Db, Tx } from '../db/client';
import { sessions } from '../db/schema';
import { newToken, sha256 } from '../lib/crypto';

export type Role = 'voter' | 'agent' | 'admin';

/** The signed-in caller, resolved from the bearer token. */
export type Caller = { role: Role; subjectId: number; tokenHash: string };

/** Only refresh last_seen (and push the idle expiry) when it is this stale, to keep reads cheap. */
const TOUCH_AFTER_MS = 60_000;

export function idleMinutes(ctx: Core, role: Role): number {
  return role === 'voter' ? ctx.env.VOTER_SESSION_IDLE_MINUTES : ctx.env.STAFF_SESSION_IDLE_MINUTES;
}

/** Starts a session (inside the sign-in's transaction when given); answers the bearer token (shown once) and its public hash. */
export async function createSession(
  ctx: Core,
  input: { role: Role; subjectId: number; ip?: string },
  tx?: Db | Tx,
): Promise<{ token: string; hash: string }> {
  const token = newToken();
  const tokenHash = sha256(token);
  const now = ctx.now();
  await (tx ?? ctx.database.db).insert(sessions).values({
    tokenHash,
    role: input.role,
    subjectId: input.subjectId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + idleMinutes(ctx, input.role) * 60_000),
    ip: input.ip ?? null,
  });
  // The browser keeps `hash` beside the token (spec storage); it is not the stored hash.
  return { token, hash: sha256(`public:${tokenHash}`).slice(0, 32) };
}

/** A bearer token the access middleware passed on unchecked, for the handler's statement to look up (auth/access.ts). */
export type PendingSession = { token: string; settled: boolean };

/** The token a request presented, when it could be a session's (never longer than this). */
export const plausibleToken = (token: string) => token.length > 0 && token.length <= 200;

/**
 * A `with` list for a statement that checks the session itself instead of asking first (the vote;
 * docs/architecture.md "Request path"): `s` (role, subject_id), the live session of the token hash
 * (none when unknown or idled out), and `touched`, which moves a stale one's last_seen and idle
 * expiry on (never for a session touched within TOUCH_AFTER_MS), in the same statement and commit.
 */
export function liveSessionWith(ctx: Core, tokenHash: string, now: Date) {
  const sql = ctx.database.sql;
  const at = now.toISOString();
  return sql`
    s as (select role, subject_id, last_seen_at < ${new Date(now.getTime() - TOUCH_AFTER_MS).toISOString()}::timestamptz as stale
          from sessions where token_hash = ${tokenHash} and expires_at > ${at}::timestamptz limit 1),
    touched as (update sessions set last_seen_at = ${at}::timestamptz,
                  expires_at = ${at}::timestamptz + make_interval(mins => case s.role when 'voter' then ${idleMinutes(ctx, 'voter')}::int
                                                                                      else ${idleMinutes(ctx, 'admin')}::int end)
                from s where sessions.token_hash = ${tokenHash} and s.stale returning 1)`;
}

/**
 * The caller behind a bearer token, or null when unknown or expired. Every signed-in request runs
 * this, so it is one fixed statement on the driver rather than a query Drizzle builds again each
 * time (about a tenth of the server's CPU per vote went to building this select; BENCHMARKS.md):
 * the same lookup and touch as the vote's ({@link liveSessionWith}), in one round trip.
 */
export async function resolveSession(ctx: Core, token: string): Promise<Caller | null> {
  if (!plausibleToken(token)) return null;
  const tokenHash = sha256(token);
  const [row] = await ctx.database.sql<{ role: Role; subject_id: number }[]>`
    with ${liveSessionWith(ctx, tokenHash, ctx.now())} select role, subject_id from s`;
  if (!row) return null;
  return { role: row.role, subjectId: row.subject_id, tokenHash };
}

/** Ends a removed member's sessions, in the removal's transaction. */
export async function endVoterSessions(tx: Tx, memberId: number): Promise<void> {
  await tx.delete(sessions).where(and(eq(sessions.role, 'voter'), eq(sessions.subjectId, memberId)));
}

/** Ends a removed admin's or agent's sessions, in the removal's transaction; answers their token hashes (to tell `session.revoked` after the commit). */
export async function endStaffSessions(tx: Tx, staffId: number): Promise<{ tokenHash: string }[]> {
  return tx
    .delete(sessions)
    .where(and(inArray(sessions.role, ['admin', 'agent']), eq(sessions.subjectId, staffId)))
    .returning({ tokenHash: sessions.tokenHash });
}

export async function revokeSession(ctx: Core, tokenHash: string): Promise<void> {
  await ctx.database.db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
  ctx.events.emit('session.revoked', { tokenHash });
}
