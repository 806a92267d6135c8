import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMIT_COALESCE_MS, type SubscribeAck } from '@kura/contract';
import { createTestApp, type TestApp, type TestDatabase } from '../../test/harness';
import { createElection, createVoter, setVoting, vote, type Election } from '../../test/voting/election';
import { connectClient, listen, record, subscribe, waitFor, type Client, type Running } from '../../test/voting/sockets';
import { pendingBytes } from './backpressure';
import { SUBSCRIBE_BURST } from './subscriptions';
import type { RealtimeSocket } from './hub';

/**
 * An anonymous socket cannot make the server hold memory without limit (docs/api.md
 * "Realtime"): a flood of `subscribe`s is answered without a snapshot each, and a
 * socket whose client does not read is dropped once its unsent output passes the cap, while a
 * client that reads keeps getting live updates. Real socket.io-client sockets against the real
 * server; the cap is small here (the default is 1 MiB) so the test writes less.
 */
const CAP = 256 * 1024;
let t: TestApp;
let e: Election;
let running: Running;
const clients: Client[] = [];
const client = async () => {
  const c = await connectClient(running.url);
  clients.push(c);
  return c;
};
/** The engine.io session id of a server-side socket (`sid` of the polling protocol). */
const engineId = (s: RealtimeSocket) => (s.conn as unknown as { id: string }).id;
/** The server's side of a client's socket. */
const serverSocket = (c: Client) => running.realtime.io.of('/').sockets.get(c.id!) as RealtimeSocket | undefined;
/** Sends `n` subscribes at once (each asks for an ack, as a client does) and waits for every answer. */
const flood = (c: Client, n: number, names: string[]) =>
  Promise.all(Array.from({ length: n }, () => new Promise<SubscribeAck>((resolve) => c.emit('subscribe', names, resolve))));
const chairTotal = (results?: { position_id: number; total: number }[]) => results?.find((r) => r.position_id === e.chair.id)?.total;

beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  e = await createElection(t.ctx);
  running = await listen(t.ctx, t.app, { databaseUrl: (t.ctx.database as TestDatabase).url, maxPendingBytes: CAP });
  await setVoting(t.ctx, true);
  // The tally's first build (begun as the app started) announces its counts when done: let that
  // announcement go out before any socket joins, or a joiner hears it as an update after its snapshot.
  await t.ctx.voting.tallyOf(1).whenReady();
  await new Promise((resolve) => setTimeout(resolve, EMIT_COALESCE_MS + 100));
});
afterAll(async () => {
  clients.forEach((c) => c.disconnect());
  await running?.close();
  await t?.close();
});

describe('a flood of subscribes', () => {
  it('gets one snapshot, not one per subscribe; past the allowance every name is denied', async () => {
    const flooder = await client();
    const snapshots = record(flooder, 'ResultsTally');
    const acks = await flood(flooder, 3000, ['tally']);
    // The allowance (a burst, then one a second) joins; the rest are refused unread.
    const joined = acks.filter((a) => a.joined.length > 0).length;
    expect(joined).toBeGreaterThanOrEqual(SUBSCRIBE_BURST);
    expect(joined).toBeLessThan(SUBSCRIBE_BURST + 5);
    expect(acks.filter((a) => a.denied.includes('tally')).length).toBe(3000 - joined);
    // A snapshot is sent before its ack: every one that will come has come.
    expect(snapshots.map((p) => p.kind)).toEqual(['snapshot']);

    // A subscribe after the tally changed (the client's way to ask for a snapshot it lacks) gets one.
    t.clock.advance(60_000);
    const { token } = await createVoter(t.ctx);
    expect((await vote(t.app, token, { [e.chair.id]: e.alice.id })).status).toBe(201);
    await waitFor(() => snapshots.length > 1, 10_000, 'the counts of the vote');
    expect(await subscribe(flooder, ['tally'])).toEqual({ joined: ['tally'], denied: [] });
    expect(await subscribe(flooder, ['tally'])).toEqual({ joined: ['tally'], denied: [] });
    expect(snapshots.filter((p) => p.kind === 'snapshot')).toHaveLength(2);
  });
});

describe('a socket that does not read', () => {
  it('is disconnected once its unsent output passes the cap; its queue stays bounded; a reader keeps its live updates', async () => {
    const reader = await client();
    const results = record(reader, 'DetailedResultsUpdate');
    expect(await subscribe(reader, ['results', 'tally'])).toEqual({ joined: ['results', 'tally'], denied: [] });

    const stalled = await client();
    expect(await subscribe(stalled, ['results', 'tally'])).toEqual({ joined: ['results', 'tally'], denied: [] });
    const server = serverSocket(stalled)!;
    const dropped = new Promise<void>((resolve) => server.once('disconnect', () => resolve()));
    // The client stops reading its connection (as the attack did); it keeps writing.
    (stalled.io.engine.transport as unknown as { ws: { _socket: { pause(): void } } }).ws._socket.pause();
    // What the server holds unsent for this socket, read at every packet written to it.
    let most = 0;
    (server.conn as unknown as { on(e: 'packetCreate', f: () => void): void }).on('packetCreate', () => {
      most = Math.max(most, pendingBytes(server));
    });
    // Every refused subscribe is answered with the names it gave (16 of 64 characters): about
    // 1 KB an answer, which the server must hold for a client that does not read. 30 MB in
    // all, well past what the kernel's socket buffers take before the server's own fill.
    const names = Array.from({ length: 16 }, (_, i) => `${'x'.repeat(60)}${String(i).padStart(4, '0')}`);
    for (let sent = 0; sent < 30_000 && server.connected; sent += 500) {
      for (let i = 0; i < 500; i++) stalled.emit('subscribe', names, () => {});
      await new Promise((r) => setTimeout(r, 5));
    }
    await waitFor(() => !server.connected, 20_000, 'the stalled socket to be dropped');
    await dropped;
    expect(server.connected).toBe(false);
    expect(running.realtime.io.of('/').sockets.has(server.id)).toBe(false);
    // Bounded: the cap plus the one answer that crossed it.
    expect(most).toBeGreaterThan(CAP / 2);
    expect(most).toBeLessThanOrEqual(CAP + 2048);

    // The reader was never dropped and still follows the votes.
    expect(reader.connected).toBe(true);
    const before = chairTotal(results.at(-1)?.results) ?? 0;
    const { token } = await createVoter(t.ctx);
    expect((await vote(t.app, token, { [e.chair.id]: e.brian.id })).status).toBe(201);
    await waitFor(() => (chairTotal(results.at(-1)?.results) ?? 0) > before, 10_000, 'the reader to see the vote');
  });

  it('is dropped over long-polling too: a client that never polls for what it is sent', async () => {
    // engine.io's polling protocol by hand (EIO 4): open, connect the namespace, then only write.
    const base = `${running.url}/socket.io/?EIO=4&transport=polling`;
    const open = await (await fetch(base)).text();
    const sid = (JSON.parse(open.slice(1)) as { sid: string }).sid;
    const post = (body: string) => fetch(`${base}&sid=${sid}`, { method: 'POST', body }).then((r) => r.status);
    expect(await post('40')).toBe(200);
    await waitFor(() => [...running.realtime.io.of('/').sockets.values()].some((s) => engineId(s) === sid), 5000, 'the socket');
    const server = [...running.realtime.io.of('/').sockets.values()].find((s) => engineId(s) === sid)!;
    let most = 0;
    (server.conn as unknown as { on(e: 'packetCreate', f: () => void): void }).on('packetCreate', () => {
      most = Math.max(most, pendingBytes(server));
    });
    const names = JSON.stringify(Array.from({ length: 16 }, (_, i) => `${'y'.repeat(60)}${String(i).padStart(4, '0')}`));
    // 100 subscribes a request (packets separated by the record separator), each asking for an ack.
    for (let id = 0; id < 2000 && server.connected; id += 100) {
      const body = Array.from({ length: 100 }, (_, i) => `42${id + i}["subscribe",${names}]`).join('\x1e');
      await post(body);
    }
    await waitFor(() => !server.connected, 10_000, 'the polling socket to be dropped');
    expect(most).toBeGreaterThan(CAP / 2);
    expect(most).toBeLessThanOrEqual(CAP + 2048);
  });
});
