import type { RealtimeContext } from './context';
import type { RealtimeServer, RealtimeSocket } from './hub';

/** A socket whose unsent output passes this many bytes is disconnected (docs/api.md "Realtime"). */
export const MAX_PENDING_BYTES = 1024 * 1024;

/** What engine.io keeps of a socket's connection: packets not yet handed to the transport. */
type EnginePacket = { data?: unknown };
type EngineConnection = {
  writeBuffer?: EnginePacket[];
  transport?: { name?: string; socket?: { bufferedAmount?: number; terminate?: () => void } };
  readyState?: string;
  close(discard?: boolean): void;
  on(event: 'packetCreate', listener: (packet: EnginePacket) => void): void;
};

const sizeOf = (packet: EnginePacket) =>
  typeof packet.data === 'string' ? packet.data.length : Buffer.isBuffer(packet.data) ? packet.data.length : 0;

const engineOf = (socket: RealtimeSocket) => socket.conn as unknown as EngineConnection;

/**
 * The bytes written to a socket that its client has not taken yet, as far as this process holds
 * them: engine.io's write buffer (packets waiting for the transport: the WebSocket's previous
 * write, or the next long-poll) and, over WebSocket, what `ws` holds unsent (its `bufferedAmount`).
 * The kernel's socket buffer is not counted (it is bounded by the system).
 */
export function pendingBytes(socket: RealtimeSocket): number {
  const conn = engineOf(socket);
  let bytes = 0;
  for (const packet of conn.writeBuffer ?? []) bytes += sizeOf(packet);
  const ws = conn.transport?.name === 'websocket' ? conn.transport.socket : undefined;
  return bytes + (ws?.bufferedAmount ?? 0);
}

/**
 * Disconnects every socket whose unsent output passes `maxBytes`: a client that does not read
 * (or reads slower than the updates it asked for) cannot make the server hold its backlog without
 * limit. Checked on every packet written to the socket, broadcasts and acks included: a running
 * sum of the packets since the last exact count, which is re-counted (pendingBytes) only once
 * the sum passes the cap, so a socket that reads costs one addition per packet.
 */
export function capPendingWrites(ctx: RealtimeContext, io: RealtimeServer, maxBytes = MAX_PENDING_BYTES): void {
  io.on('connection', (socket) => {
    const conn = engineOf(socket);
    let bound = 0;
    let dropping = false;
    conn.on('packetCreate', (packet) => {
      if (dropping) return;
      bound += sizeOf(packet);
      if (bound <= maxBytes) return;
      // The packet is not in the write buffer yet: count it with what is.
      bound = pendingBytes(socket) + sizeOf(packet);
      if (bound <= maxBytes) return;
      dropping = true;
      ctx.logger.warn({ socket: socket.id, pendingBytes: bound, maxBytes }, 'realtime socket dropped: its client does not read');
      // Discard the buffered output rather than wait for a drain that will not come, and end the
      // WebSocket without the close handshake, which would wait behind the same unread bytes.
      // (We are inside engine.io's write: the packet it is writing goes to the closed socket's buffer, which it clears.)
      const ws = conn.transport?.name === 'websocket' ? conn.transport.socket : undefined;
      conn.close(true);
      ws?.terminate?.();
    });
  });
}
