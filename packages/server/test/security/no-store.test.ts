import type { AppRoute } from '@ts-rest/core';
import type { RouteMetadata } from '@kura/contract';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../src/auth/sessions';
import { flattenRoutes } from '../../src/http/routes';
import { createMember, createStaff } from '../factories';
import { createTestApp, type TestApp } from '../harness';

/**
 * Personal answers are never kept by the browser: a voter's receipts (`psk/vvpat`), `validate`,
 * the member list, the logs and every other signed-in answer carried an ETag but no
 * `Cache-Control: no-store`, so a kiosk or a shared computer could keep them on disk. Every GET
 * route of the contract that needs a session, read by a role it admits, must say `no-store`, and
 * so must a public route read with a session (it may personalise its answer). Generated from the
 * contract, so a new route is covered the day it is added.
 */

let t: TestApp;
const tokens: Record<'voter' | 'admin', string> = { voter: '', admin: '' };

beforeAll(async () => {
  t = await createTestApp();
  const voter = await createMember(t.ctx);
  const admin = await createStaff(t.ctx, { role: 'admin' });
  tokens.voter = (await createSession(t.ctx, { role: 'voter', subjectId: voter.id })).token;
  tokens.admin = (await createSession(t.ctx, { role: 'admin', subjectId: admin.id })).token;
});
afterAll(async () => {
  await t?.close();
});

const accessOf = (route: AppRoute) => (route.metadata as RouteMetadata | undefined)?.access ?? 'admin';
const concretePath = (route: AppRoute) => route.path.replace(/:(\w+)/g, (_m, name: string) => (name === 'vvpat' ? 'VP-0000-0000' : '1'));

const gets = flattenRoutes().filter(({ route }) => route.method === 'GET');
const signedIn = gets.filter(({ route }) => accessOf(route) !== 'anyone');
// Public results are one body for every caller, answered before the app (src/http/public-results.ts):
// nothing personal to keep, and the most read route of an election day.
const SAME_FOR_EVERYONE = new Set(['api.elections.getResults']);
const open = gets.filter(({ key, route }) => accessOf(route) === 'anyone' && !SAME_FOR_EVERYONE.has(key));

describe('Cache-Control: no-store on every authenticated answer', () => {
  it('covers the routes the finding named', () => {
    const paths = signedIn.map(({ route }) => route.path);
    for (const named of ['/psk/vvpat', '/validate', '/members', '/logs']) {
      expect(paths.some((p) => p.endsWith(named))).toBe(true);
    }
  });

  it.each(signedIn.map(({ key, route }) => [key, route] as const))('%s', async (_key, route) => {
    const role = accessOf(route) === 'voter' ? 'voter' : 'admin';
    const res = await request(t.app).get(concretePath(route)).set('Authorization', `Bearer ${tokens[role]}`);
    // Got past the guard (the handler's own answer, success or not, is what a browser would keep).
    // The evidence pack's own 403 before the close is the handler's, not the guard's.
    const handlersOwn403 = res.status === 403 && /once the election closes/.test(String(res.body?.message));
    if (!handlersOwn403) expect([401, 403, 419]).not.toContain(res.status);
    expect(res.headers['cache-control'] ?? '', `${route.path} answered ${res.status}`).toContain('no-store');
  });

  it.each(open.map(({ key, route }) => [key, route] as const))('%s read with a session', async (_key, route) => {
    const res = await request(t.app).get(concretePath(route)).set('Authorization', `Bearer ${tokens.voter}`);
    expect(res.headers['cache-control'] ?? '', `${route.path} answered ${res.status}`).toContain('no-store');
  });

  it('also on the refusals of a signed-in route (no token, a dead token)', async () => {
    const res = await request(t.app).get('/api/v1/psk/vvpat');
    expect(res.status).toBe(401);
    expect(res.headers['cache-control']).toContain('no-store');
  });
});
