import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';
import { createContext, FIRST_ADMIN_HINT, prepareData, type OwnedContext } from './bootstrap';
import { election, staff } from './db/schema';
import { parseEnv } from './env';
import { flattenRoutes } from './http/routes';
import { createLogger } from './logger';
import { randomSecrets } from './secrets';
import { callRoute, contractClient, placeholderParams } from '../test/client';
import { bearer, tokenFor } from '../test/factories';
import { createTestDatabase, type TestDatabase } from '../test/harness';

/**
 * Start-up on an install whose elections were deleted (docs/operations.md "The untitled election"): nothing at
 * start depends on a particular election existing. Each "start" below is what main.ts does on the
 * same database: context, prepareData, services, app.
 */

const API = '/api/v1';
const PASSWORD = 'correct horse battery staple';
let database: TestDatabase;
let dataDir: string;
const secrets = randomSecrets();
const env = (overrides: Record<string, string> = {}) =>
  parseEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATA_DIR: dataDir,
    SEED_DEMO: '0',
    ELECTION_TITLE: 'Annual election',
    ORG_NAME: 'Umoja Sacco',
    ADMIN_EMAIL: 'admin@umoja.test',
    ADMIN_PASSWORD: PASSWORD,
    ...overrides,
  });

type Started = { ctx: OwnedContext; app: Express };
async function start(overrides: Record<string, string> = {}): Promise<Started> {
  const sink = new Writable({ write: (_chunk, _enc, done) => done() });
  const e = env(overrides);
  const ctx = await createContext({ env: e, logger: createLogger(e, sink), database, secrets });
  try {
    await prepareData(ctx);
    await ctx.start();
  } catch (error) {
    await ctx.close();
    throw error;
  }
  return { ctx, app: createApp(ctx) };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kura-startup-'));
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('an empty install whose first election is deleted', () => {
  let adminToken: string;
  let created: number;

  it('deletes the untitled election 1 through the API once another exists', async () => {
    const { ctx, app } = await start();
    try {
      expect((await request(app).get(`${API}/election`)).body.data).toMatchObject({ id: 1, title: 'Annual election' });
      adminToken = await tokenFor(ctx, 'admin');
      const post = await request(app).post(`${API}/elections`).set(bearer(adminToken)).send({ title: 'AGM 2027' });
      expect(post.status, JSON.stringify(post.body)).toBe(201);
      created = post.body.data.id as number;
      // Election 1 is the organisation's current election: deleting it leaves none named.
      const put = await request(app).put(`${API}/organisation`).set(bearer(adminToken)).send({ current_election_id: 1 });
      expect(put.status).toBe(200);
      expect((await request(app).delete(`${API}/elections/1`).set(bearer(adminToken))).status).toBe(204);
      expect((await request(app).get(`${API}/organisation`)).body.data.current_election_id).toBeNull();
    } finally {
      await ctx.close();
    }
  });

  it('starts again on the same database, and everything is reachable', async () => {
    const { ctx, app } = await start();
    try {
      // The organisation and its texts, the elections list, the current election (the one left).
      expect((await request(app).get(`${API}/organisation`)).body.data).toMatchObject({ name: 'Umoja Sacco', current_election_id: null });
      const list = await request(app).get(`${API}/elections`).set(bearer(adminToken));
      expect(list.body.data.map((e: { id: number }) => e.id)).toEqual([created]);
      // ELECTION_TITLE only fills an untitled election: the one left keeps the admin's title.
      expect((await request(app).get(`${API}/election`)).body.data).toMatchObject({ id: created, title: 'AGM 2027' });
      expect((await request(app).get(`${API}/psk/positions`)).status).toBe(200);
      expect((await request(app).get(`${API}/elections/1`)).status).toBe(404);
      // Sign-in: the session from before the restart, and a fresh admin sign-in (password, then the emailed code).
      expect((await request(app).get(`${API}/validate/admin`).set(bearer(adminToken))).status).toBe(200);
      const login = await request(app).post(`${API}/admin/login`).send({ email: 'admin@umoja.test', password: PASSWORD });
      expect(login.status, JSON.stringify(login.body)).toBe(200);
      // Every route, as an admin, with no election named and placeholder ids: never a 500
      // (a change of an unknown position once fell back on election 1 and failed on its absence).
      const client = contractClient(app, adminToken);
      for (const { key, route } of flattenRoutes()) {
        if (/logout/i.test(key)) continue;
        const res = await callRoute(client, key, { params: placeholderParams(route), body: route.method === 'GET' ? undefined : {} });
        expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      }
      expect((await request(app).patch(`${API}/positions/999999`).set(bearer(adminToken)).send({ name: 'x' })).status).toBe(404);
      expect((await request(app).delete(`${API}/positions/999999`).set(bearer(adminToken))).status).toBe(404);
    } finally {
      await ctx.close();
    }
  });

  it('deletes the last election too (204); the install starts with none, everything reachable, and takes a new one', async () => {
    let started = await start();
    try {
      const last = await request(started.app).delete(`${API}/elections/${created}`).set(bearer(adminToken));
      expect(last.status, JSON.stringify(last.body)).toBe(204);
      expect(await started.ctx.database.db.select().from(election)).toEqual([]);
    } finally {
      await started.ctx.close();
    }
    started = await start();
    try {
      const { app } = started;
      // An empty list, an empty dashboard: no current election, and no 500 anywhere.
      expect((await request(app).get(`${API}/elections`).set(bearer(adminToken))).body.data).toEqual([]);
      expect((await request(app).get(`${API}/elections`)).body.data).toEqual([]);
      expect((await request(app).get(`${API}/organisation`)).body.data).toMatchObject({ name: 'Umoja Sacco', current_election_id: null });
      expect((await request(app).get(`${API}/election`)).status).toBe(404);
      expect((await request(app).get(`${API}/validate/admin`).set(bearer(adminToken))).status).toBe(200);
      const client = contractClient(app, adminToken);
      for (const { key, route } of flattenRoutes()) {
        if (/logout/i.test(key)) continue;
        const res = await callRoute(client, key, { params: placeholderParams(route), body: route.method === 'GET' ? undefined : {} });
        expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      }
      // The web app's pages are served (the browser shows the empty states).
      for (const page of ['/', '/admin/login', '/admin/elections']) expect((await request(app).get(page)).status, page).toBeLessThan(500);
    } finally {
      await started.ctx.close();
    }
    started = await start();
    try {
      const post = await request(started.app).post(`${API}/elections`).set(bearer(adminToken)).send({ title: 'By-election' });
      expect(post.status).toBe(201);
      expect((await request(started.app).get(`${API}/election`)).body.data.title).toBe('By-election');
      // Gone again before any branch, position or member: the next test seeds the demo into a new one.
      expect((await request(started.app).delete(`${API}/elections/${post.body.data.id}`).set(bearer(adminToken))).status).toBe(204);
    } finally {
      await started.ctx.close();
    }
  });

  it('seeds the demo into the current election when asked on a start after election 1 went (SEED_DEMO=1)', async () => {
    // Still empty: no branch, position or member, so the demo may seed; election 1 is not there to take it.
    const { ctx, app } = await start({ SEED_DEMO: '1' });
    try {
      const current = (await request(app).get(`${API}/election`)).body.data;
      expect(current).toMatchObject({ title: 'PSK Elections 2025' });
      const positions = (await request(app).get(`${API}/psk/positions`)).body.data as unknown[];
      expect(positions.length).toBeGreaterThan(5);
      expect((await request(app).get(`${API}/elections/1`)).status).toBe(404);
    } finally {
      await ctx.close();
    }
  });
});

describe('an install without an admin', () => {
  it('says in the start banner and to the first screens how to create the first admin, until one exists', async () => {
    await database.db.delete(staff);
    const e = env({ ADMIN_EMAIL: '', ADMIN_PASSWORD: '' });
    const sink = new Writable({ write: (_chunk, _enc, done) => done() });
    const ctx = await createContext({ env: e, logger: createLogger(e, sink), database, secrets });
    try {
      const report = await prepareData(ctx);
      expect(report.lines).toEqual(expect.arrayContaining(FIRST_ADMIN_HINT));
      expect(report.lines.join('\n')).toContain('pnpm cli admin:create');
      const app = createApp(ctx);
      expect((await request(app).get(`${API}/staff/status`)).body).toEqual({ data: { admin_exists: false } });
    } finally {
      await ctx.close();
    }
    const { ctx: again, app } = await start();
    try {
      // ADMIN_EMAIL made one: no hint any more.
      expect((await prepareData(again)).lines.join('\n')).not.toContain('No admin yet');
      expect((await request(app).get(`${API}/staff/status`)).body).toEqual({ data: { admin_exists: true } });
    } finally {
      await again.close();
    }
  });
});
