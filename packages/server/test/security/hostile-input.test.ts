import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../src/auth/sessions';
import { toAppError } from '../../src/http/error-handler';
import { flattenRoutes } from '../../src/http/routes';
import { bearer, createMember, createStaff } from '../factories';
import { createTestApp, type TestApp } from '../harness';
import { checkAnswer, requestArbitrary } from '../reliability/fuzz-kit';
import { closeRawClients, rawRequest } from '../reliability/http-client';

/**
 * Regression tests for what the fuzzer (test/reliability/fuzz.test.ts) found, plus a quick pass
 * of the same fuzzer over every route so the normal suite keeps an eye on it too.
 */

let t: TestApp;
let server: Server;
let port: number;
let admin: string;
let voter: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await createSession(t.ctx, { role: 'admin', subjectId: (await createStaff(t.ctx, { role: 'admin' })).id })).token;
  voter = (await createSession(t.ctx, { role: 'voter', subjectId: (await createMember(t.ctx)).id })).token;
  server = createServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  closeRawClients();
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

describe('values Postgres cannot store are a 4xx, not a 500', () => {
  // Found by the fuzzer: a NUL byte reached Postgres ("invalid byte sequence for encoding UTF8: 0x00"),
  // wrapped in a DrizzleQueryError the error mapping did not look inside.
  it('a NUL byte in a path, a query or a body', async () => {
    const answers = [
      await request(server).get('/api/v1/psk/receipt/%00'),
      await request(server).get('/api/v1/psk/receipt/VP-%00'),
      await request(server).get('/api/v1/search/member?query=%00').set(bearer(admin)),
      await request(server).get('/api/v1/search/logs?name=a%00b').set(bearer(admin)),
      await request(server).get('/api/v1/search/vvpat?vvpat=%00').set(bearer(admin)),
      await request(server).post('/api/v1/details').send({ member_no: 'a\u0000b' }),
      await request(server).post('/api/v1/agent/login').send({ email: 'a\u0000@example.org' }),
      await request(server).post('/api/v1/verify/phone').send({ unique_id: '123\u00004', consent: true }),
      await request(server).post('/api/v1/admin/login').send({ email: 'a@example.org', password: 'x\u0000y' }),
      await request(server)
        .post('/api/v1/edit/psk/member/1')
        .set(bearer(admin))
        .send({ name: 'a\u0000', phone: '0712345678', email: 'a@example.org', county: 'Nairobi', member_no: '123' }),
    ];
    for (const [i, res] of answers.entries()) {
      expect(res.status, `#${i}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `#${i}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      expect(typeof res.body.message).toBe('string');
    }
  });

  it('maps wrapped driver errors by their cause: data exceptions 400, lost connections 503', () => {
    const wrap = (cause: object) => Object.assign(new (class DrizzleLike extends Error {})('Failed query'), { cause });
    const pg = (code: string) => Object.assign(new Error('pg'), { code, severity: 'ERROR' });
    // The real DrizzleQueryError is what the app sees; build one through drizzle's own class.
    return import('drizzle-orm').then(({ DrizzleQueryError }) => {
      expect(toAppError(new DrizzleQueryError('select 1', [], pg('22021'))).status).toBe(400);
      expect(toAppError(new DrizzleQueryError('select 1', [], pg('22003'))).status).toBe(400);
      expect(
        toAppError(new DrizzleQueryError('select 1', [], Object.assign(new Error('closed'), { code: 'CONNECTION_CLOSED' }))).status,
      ).toBe(503);
      expect(toAppError(new DrizzleQueryError('select 1', [], pg('57P01'))).status).toBe(503);
      expect(toAppError(new DrizzleQueryError('select 1', [], pg('42P01'))).status).toBe(500);
      expect(toAppError(wrap(pg('42P01'))).status).toBe(500);
    });
  });

  it('ids beyond any integer column', async () => {
    for (const id of ['2147483648', '99999999999999999999', '-1', '0', '1e3']) {
      const res = await request(server)
        .post(`/api/v1/edit/psk/member/${id}`)
        .set(bearer(admin))
        .send({ name: 'A', phone: '0712345678', email: 'a@example.org', county: 2147483648, member_no: '123' });
      expect(res.status, `${id}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    const vote = await request(server)
      .post('/api/v1/psk/vote')
      .set(bearer(voter))
      .send({ candidates: { '9999999999': 2147483648 } });
    expect(vote.status).toBeLessThan(500);
  });
});

describe('quick fuzz of every route (the long run is test:reliability)', () => {
  const routes = flattenRoutes();
  it(`${routes.length} routes × 4 requests: documented statuses, the envelope, no 5xx`, async () => {
    let sent = 0;
    for (const { route } of routes) {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(route), fc.constantFrom('none', 'voter', 'admin'), async (req, who) => {
          const headers = { ...req.headers, ...(who === 'none' ? {} : { authorization: `Bearer ${who === 'admin' ? admin : voter}` }) };
          if (route.path.endsWith('/logout')) delete (headers as Record<string, string>).authorization;
          const answer = await rawRequest(
            { port },
            { method: req.method, path: req.query ? `${req.path}?${req.query}` : req.path, headers, body: req.body },
          );
          sent++;
          const problem = checkAnswer(route, answer.status, String(answer.headers['content-type'] ?? ''), answer.text);
          if (problem) throw new Error(`${problem}\n  request (${who}): ${req.label}`);
        }),
        { numRuns: 4, endOnFailure: true },
      );
    }
    expect(sent).toBeGreaterThanOrEqual(routes.length * 4);
    expect((await rawRequest({ port }, { method: 'GET', path: '/healthz' })).status).toBe(200);
  });
});
