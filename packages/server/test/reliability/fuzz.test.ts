import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../src/auth/sessions';
import { flattenRoutes } from '../../src/http/routes';
import { createMember, createStaff } from '../factories';
import { createTestApp, type TestApp } from '../harness';
import { createElection, setVoting } from '../voting/election';
import { checkAnswer, requestArbitrary } from './fuzz-kit';
import { closeRawClients, rawRequest } from './http-client';

/**
 * No 5xx from any input: every contract route is fuzzed with requests generated from its zod
 * schemas and hostile mutations of them, as each identity (none, a garbage token, voter, agent,
 * admin, and a browser carrying the CSRF cookie). Every answer must be a status the route
 * documents (500 never) with the error envelope (docs/api.md "Errors"), and the server must still answer after.
 */

const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 10_500);

let t: TestApp;
let server: Server;
let port: number;
const tokens: Record<string, string> = {};
let voterId: number;
let adminId: number;
let agentId: number;
let sent = 0;
const statusCounts = new Map<number, number>();

beforeAll(async () => {
  t = await createTestApp({
    env: {
      // Ceilings high enough that the fuzzer reaches the handlers instead of the limiter.
      RATE_LIMIT_IP_SENDS_PER_HOUR: '1000000',
      RATE_LIMIT_IP_TRIES_PER_HOUR: '1000000',
      RATE_LIMIT_DETAILS_PER_HOUR: '1000000',
      RATE_LIMIT_RECEIPT_CHECKS_PER_HOUR: '1000000',
      LOG_LEVEL: 'warn',
    },
  });
  await createElection(t.ctx);
  await setVoting(t.ctx, true);
  for (let i = 0; i < 5; i++) await createMember(t.ctx, { branch: i % 2 ? 'Nairobi' : 'Mombasa' });
  voterId = (await createMember(t.ctx)).id;
  adminId = (await createStaff(t.ctx, { role: 'admin' })).id;
  agentId = (await createStaff(t.ctx, { role: 'agent' })).id;
  tokens.voter = (await createSession(t.ctx, { role: 'voter', subjectId: voterId })).token;
  tokens.agent = (await createSession(t.ctx, { role: 'agent', subjectId: agentId })).token;
  tokens.admin = (await createSession(t.ctx, { role: 'admin', subjectId: adminId })).token;
  server = createServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
}, 120_000);

afterAll(async () => {
  closeRawClients();
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
  console.log(`fuzz: ${sent} requests; statuses ${JSON.stringify(Object.fromEntries([...statusCounts].sort((a, b) => a[0] - b[0])))}`);
});

const identity = fc.constantFrom('none', 'garbage', 'voter', 'agent', 'admin', 'browser');
/** Error messages are translated on the way out (docs/architecture.md "Languages"): never a 500 in any language. */
const acceptLanguage = fc.constantFrom(undefined, 'sw', 'sw-KE,sw;q=0.9,en;q=0.8', 'fr', '*;q=0.1, sw;q=x, ;;');

const routes = flattenRoutes();

describe('fuzzing every contract route', () => {
  const perRoute = Math.ceil(TOTAL / routes.length);
  for (const { key, route } of routes) {
    it(`${key}: ${route.method} ${route.path}`, async () => {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(route), identity, fc.boolean(), acceptLanguage, async (req, who, alias, language) => {
          const headers: Record<string, string> = { ...req.headers };
          if (language !== undefined) headers['accept-language'] = language;
          if (who === 'garbage') headers.authorization = 'Bearer ' + 'z'.repeat(40);
          else if (who === 'browser') {
            headers.cookie = 'XSRF-TOKEN=fuzz-xsrf; kura_pending_voter=s%3Aforged.sig; kura_pending_admin=junk';
            headers['x-xsrf-token'] = 'fuzz-xsrf';
          } else if (who !== 'none') {
            // Logout kills the token it is given: that route gets a fresh one each time.
            headers.authorization = `Bearer ${key === 'api.auth.logout' ? (await createSession(t.ctx, { role: who as 'voter', subjectId: who === 'voter' ? voterId : who === 'agent' ? agentId : adminId })).token : tokens[who]}`;
          }
          const path = alias && req.path.startsWith('/api/v1/') ? req.path.replace('/api/v1/', '/api/') : req.path;
          const answer = await rawRequest(
            { port },
            { method: req.method, path: req.query ? `${path}?${req.query}` : path, headers, body: req.body },
          );
          sent++;
          statusCounts.set(answer.status, (statusCounts.get(answer.status) ?? 0) + 1);
          const problem = checkAnswer(route, answer.status, String(answer.headers['content-type'] ?? ''), answer.text);
          if (problem) throw new Error(`${problem}\n  request (${who}): ${req.label}`);
        }),
        { numRuns: perRoute, endOnFailure: true },
      );
    });
  }

  it(`sent at least ${TOTAL} requests, and the server still answers`, async () => {
    expect(sent).toBeGreaterThanOrEqual(TOTAL);
    expect((await rawRequest({ port }, { method: 'GET', path: '/healthz' })).status).toBe(200);
    expect((await rawRequest({ port }, { method: 'GET', path: '/readyz' })).status).toBe(200);
    const members = await rawRequest(
      { port },
      { method: 'GET', path: '/api/v1/members', headers: { authorization: `Bearer ${tokens.admin}` } },
    );
    expect(members.status).toBe(200);
    // Uploads landed only in the uploads folder, under random names.
    const uploads = join(t.dataDir, 'uploads');
    for (const name of existsSync(uploads) ? (readdirSync(uploads, { recursive: true }) as string[]) : []) {
      expect(name).toMatch(/^[a-f0-9]{32}\.(jpg|png|webp)$/);
    }
    expect(readdirSync(t.dataDir).filter((n) => n !== 'uploads')).toEqual([]);
  });
});
