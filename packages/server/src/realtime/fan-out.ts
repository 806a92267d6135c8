import { CHANNEL_EVENTS, type Channel, type ServerToClientEvents } from '@kura/contract';
import type { RealtimeServer, RealtimeSocket } from './hub';

/** Sockets written per turn of the event loop during a broadcast. */
export const FANOUT_SLICE = 500;

/**
 * Emits one channel's event with its payload to this process's sockets in any of `rooms` (one
 * election's rooms: `votes:7`, and `votes` while 7 is the current election), once per socket.
 */
export type FanOut = <C extends Channel>(
  channel: C,
  rooms: readonly string[],
  ...args: Parameters<ServerToClientEvents[(typeof CHANNEL_EVENTS)[C]]>
) => Promise<void>;

/**
 * Writing a packet to thousands of sockets is synchronous work (one frame write each, ~20 µs):
 * in one go, 5,000 watchers hold the event loop ~100 ms and every vote in flight waits behind
 * it. Slices of `slice` sockets with a turn of the event loop between them let requests
 * interleave. A socket that joins meanwhile gets the next emit; one that left (or lost a staff
 * channel) is skipped.
 */
export function createFanOut(io: RealtimeServer, slice = FANOUT_SLICE): FanOut {
  return async (channel, rooms, ...args) => {
    const event = CHANNEL_EVENTS[channel];
    const emit = (to: string | string[]) => (io.local.to(to).emit as (event: string, ...a: unknown[]) => boolean)(event, ...args);
    const room = (name: string) => io.of('/').adapter.rooms.get(name);
    const members = new Set(rooms.flatMap((name) => [...(room(name) ?? [])]));
    if (members.size === 0) return;
    // Socket.IO sends once per socket however many of the rooms it is in.
    if (members.size <= slice) return void emit([...rooms]);
    // Thousands of sockets: one frame, built once, written to each WebSocket as it is.
    const frame = eventFrame(event, args);
    const sockets = io.of('/').sockets;
    await writeInSlices(
      [...members],
      slice,
      (id) => rooms.some((name) => room(name)?.has(id) ?? false),
      (ids) => {
        const rest = ids.filter((id) => {
          const socket = sockets.get(id);
          return !socket || !writeFrame(socket, frame);
        });
        if (rest.length > 0) emit(rest);
      },
    );
  };
}

/**
 * The WebSocket frame of a Socket.IO event in the main namespace: an unmasked text frame
 * (RFC 6455, as a server sends it) holding the engine.io message `4` of the Socket.IO packet
 * `2["Event",payload]` (the Socket.IO protocol v5; the payloads are JSON, never binary). It is
 * what Socket.IO itself writes to each socket for the same emit.
 */
export function eventFrame(event: string, args: readonly unknown[]): Buffer {
  const payload = Buffer.from(`42${JSON.stringify([event, ...args])}`);
  const n = payload.length;
  let header: Buffer;
  if (n < 126) header = Buffer.from([0x81, n]);
  else if (n < 65536) header = Buffer.from([0x81, 126, n >> 8, n & 0xff]);
  else {
    header = Buffer.alloc(10);
    header[0] = 0x81;
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(n), 2);
  }
  return Buffer.concat([header, payload]);
}

/** What writeFrame reads of a Socket.IO socket's connection (engine.io, and the ws socket under it). */
type Wire = {
  readyState: string;
  upgrading?: boolean;
  writeBuffer: readonly unknown[];
  transport: {
    name: string;
    socket?: {
      readyState: number;
      _socket?: { writable: boolean; write(chunk: Buffer): boolean };
      _sender?: { _queue?: readonly unknown[] };
    };
  };
};

/**
 * Writes `frame` straight onto the TCP stream of a socket that is an open WebSocket with nothing
 * waiting in engine.io or ws, so it lands in order after everything sent before; answers false
 * for any other socket (long-polling, upgrading, closing, or with packets queued), which the
 * caller sends through Socket.IO. Socket.IO's own path costs about twice the CPU per socket,
 * and with 5,000 watchers that is the server's thread a broadcast holds (BENCHMARKS.md, figure 4).
 */
export function writeFrame(socket: RealtimeSocket, frame: Buffer): boolean {
  const wire = socket.conn as unknown as Wire;
  const ws = wire.transport.name === 'websocket' ? wire.transport.socket : undefined;
  const tcp = ws?._socket;
  if (wire.readyState !== 'open' || wire.upgrading || wire.writeBuffer.length > 0) return false;
  if (!ws || ws.readyState !== 1 || !tcp?.writable || (ws._sender?._queue?.length ?? 0) > 0) return false;
  tcp.write(frame);
  return true;
}

/**
 * Writes to `ids` in slices of `size` with a turn of the event loop between slices, so requests
 * interleave with a broadcast to thousands of sockets. Before each slice the ids are checked
 * again: a socket that left the room meanwhile (disconnected, or demoted when its session ended)
 * gets nothing more of this broadcast.
 */
export async function writeInSlices(
  ids: readonly string[],
  size: number,
  stillIn: (id: string) => boolean,
  write: (ids: string[]) => void,
): Promise<void> {
  for (let i = 0; i < ids.length; i += size) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    const slice = ids.slice(i, i + size).filter(stillIn);
    if (slice.length > 0) write(slice);
  }
}
