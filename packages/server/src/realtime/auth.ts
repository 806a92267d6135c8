import type { RealtimeContext } from './context';
import { resolveSession } from '../auth/sessions';
import { logFailure, type RealtimeServer } from './hub';

/**
 * The handshake: the token (`auth.token`) is checked once, when the socket connects, and gives it
 * its role. A bad or missing token still connects, to the public channels only. A session that
 * ends later is taken away by session-expiry.ts.
 */
export function authenticateHandshakes(ctx: RealtimeContext, io: RealtimeServer): void {
  io.use((socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    socket.data.role = null;
    if (typeof token !== 'string' || !token) return next();
    resolveSession(ctx, token)
      .then((caller) => {
        socket.data.role = caller?.role ?? null;
        socket.data.tokenHash = caller?.tokenHash;
        next();
      })
      .catch((err: unknown) => {
        logFailure(ctx, 'socket session check failed')(err);
        next();
      });
  });
}
