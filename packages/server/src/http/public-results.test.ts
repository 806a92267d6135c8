import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestListener } from '../app';
import { bearer, tokenFor } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { createElection, createVoter, vote, type Election } from '../../test/voting/election';

let t: TestApp;
let e: Election;
let server: Server;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  e = await createElection(t.ctx);
  // The listener main.ts serves: the fast path in front of Express.
  server = createServer(createRequestListener(t.ctx, t.app));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const admin = await tokenFor(t.ctx, 'admin');
  await request(t.app).post('/api/v1/toggle').set(bearer(admin)).send({ status: true });
});
afterAll(async () => {
  await new Promise<void>((r) => server?.close(() => r()));
  await t?.close();
});

const SECURITY_HEADERS = [
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'strict-transport-security',
  'cross-origin-opener-policy',
  'referrer-policy',
];

describe('public results fast path', () => {
  it('answers like the Express route: same body, status and security headers', async () => {
    const fast = await request(base).get('/api/v1/psk/results');
    // A query string is not the fast path's: Express and the contract route answer it.
    const routed = await request(t.app).get('/api/v1/psk/results?via=express');
    expect(fast.status).toBe(200);
    expect(routed.status).toBe(200);
    expect(fast.body).toEqual(routed.body);
    expect(fast.body.data.data.map((g: { position_id: number }) => g.position_id)).toContain(e.chair.id);
    expect(fast.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(fast.headers['content-length'])).toBe(Buffer.byteLength(fast.text));
    for (const name of SECURITY_HEADERS) expect(fast.headers[name], name).toBe(routed.headers[name]);
    expect(fast.headers.etag).toBe(routed.headers.etag);
    expect(fast.headers['x-powered-by']).toBeUndefined();
    // The alias prefix is the same read.
    expect((await request(base).get('/api/psk/results')).body).toEqual(fast.body);
  });

  it('serves a new body and ETag after a vote, and 304 for the current one', async () => {
    const before = await request(base).get('/api/v1/psk/results');
    const etag = before.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    const unchanged = await request(base).get('/api/v1/psk/results').set('If-None-Match', etag);
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');

    const voter = await createVoter(t.ctx);
    expect((await vote(t.app, voter.token, { [e.chair.id]: e.brian.id })).status).toBe(201);
    // Live results follow a vote within the coalescing window, not inside its response: a
    // snapshot rebuild in flight (the toggle's, a busy machine's) applies the vote when it ends.
    let after = await request(base).get('/api/v1/psk/results').set('If-None-Match', etag);
    for (const deadline = Date.now() + 10_000; after.status === 304 && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await request(base).get('/api/v1/psk/results').set('If-None-Match', etag);
    }
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    const count = (body: typeof after.body) =>
      body.data.data
        .find((g: { position_id: number }) => g.position_id === e.chair.id)
        .values.find((v: { candidate_id: number }) => v.candidate_id === e.brian.id).count;
    expect(count(after.body)).toBe(count(before.body) + 1);
  });

  it('leaves other methods to Express', async () => {
    const res = await request(base).post('/api/v1/psk/results').send({});
    expect(res.status).toBe(404);
    expect(res.body.message).toBeDefined();
  });
});
