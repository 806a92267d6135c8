import { and, gt, inArray } from 'drizzle-orm';
import type { RealtimeContext } from './context';
import { sessions } from '../db/schema';
import { logFailure, type HubUnit, type RealtimeServer } from './hub';
import { dropEndedSessions } from './subscriptions';

/** How often connected sockets' sessions are re-checked for expiry. */
export const SESSION_RECHECK_MS = 60_000;

/**
 * A staff socket keeps its role only while its session lives. A signed-out session (revoked here
 * or, relayed, in another process) loses the staff channels at once; one that idled out, at the
 * next re-check (every `recheckMs`) of the sessions of every connected socket.
 */
export function sessionExpiry(ctx: RealtimeContext, io: RealtimeServer, recheckMs = SESSION_RECHECK_MS): HubUnit {
  const recheck = async () => {
    const hashes = [...new Set([...io.of('/').sockets.values()].map((s) => s.data.tokenHash).filter((h): h is string => Boolean(h)))];
    if (hashes.length === 0) return;
    const alive = new Set(
      (
        await ctx.database.db
          .select({ tokenHash: sessions.tokenHash })
          .from(sessions)
          .where(and(inArray(sessions.tokenHash, hashes), gt(sessions.expiresAt, ctx.now())))
      ).map((r) => r.tokenHash),
    );
    dropEndedSessions(io, (hash) => !alive.has(hash));
  };
  const timer = setInterval(() => void recheck().catch(logFailure(ctx, 'socket session re-check failed')), recheckMs);
  timer.unref();
  return {
    events: { 'session.revoked': ({ tokenHash }) => dropEndedSessions(io, (hash) => hash === tokenHash) },
    stop: () => clearInterval(timer),
  };
}
