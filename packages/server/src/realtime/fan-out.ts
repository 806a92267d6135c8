import { CHANNEL_EVENTS, type Channel, type ServerToClientEvents } from '@kura/contract';
import type { RealtimeServer } from './hub';

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
    const emit = (to: string | string[]) =>
      (io.local.to(to).emit as (event: string, ...a: unknown[]) => boolean)(CHANNEL_EVENTS[channel], ...args);
    const room = (name: string) => io.of('/').adapter.rooms.get(name);
    const members = new Set(rooms.flatMap((name) => [...(room(name) ?? [])]));
    if (members.size === 0) return;
    // Socket.IO sends once per socket however many of the rooms it is in.
    if (members.size <= slice) return void emit([...rooms]);
    await writeInSlices([...members], slice, (id) => rooms.some((name) => room(name)?.has(id) ?? false), emit);
  };
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
