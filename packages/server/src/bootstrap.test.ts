import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';
import { createContext, createCore, FIRST_ADMIN_HINT, prepareData, type OwnedContext } from './bootstrap';
import { election, staff } from './db/schema';
import { parseEnv } from './env';
import { flattenRoutes } from './http/routes';
import { PASSWORD_COST } from './lib/passwords';
import { createLogger } from './logger';
import { randomSecrets } from './secrets';
import { apiClient, bodyOf, callRoute, contractClient, placeholderParams } from '../test/client';
import { tokenFor } from '../test/factories';
import { createTestDatabase, type TestDatabase } from '../test/harness';

/**
 * Start-up on an install whose elections were deleted (docs/operations.md "The untitled election"): nothing at
 * start depends on a particular election existing. Each "start" below is what main.ts does on the
 * same database: context, prepareData, services, app.
 */

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
      const anon = apiClient(app);
      expect(bodyOf(await anon.elections.getElection(), 200).data).toMatchObject({ id: 1, title: 'Annual election' });
      adminToken = await tokenFor(ctx, 'admin');
      const admin = apiClient(app, adminToken);
      const post = await admin.organisation.createElection({ body: { title: 'AGM 2027' } });
      expect(post.status, JSON.stringify(post.body)).toBe(201);
      created = bodyOf(post, 201).data.id!;
      // Election 1 is the organisation's current election: deleting it leaves none named.
      const put = await admin.organisation.updateOrganisation({ body: { current_election_id: 1 } });
      expect(put.status).toBe(200);
      expect((await admin.organisation.deleteElection({ params: { id: 1 } })).status).toBe(204);
      expect(bodyOf(await anon.organisation.getOrganisation(), 200).data.current_election_id).toBeNull();
    } finally {
      await ctx.close();
    }
  });

  it('starts again on the same database, and everything is reachable', async () => {
    const { ctx, app } = await start();
    try {
      // The organisation and its texts, the elections list, the current election (the one left).
      const anon = apiClient(app);
      const admin = apiClient(app, adminToken);
      expect(bodyOf(await anon.organisation.getOrganisation(), 200).data).toMatchObject({ name: 'Umoja Sacco', current_election_id: null });
      const list = await admin.organisation.listElections();
      expect(bodyOf(list, 200).data.map((e) => e.id)).toEqual([created]);
      // ELECTION_TITLE only fills an untitled election: the one left keeps the admin's title.
      expect(bodyOf(await anon.elections.getElection(), 200).data).toMatchObject({ id: created, title: 'AGM 2027' });
      expect((await anon.members.listPositions()).status).toBe(200);
      expect((await anon.organisation.getElectionById({ params: { id: 1 } })).status).toBe(404);
      // Sign-in: the session from before the restart, and a fresh admin sign-in (password, then the emailed code).
      expect((await admin.auth.validateStaff()).status).toBe(200);
      const login = await anon.auth.loginAdmin({ body: { email: 'admin@umoja.test', password: PASSWORD } });
      expect(login.status, JSON.stringify(login.body)).toBe(200);
      // Every route, as an admin, with no election named and placeholder ids: never a 500
      // (a change of an unknown position once fell back on election 1 and failed on its absence).
      const client = contractClient(app, adminToken);
      for (const { key, route } of flattenRoutes()) {
        if (/logout/i.test(key)) continue;
        const res = await callRoute(client, key, { params: placeholderParams(route), body: route.method === 'GET' ? undefined : {} });
        expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      }
      expect((await admin.setup.updatePosition({ params: { id: 999999 }, body: { name: 'x' } })).status).toBe(404);
      expect((await admin.setup.deletePosition({ params: { id: 999999 } })).status).toBe(404);
    } finally {
      await ctx.close();
    }
  });

  it('deletes the last election too (204); the install starts with none, everything reachable, and takes a new one', async () => {
    let started = await start();
    try {
      const last = await apiClient(started.app, adminToken).organisation.deleteElection({ params: { id: created } });
      expect(last.status, JSON.stringify(last.body)).toBe(204);
      expect(await started.ctx.database.db.select().from(election)).toEqual([]);
    } finally {
      await started.ctx.close();
    }
    started = await start();
    try {
      const { app } = started;
      // An empty list, an empty dashboard: no current election, and no 500 anywhere.
      const anon = apiClient(app);
      const admin = apiClient(app, adminToken);
      expect(bodyOf(await admin.organisation.listElections(), 200).data).toEqual([]);
      expect(bodyOf(await anon.organisation.listElections(), 200).data).toEqual([]);
      expect(bodyOf(await anon.organisation.getOrganisation(), 200).data).toMatchObject({ name: 'Umoja Sacco', current_election_id: null });
      expect((await anon.elections.getElection()).status).toBe(404);
      expect((await admin.auth.validateStaff()).status).toBe(200);
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
      const admin = apiClient(started.app, adminToken);
      const post = await admin.organisation.createElection({ body: { title: 'By-election' } });
      expect(post.status).toBe(201);
      expect(bodyOf(await apiClient(started.app).elections.getElection(), 200).data.title).toBe('By-election');
      // Gone again before any branch, position or member: the next test seeds the demo into a new one.
      expect((await admin.organisation.deleteElection({ params: { id: bodyOf(post, 201).data.id! } })).status).toBe(204);
    } finally {
      await started.ctx.close();
    }
  });

  it('seeds the demo into the current election when asked on a start after election 1 went (SEED_DEMO=1)', async () => {
    // Still empty: no branch, position or member, so the demo may seed; election 1 is not there to take it.
    const { ctx, app } = await start({ SEED_DEMO: '1' });
    try {
      const anon = apiClient(app);
      const current = bodyOf(await anon.elections.getElection(), 200).data;
      expect(current).toMatchObject({ title: 'PSK Elections 2025' });
      const positions = bodyOf(await anon.members.listPositions(), 200).data;
      expect(positions.length).toBeGreaterThan(5);
      expect((await anon.organisation.getElectionById({ params: { id: 1 } })).status).toBe(404);
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
      expect((await apiClient(app).staff.getStaffStatus()).body).toEqual({ data: { admin_exists: false } });
    } finally {
      await ctx.close();
    }
    const { ctx: again, app } = await start();
    try {
      // ADMIN_EMAIL made one: no hint any more.
      expect((await prepareData(again)).lines.join('\n')).not.toContain('No admin yet');
      expect((await apiClient(app).staff.getStaffStatus()).body).toEqual({ data: { admin_exists: true } });
    } finally {
      await again.close();
    }
  });
});

describe('the password cost', () => {
  it('is the product cost unless a test core names another, which a production core refuses', () => {
    const sink = new Writable({ write: (_chunk, _enc, done) => done() });
    // The environment as parsed, with only NODE_ENV changed (a production one needs its secrets, not read here).
    const core = (NODE_ENV: 'production' | 'test', passwordCost?: number) => {
      const e = { ...env(), NODE_ENV };
      return createCore({ env: e, logger: createLogger(e, sink), database, secrets, passwordCost }).core;
    };
    expect(core('production').passwords.cost).toBe(PASSWORD_COST);
    expect(core('test').passwords.cost).toBe(PASSWORD_COST);
    expect(core('test', 10).passwords.cost).toBe(10);
    expect(core('production', PASSWORD_COST + 1).passwords.cost).toBe(PASSWORD_COST + 1);
    expect(() => core('production', 10)).toThrow(`a password cost below ${PASSWORD_COST} is for tests only`);
  });
});
