import { canJoinChannel, CHANNELS, isChannel, SubscribeRequest, type SubscribeAck } from '@kura/contract';
import type { RealtimeContext } from './context';
import { mayJoinResultsChannel } from '../modules/elections';
import { logFailure, type HubUnit, type RealtimeServer, type RealtimeSocket } from './hub';

/**
 * Channels are Socket.IO rooms. A client `subscribe`s to channels and is answered which it joined
 * and which were denied: by its role (statistics is staff only) and, for the results channels, by
 * the election's results visibility (SECURITY.md "Results visibility").
 */
export function handleSubscriptions(ctx: RealtimeContext, io: RealtimeServer): void {
  io.on('connection', (socket) => {
    socket.on('subscribe', (names, ack) => void subscribe(ctx, socket, names, ack).catch(logFailure(ctx, 'subscribe failed')));
  });
}

async function subscribe(ctx: RealtimeContext, socket: RealtimeSocket, names: unknown, ack: unknown): Promise<void> {
  const parsed = SubscribeRequest.safeParse(names);
  const result: SubscribeAck = { joined: [], denied: [] };
  if (!parsed.success) {
    result.denied = Array.isArray(names)
      ? names
          .filter((n): n is string => typeof n === 'string')
          .slice(0, 16)
          .map((n) => n.slice(0, 64))
      : [];
  } else {
    const gate = await ctx.resultsGate.read();
    for (const name of new Set(parsed.data)) {
      if (isChannel(name) && canJoinChannel(name, socket.data.role) && mayJoinResultsChannel(gate, name, socket.data.role))
        result.joined.push(name);
      else result.denied.push(name);
    }
    if (result.joined.length) void socket.join(result.joined);
  }
  if (typeof ack === 'function') (ack as (r: SubscribeAck) => void)(result);
}

/**
 * Removes every socket the visibility no longer admits from the results channels. Run when the
 * election changes (here or, relayed, in another process) and before every results emit, so a
 * mode change reaches the rooms before the next payload does.
 */
export async function enforceVisibility(ctx: RealtimeContext, io: RealtimeServer): Promise<void> {
  const gate = await ctx.resultsGate.read();
  for (const channel of ['votes', 'results'] as const) {
    const room = io.of('/').adapter.rooms.get(channel);
    if (!room) continue;
    for (const id of [...room]) {
      const socket = io.of('/').sockets.get(id);
      if (socket && !mayJoinResultsChannel(gate, channel, socket.data.role)) void socket.leave(channel);
    }
  }
}

/** A change of the election's configuration re-checks the results rooms at once. */
export function visibilityChanges(ctx: RealtimeContext, io: RealtimeServer): HubUnit {
  return {
    events: {
      // After every listener of this event has run (the results-gate cache drops its gate on it).
      'election.changed': () =>
        setImmediate(() => void enforceVisibility(ctx, io).catch(logFailure(ctx, 'results visibility check failed'))),
    },
  };
}

/** Takes the role and the staff channels away from every socket whose session `ended` says is over. */
export function dropEndedSessions(io: RealtimeServer, ended: (tokenHash: string) => boolean): void {
  for (const socket of io.of('/').sockets.values()) {
    if (!socket.data.tokenHash || !ended(socket.data.tokenHash)) continue;
    socket.data.role = null;
    socket.data.tokenHash = undefined;
    for (const channel of CHANNELS) if (!canJoinChannel(channel, null)) void socket.leave(channel);
  }
}
