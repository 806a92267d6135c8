import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { createTestApp, type TestApp } from '../harness';

/**
 * Security hardening (headers): HSTS was sent over plain HTTP and CSP connect-src allowed any
 * ws:/wss: host. HSTS now goes only with a request that came over HTTPS (the socket, or
 * X-Forwarded-Proto through a trusted proxy hop); sockets connect to the page's own origin only.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const csp = (res: request.Response) =>
  Object.fromEntries(
    String(res.headers['content-security-policy'])
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([k, ...v]) => [k, v]),
  );

describe('transport and connection headers', () => {
  it('no HSTS over plain HTTP, nor when an untrusted client claims X-Forwarded-Proto: https', async () => {
    const plain = await request(t.app).get('/api/v1/psk/election/status');
    expect(plain.status).toBe(200);
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const claimed = await request(t.app).get('/api/v1/psk/election/status').set('X-Forwarded-Proto', 'https');
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
  });

  it('HSTS when a trusted proxy says the request came over HTTPS', async () => {
    const app = createApp({ ...t.ctx, env: { ...t.ctx.env, TRUST_PROXY_HOPS: 1 } });
    const res = await request(app).get('/api/v1/psk/election/status').set('X-Forwarded-Proto', 'https');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
    const http = await request(app).get('/api/v1/psk/election/status').set('X-Forwarded-Proto', 'http');
    expect(http.headers['strict-transport-security']).toBeUndefined();
  });

  it("CSP connect-src is the page's own origin (and Google sign-in), no other socket host", async () => {
    const res = await request(t.app).get('/api/v1/psk/election/status');
    const connect = csp(res)['connect-src'];
    expect(connect).toContain("'self'");
    expect(connect.filter((s: string) => /^wss?:/.test(s) || s === '*')).toEqual([]);
    expect(connect).toEqual(["'self'", 'https://accounts.google.com/gsi/']);
  });
});
