import { connect } from 'node:net';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../src/auth/sessions';
import { createMember } from '../factories';
import { TEST_DATABASE_URL } from '../harness';
import { setVoting } from '../voting/election';
import { closeRawClients, rawRequest, rawRequest as raw, type RawAnswer } from './http-client';
import { createDeployment, seedElection, staffToken, type Deployment, type SeededElection } from './server-process';

/**
 * Database faults and shutdown under load, against the real server process on a real Postgres:
 * - its connections are terminated (pg_terminate_backend) mid-traffic, repeatedly;
 * - the database refuses connections for a while (ALLOW_CONNECTIONS false + terminate): the server
 *   answers 503 meanwhile (never 500, never a hang), and recovers by itself when it is back;
 * - SIGTERM while requests are in flight: they all complete and the process exits 0.
 */

let dep: Deployment;
let election: SeededElection;
let adminToken: string;
let admin: postgres.Sql;
let dbName: string;

describe.skipIf(!TEST_DATABASE_URL)('database faults and shutdown under load (real server, Postgres)', () => {
  beforeAll(async () => {
    dep = await createDeployment({ MIX_MIN_BATCH: '5', MIX_INTERVAL_MS: '200', DATABASE_POOL_MAX: '5' });
    election = await seedElection(dep.ctx);
    await setVoting(dep.ctx, true);
    adminToken = await staffToken(dep.ctx, 'admin');
    admin = postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
    dbName = new URL(dep.db.url!).pathname.slice(1);
  });
  afterAll(async () => {
    closeRawClients();
    await admin?.unsafe(`alter database "${dbName}" allow_connections true`).catch(() => {});
    await admin?.end();
    await dep?.close();
  });

  const terminate = () =>
    admin.unsafe(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [dbName]);

  async function voters(n: number) {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const m = await createMember(dep.ctx, { branch: 'Nairobi' });
      out.push((await createSession(dep.ctx, { role: 'voter', subjectId: m.id })).token);
    }
    return out;
  }

  /** A mixed request: reads that touch the database, and votes. */
  function traffic(port: number, tokens: string[], i: number, fresh = false): Promise<RawAnswer> {
    const token = tokens[i % tokens.length]!;
    const rawRequest = (base: { port: number }, input: Parameters<typeof raw>[1]) => raw(base, { ...input, fresh });
    switch (i % 4) {
      case 0:
        return rawRequest({ port }, { method: 'GET', path: '/api/v1/validate', headers: { authorization: `Bearer ${token}` } });
      case 1:
        return rawRequest({ port }, { method: 'GET', path: '/api/v1/members', headers: { authorization: `Bearer ${adminToken}` } });
      case 2:
        return rawRequest(
          { port },
          { method: 'GET', path: '/api/v1/agent/statistics', headers: { authorization: `Bearer ${adminToken}` } },
        );
      default:
        return rawRequest(
          { port },
          {
            method: 'POST',
            path: '/api/v1/psk/vote',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ candidates: { [election.chair.id]: election.alice.id } }),
          },
        );
    }
  }

  it('survives terminated connections mid-traffic: only 2xx/409 or 503, and recovers by itself', async () => {
    const server = await dep.start();
    const tokens = await voters(30);
    const statuses = new Map<number, number>();
    let stop = false;
    const workers = Array.from({ length: 6 }, async (_, w) => {
      for (let i = w; !stop; i += 6) {
        const res = await traffic(server.port, tokens, i);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect([200, 201, 409, 503], `${res.status} ${res.text}`).toContain(res.status);
        if (res.status === 503) expect(JSON.parse(res.text).message).toMatch(/unavailable/i);
      }
    });
    for (let k = 0; k < 8; k++) {
      await new Promise((r) => setTimeout(r, 250));
      await terminate();
    }
    await new Promise((r) => setTimeout(r, 1000));
    stop = true;
    await Promise.all(workers);
    expect(server.proc.exitCode).toBeNull();
    // After the faults: healthy answers without a restart.
    await eventually(async () => expect((await rawRequest({ port: server.port }, { method: 'GET', path: '/readyz' })).status).toBe(200));
    expect((await traffic(server.port, tokens, 0)).status).toBe(200);
    console.log(`faults (terminate): ${JSON.stringify(Object.fromEntries(statuses))}`);
    server.proc.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('answers 503 while the database refuses connections, and recovers when it is back', async () => {
    const server = await dep.start();
    const tokens = await voters(5);
    expect((await traffic(server.port, tokens, 0)).status).toBe(200);
    await admin.unsafe(`alter database "${dbName}" allow_connections false`);
    await terminate();
    const during: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await traffic(server.port, tokens, i);
      during.push(res.status);
      expect([503], `${res.status} ${res.text}`).toContain(res.status);
    }
    expect((await rawRequest({ port: server.port }, { method: 'GET', path: '/readyz' })).status).toBe(503);
    expect((await rawRequest({ port: server.port }, { method: 'GET', path: '/healthz' })).status).toBe(200);
    await admin.unsafe(`alter database "${dbName}" allow_connections true`);
    await eventually(async () => expect((await traffic(server.port, tokens, 0)).status).toBe(200));
    expect(server.proc.exitCode).toBeNull();
    expect(server.output()).not.toMatch(/unhandled|uncaught/i);
    server.proc.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('completes in-flight requests on SIGTERM and exits 0', async () => {
    const server = await dep.start();
    const tokens = await voters(40);
    // 40 votes in flight: headers and half of each body sent, so the server is inside every one
    // of them when SIGTERM arrives; the rest of each body follows the signal.
    const sockets = await Promise.all(
      tokens.map(async (token, i) => {
        const body = JSON.stringify({ candidates: { [election.treasurer.id]: i % 2 ? election.carol.id : election.dan.id } });
        const socket = connect(server.port, '127.0.0.1');
        await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
        let response = '';
        socket.on('data', (c) => (response += c.toString()));
        const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(response)));
        socket.on('error', () => {});
        socket.write(
          `POST /api/v1/psk/vote HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
        );
        return { socket, rest: body.slice(10), closed };
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    server.proc.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    for (const s of sockets) s.socket.write(s.rest);
    const answers = await Promise.all(sockets.map((s) => s.closed));
    for (const a of answers) expect(a.split('\r\n')[0]).toBe('HTTP/1.1 201 Created');
    expect(await server.exited).toBe(0);
    // And every one of them is recorded.
    const [row] = await dep.db.db.execute<{ n: number }>(
      sql`select count(*)::int as n from participation where position_id = ${election.treasurer.id}`,
    );
    expect(row!.n).toBeGreaterThanOrEqual(40);
  });
});

async function eventually(check: () => Promise<void>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
