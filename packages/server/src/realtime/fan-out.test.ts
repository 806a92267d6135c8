import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io as ioClient, type Socket as ClientSocket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { createFanOut, eventFrame, writeFrame, writeInSlices } from './fan-out';
import type { RealtimeServer } from './hub';

async function waitUntil(check: () => boolean) {
  for (const end = Date.now() + 5000; !check(); await new Promise((r) => setTimeout(r, 10)))
    if (Date.now() > end) throw new Error('timed out');
}

describe('writeInSlices', () => {
  it('writes every member once, in order, a slice per turn of the event loop', async () => {
    const writes: string[][] = [];
    const room = new Set(['a', 'b', 'c', 'd', 'e']);
    await writeInSlices(
      [...room],
      2,
      (id) => room.has(id),
      (ids) => writes.push(ids),
    );
    expect(writes).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('skips a socket that left the room after the broadcast started', async () => {
    const writes: string[][] = [];
    const room = new Set(['a', 'b', 'c', 'd']);
    await writeInSlices(
      [...room],
      1,
      (id) => room.has(id),
      (ids) => {
        writes.push(ids);
        // Between the first and second slice, 'c' is demoted (its session ended) and leaves.
        if (ids[0] === 'a') room.delete('c');
      },
    );
    expect(writes).toEqual([['a'], ['b'], ['d']]);
  });
});

describe('a broadcast written as one frame', () => {
  it('reaches WebSocket and long-polling clients alike, byte for byte what Socket.IO sends, in order', async () => {
    const http = createServer();
    const io = new Server(http, { path: '/socket.io' }) as unknown as RealtimeServer;
    io.on('connection', (socket) => void socket.join('tally:1'));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const connect = (transports: ('websocket' | 'polling')[]) =>
      new Promise<ClientSocket>((resolve, reject) => {
        const socket = ioClient(url, { path: '/socket.io', transports, forceNew: true, reconnection: false });
        socket.once('connect', () => resolve(socket));
        socket.once('connect_error', reject);
      });
    const clients = [await connect(['websocket']), await connect(['websocket']), await connect(['polling'])];
    try {
      await waitUntil(() => (io.of('/').adapter.rooms.get('tally:1')?.size ?? 0) === 3);
      const got = clients.map((c) => {
        const seen: unknown[] = [];
        c.on('ResultsTally', (p: unknown) => seen.push(p));
        return seen;
      });
      // Which path each server-side socket takes: the frame for an open WebSocket, Socket.IO for polling.
      const frame = eventFrame('Probe', [{}]);
      const paths = [...io.of('/').sockets.values()].map((s) => [s.conn.transport.name, writeFrame(s, frame)]);
      expect(paths.sort()).toEqual([
        ['polling', false],
        ['websocket', true],
        ['websocket', true],
      ]);

      // A slice of 1 socket: every write goes through the frame path (or, for polling, Socket.IO's).
      const fanOut = createFanOut(io, 1);
      const payloads = [
        { election_id: 1, kind: 'counts', layout: 'L', counts: [3, 1, 2] },
        { election_id: 1, kind: 'counts', layout: 'L', counts: [4, 2, 2] },
        // Past 125 bytes (16-bit length) and past 65,535 bytes (64-bit length), with non-ASCII text.
        { election_id: 1, kind: 'snapshot', layout: 'L', results: [{ title: 'Mwenyekiti – ñ ✓'.repeat(10) }] },
        { election_id: 1, kind: 'snapshot', layout: 'L', results: [{ title: 'x'.repeat(70_000) }] },
      ];
      for (const p of payloads) await fanOut('tally', ['tally:1'], p as never);
      await waitUntil(() => got.every((seen) => seen.length === payloads.length));
      for (const seen of got) expect(seen).toEqual(payloads);
    } finally {
      clients.forEach((c) => c.close());
      await new Promise((resolve) => io.close(resolve));
    }
  });
});
