import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import { SOCKET_PATH } from '@kura/contract';
import type { RealtimeContext } from './context';
import { authenticateHandshakes } from './auth';
import { capPendingWrites } from './backpressure';
import { channelEmitters } from './emitters';
import { entityChanges } from './entity-changes';
import { createFanOut } from './fan-out';
import type { HubUnit, RealtimeServer } from './hub';
import { createRelay } from './relay';
import { createScaleOut, type ScaleOutOptions } from './scale-out';
import { sessionExpiry } from './session-expiry';
import { handleSubscriptions, visibilityChanges, type SubscribeLimits } from './subscriptions';
import { createTallyCodec } from './tally';

export type { RealtimeServer } from './hub';
export { FANOUT_SLICE } from './fan-out';

export type Realtime = { io: RealtimeServer; close(): Promise<void> };
export type RealtimeOptions = ScaleOutOptions & {
  /** How often connected staff sockets' sessions are re-checked for expiry (default 60 s). */
  sessionRecheckMs?: number;
  /** Sockets written per turn of the event loop during a broadcast (default FANOUT_SLICE). */
  fanOutSlice?: number;
  /** A socket whose unsent output passes this many bytes is disconnected (default MAX_PENDING_BYTES). */
  maxPendingBytes?: number;
  /** A socket's `subscribe` allowance (default SUBSCRIBE_BURST at once, one more per SUBSCRIBE_REFILL_MS). */
  subscribeLimits?: SubscribeLimits;
};

/**
 * Socket.IO on the HTTP server's port (path /socket.io). Clients `subscribe` to channels; the
 * server emits coalesced updates computed from this process's snapshot to its own clients, and
 * relays domain events to the other processes so each one's snapshot, and clients, stay current.
 * Only this folder emits on sockets; services raise domain events. The hub is its units, each in
 * its own file:
 *
 *   auth.ts            the handshake: a socket's role, checked once
 *   subscriptions.ts   channels as rooms: who may join, the results-visibility gate, a socket's subscribe allowance
 *   backpressure.ts    a socket whose client does not read is dropped past a cap of unsent bytes
 *   emitters.ts        what each channel carries, coalesced (coalesce.ts), written in slices (fan-out.ts);
 *                      the tally channel's snapshot and counts encoding (tally.ts)
 *   entity-changes.ts  the staff `changes` channel: which kind of thing changed (another admin's edit)
 *   session-expiry.ts  a revoked or idled-out session loses the staff channels
 *   relay.ts           domain events to and from the other processes (adapter: scale-out.ts)
 */
export async function attachRealtime(ctx: RealtimeContext, server: HttpServer, options: RealtimeOptions = {}): Promise<Realtime> {
  const io: RealtimeServer = new Server(server, { path: SOCKET_PATH, serveClient: false });
  const scaleOut = createScaleOut(ctx, {
    redisUrl: options.redisUrl ?? ctx.env.REDIS_URL,
    databaseUrl: options.databaseUrl ?? ctx.env.DATABASE_URL,
  });
  if (scaleOut) io.adapter(scaleOut.adapter);
  // Operators check a scale-out deployment by this line (docs/operations.md "Scale-out").
  ctx.logger.info({ adapter: scaleOut?.kind ?? 'memory' }, 'realtime adapter');

  authenticateHandshakes(ctx, io);
  const tallyCodec = createTallyCodec();
  capPendingWrites(ctx, io, options.maxPendingBytes);
  handleSubscriptions(ctx, io, tallyCodec, options.subscribeLimits);
  const units = [
    channelEmitters(ctx, io, createFanOut(io, options.fanOutSlice), tallyCodec),
    visibilityChanges(ctx, io),
    entityChanges(ctx, io),
    sessionExpiry(ctx, io, options.sessionRecheckMs),
    // One process (the embedded database) has no one to relay to.
    ...(scaleOut ? [createRelay(ctx, io)] : []),
  ];
  const stops = units.map((unit) => register(ctx, unit));

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      for (const stop of [...stops].reverse()) await stop();
      // Not io.close(): that also closes the HTTP server and waits for its keep-alive connections,
      // which belongs to whoever owns the server.
      io.local.disconnectSockets(true);
      await Promise.allSettled([...io._nsps.values()].map((nsp) => nsp.adapter.close()));
      io.engine.close();
      await scaleOut?.close();
    })());
  ctx.onClose(close);
  return { io, close };
}

/** Adds a unit's domain-event handlers; answers the one function that removes them and stops the unit. */
function register(ctx: RealtimeContext, unit: HubUnit): () => Promise<void> {
  const unsubscribe = ctx.events.subscribe(unit.events ?? {});
  return async () => {
    unsubscribe();
    await unit.stop?.();
  };
}
