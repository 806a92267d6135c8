import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { io as connect, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents, SubscribeAck } from '@kura/contract';
import type { AppContext } from '../../src/context';
import type { Realtime, RealtimeOptions } from '../../src/realtime';
import { tokenFor } from '../factories';
import { createTestApp, type TestApp, type TestDatabase } from '../harness';
import { createElection, setVoting, type Election } from './election';

export type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
export type Running = { url: string; server: Server; realtime: Realtime; close(): Promise<void> };

/** The app on a real port with Socket.IO attached (the Postgres adapter when the test database is Postgres). */
export async function listen(
  ctx: AppContext,
  app: Express,
  options: RealtimeOptions = { databaseUrl: (ctx.database as TestDatabase).url },
): Promise<Running> {
  const server = createServer(app);
  const realtime = await ctx.realtime.attach(server, options);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    server,
    realtime,
    async close() {
      await realtime.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export async function connectClient(url: string, token?: string): Promise<Client> {
  const socket: Client = connect(url, {
    path: '/socket.io',
    transports: ['websocket'],
    auth: token ? { token } : {},
    reconnection: false,
    forceNew: true,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

export const subscribe = (socket: Client, channels: string[]) =>
  new Promise<SubscribeAck>((resolve) => socket.emit('subscribe', channels, (ack) => resolve(ack)));

/** Every payload a socket receives for an event, in order. */
export function record<E extends keyof ServerToClientEvents>(socket: Client, event: E): Parameters<ServerToClientEvents[E]>[0][] {
  const seen: Parameters<ServerToClientEvents[E]>[0][] = [];
  (socket as unknown as { on(ev: string, fn: (payload: unknown) => void): void }).on(event, (payload) => {
    seen.push(payload as Parameters<ServerToClientEvents[E]>[0]);
  });
  return seen;
}

export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
  what: string | (() => string) = 'condition',
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A test app with an election and voting on, listening with Socket.IO; see startLiveElection. */
export type LiveElection = {
  t: TestApp;
  e: Election;
  running: Running;
  admin: string;
  agent: string;
  /** A connected client (with the token's role; of another server at `url`), disconnected by close(). */
  client(token?: string, url?: string): Promise<Client>;
  close(): Promise<void>;
};

/**
 * The realtime suites' fixture: a test app with an election and voting on, on a real port with
 * Socket.IO in tiny fan-out slices (2 sockets), so every broadcast takes several turns of the
 * event loop; an admin's and an agent's token.
 */
export async function startLiveElection(): Promise<LiveElection> {
  const t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  const e = await createElection(t.ctx);
  const running = await listen(t.ctx, t.app, { databaseUrl: (t.ctx.database as TestDatabase).url, fanOutSlice: 2 });
  const admin = await tokenFor(t.ctx, 'admin');
  const agent = await tokenFor(t.ctx, 'agent');
  await setVoting(t.ctx, true);
  const clients: Client[] = [];
  return {
    t,
    e,
    running,
    admin,
    agent,
    async client(token, url = running.url) {
      const c = await connectClient(url, token);
      clients.push(c);
      return c;
    },
    async close() {
      clients.forEach((c) => c.disconnect());
      await running.close();
      await t.close();
    },
  };
}
