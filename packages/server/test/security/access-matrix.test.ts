import type { AppRoute } from '@ts-rest/core';
import type { Access } from '@kura/contract';
import { eq } from 'drizzle-orm';
import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolesFor } from '../../src/auth/access';
import { createSession } from '../../src/auth/sessions';
import { sessions } from '../../src/db/schema';
import { flattenRoutes } from '../../src/http/routes';
import { sha256 } from '../../src/lib/crypto';
import { openBrowser } from '../auth/browser';
import { createMember, createStaff } from '../factories';
import { createTestApp, type TestApp } from '../harness';

/**
 * The access matrix, generated from the contract: every route × {no token, expired token, voter,
 * agent, admin}. Exactly the roles its `metadata.access` admits get past the guard; the others
 * answer 401 (no or dead token) or 403 (wrong role). A route added to the contract is in the matrix
 * automatically. "Got through" means any answer other than 401/403/419: the request is built to
 * stop at validation (an empty body) or to be harmless (reads), so the handler's own answer shows.
 */

type Identity = 'none' | 'expired' | 'voter' | 'agent' | 'admin';
const IDENTITIES: Identity[] = ['none', 'expired', 'voter', 'agent', 'admin'];

let t: TestApp;
let voterId: number;
let agentId: number;
let adminId: number;
let server: Server;
const shared = new Map<Identity, string | undefined>();

beforeAll(async () => {
  t = await createTestApp();
  server = createServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  voterId = (await createMember(t.ctx)).id;
  agentId = (await createStaff(t.ctx, { role: 'agent' })).id;
  adminId = (await createStaff(t.ctx, { role: 'admin' })).id;
  for (const identity of IDENTITIES) shared.set(identity, await mintToken(identity));
});
afterAll(async () => {
  server?.close();
  await t?.close();
});

/** One token per identity, except for logout, which kills the token it is called with. */
async function tokenOf(identity: Identity, fresh = false): Promise<string | undefined> {
  return fresh ? mintToken(identity) : shared.get(identity);
}

async function mintToken(identity: Identity): Promise<string | undefined> {
  if (identity === 'none') return undefined;
  if (identity === 'expired') {
    const { token } = await createSession(t.ctx, { role: 'admin', subjectId: adminId });
    await t.ctx.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(sessions.tokenHash, sha256(token)));
    return token;
  }
  const subjectId = identity === 'voter' ? voterId : identity === 'agent' ? agentId : adminId;
  return (await createSession(t.ctx, { role: identity, subjectId })).token;
}

/** A concrete path for the route (path params filled with plausible values). */
export function concretePath(route: AppRoute): string {
  return route.path.replace(/:(\w+)/g, (_m, name: string) => (name === 'vvpat' ? 'VP-0000-0000' : '999999'));
}

function send(route: AppRoute, token: string | undefined) {
  const path = concretePath(route);
  const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  let req = request(server)[method](path);
  if (token) req = req.set('Authorization', `Bearer ${token}`);
  if (method !== 'get') req = req.send({});
  return req;
}

function expected(access: Access, identity: Identity): 'through' | 401 | 403 {
  const allowed = rolesFor(access);
  if (allowed === 'any') return 'through';
  if (identity === 'none' || identity === 'expired') return 401;
  if (allowed === 'none') return 'through';
  return allowed.includes(identity) ? 'through' : 403;
}

const routes = flattenRoutes();

describe('access matrix (generated from the contract)', () => {
  it('covers every route, and every route declares its access', () => {
    expect(routes.length).toBeGreaterThanOrEqual(44);
    for (const { key, route } of routes) {
      expect((route.metadata as { access?: Access } | undefined)?.access, key).toBeDefined();
    }
  });

  const guarded = routes.filter(({ route }) => !String((route.metadata as { access: Access }).access).startsWith('pending-'));
  for (const { key, route } of guarded) {
    const access = (route.metadata as { access: Access }).access;
    it(`${key} (${route.method} ${route.path}, ${access})`, async () => {
      for (const identity of IDENTITIES) {
        const res = await send(route, await tokenOf(identity, key === 'api.auth.logout'));
        const want = expected(access, identity);
        const label = `${key} as ${identity}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
        if (want === 'through') {
          expect([401, 403, 419], label).not.toContain(res.status);
        } else {
          expect(res.status, label).toBe(want);
          expect(res.body.message, label).toBe(want === 401 ? 'Unauthenticated' : 'This action is unauthorized');
        }
        expect(res.status, label).toBeLessThan(500);
      }
    });
  }

  const pending = routes.filter(({ route }) => String((route.metadata as { access: Access }).access).startsWith('pending-'));
  it('has the pending sign-in steps', () => {
    expect(pending.map((r) => r.key).sort()).toEqual([
      'api.auth.verifyAdmin',
      'api.auth.verifyAgent',
      'api.auth.verifySignup',
      'api.auth.verifySms',
      'api.auth.verifyTokenLogin',
    ]);
  });
  for (const { key, route } of pending) {
    it(`${key}: a bearer token of any role is no pending state; without CSRF 419, without the cookie 401`, async () => {
      for (const identity of IDENTITIES) {
        const res = await send(route, await tokenOf(identity)).send({ token: '123456', pfNumber: '123456' });
        expect(res.status, `${key} as ${identity} without CSRF`).toBe(419);
        expect(res.body).toEqual({ message: 'CSRF token mismatch' });
      }
      const browser = await openBrowser(server as never);
      for (const identity of IDENTITIES) {
        const token = await tokenOf(identity);
        let req = browser.agent.post(concretePath(route)).set('X-XSRF-TOKEN', browser.xsrf);
        if (token) req = req.set('Authorization', `Bearer ${token}`);
        const res = await req.send({ token: '123456', pfNumber: '123456' });
        expect(res.status, `${key} as ${identity} with CSRF, no pending cookie: ${JSON.stringify(res.body)}`).toBe(401);
      }
      // A CSRF header that does not match the cookie is a mismatch too.
      const forged = await browser.agent.post(concretePath(route)).set('X-XSRF-TOKEN', `${browser.xsrf}x`).send({ token: '123456' });
      expect(forged.status).toBe(419);
    });
  }

  it('the /api alias is guarded the same way as /api/v1', async () => {
    for (const { route } of guarded) {
      const access = (route.metadata as { access: Access }).access;
      if (rolesFor(access) === 'any' || !route.path.startsWith('/api/v1/')) continue;
      const res = await request(server)[route.method.toLowerCase() as 'get' | 'post'](concretePath(route).replace('/api/v1/', '/api/'));
      expect(res.status, route.path).toBe(401);
    }
  });

  it('a token is only read from the Authorization header (not the query, not a cookie)', async () => {
    const token = (await tokenOf('admin'))!;
    expect((await request(server).get(`/api/v1/members?token=${token}`)).status).toBe(401);
    expect((await request(server).get(`/api/v1/members?access_token=${token}`)).status).toBe(401);
    expect((await request(server).get('/api/v1/members').set('Cookie', `token=${token}; bearer_token=${token}`)).status).toBe(401);
    expect((await request(server).get('/api/v1/members').set('Authorization', `Basic ${token}`)).status).toBe(401);
    expect((await request(server).get('/api/v1/members').set('Authorization', `Bearer ${token}`)).status).toBe(200);
  });
});
