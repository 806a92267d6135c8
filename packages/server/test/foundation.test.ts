import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { Writable } from 'node:stream';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { contract } from '@kura/contract';
import { flattenRoutes, tsr } from '../src/http/routes';
import { moduleImplementations } from '../src/modules';
import { createLogger } from '../src/logger';
import { createTestApp, createTestDatabase, type TestApp } from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const envelope = (body: unknown) => {
  expect(body).toMatchObject({ message: expect.any(String) });
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+|node_modules|SELECT |\/work\//);
};

describe('error envelope', () => {
  it('answers malformed JSON with 400', async () => {
    const res = await request(t.app).post('/api/v1/verify/phone').set('content-type', 'application/json').send('{"unique_id": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Malformed JSON body' });
  });

  it('answers a body in the wrong media type with 415', async () => {
    const res = await request(t.app).post('/api/v1/verify/phone').set('content-type', 'text/plain').send('unique_id=1234');
    expect(res.status).toBe(415);
    envelope(res.body);
  });

  it('answers an oversize body with 413', async () => {
    const res = await request(t.app)
      .post('/api/v1/verify/phone')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ unique_id: 'x'.repeat(200_000), consent: true }));
    expect(res.status).toBe(413);
    envelope(res.body);
  });

  it('answers an unknown API route with a JSON 404 under both prefixes', async () => {
    for (const path of ['/api/v1/no/such/route', '/api/no/such/route']) {
      const res = await request(t.app).get(path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/json/);
      envelope(res.body);
    }
  });

  it('answers validation failures with 422 and the spec message per field', async () => {
    const res = await request(t.app).post('/api/v1/verify/phone').send({ unique_id: 'ab', consent: true });
    expect(res.status).toBe(422);
    expect(res.body.errors.unique_id).toContain('Must be at least 3 characters long');
    expect(res.body.message).toBe('Must be at least 3 characters long');
  });

  it('answers 401 Unauthenticated for a guarded route without a token, before validating', async () => {
    const res = await request(t.app).post('/api/v1/psk/vote').send({ nonsense: true });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Unauthenticated' });
  });

  it('serves every contract route with a handler, checked by the compiler', () => {
    // The real check is `pnpm typecheck`: a router missing a handler does not compile, so this
    // directive itself fails the typecheck the day an incomplete router is accepted.
    // @ts-expect-error getCsrfCookie has no handler
    const incomplete = () => tsr.router(contract.csrf, {});
    expect(incomplete).toBeTypeOf('function');
    const impl = moduleImplementations(t.ctx.routes(t.ctx)) as unknown as Record<string, Record<string, unknown>>;
    for (const { key } of flattenRoutes()) {
      const handler = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], impl);
      expect(typeof handler === 'function' || typeof (handler as { handler?: unknown })?.handler === 'function', key).toBe(true);
    }
  });
});

describe('routing', () => {
  it('mounts every contract route under /api/v1 and the /api alias', async () => {
    const routes = flattenRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(49);
    for (const { route } of routes) {
      const concrete = route.path.replace(/:(\w+)/g, '1');
      const paths = concrete.startsWith('/api/v1') ? [concrete, concrete.replace('/api/v1', '/api')] : [concrete];
      for (const path of paths) {
        const res = await request(t.app)[route.method.toLowerCase() as 'get' | 'post'](path);
        // Whatever the route answers, it is not the "no such route" 404.
        expect(res.body?.message ?? '', `${route.method} ${path}`).not.toMatch(/^No route for/);
        expect(res.status, `${route.method} ${path}`).toBeLessThan(500 + (res.status === 501 || res.status === 503 ? 100 : 0));
      }
    }
  });

  it('publishes an OpenAPI 3 document listing every contract path', async () => {
    const res = await request(t.app).get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    const documented = Object.keys(res.body.paths);
    for (const { route } of flattenRoutes()) {
      expect(documented).toContain(route.path.replace(/:(\w+)/g, '{$1}'));
    }
  });

  it('documents no 501 on any route: every route is served', async () => {
    const res = await request(t.app).get('/api/openapi.json');
    for (const [path, operations] of Object.entries(res.body.paths as Record<string, Record<string, { responses: object }>>)) {
      for (const [method, operation] of Object.entries(operations))
        expect(Object.keys(operation.responses), `${method} ${path}`).not.toContain('501');
    }
  });

  it('serves a browsable API page', async () => {
    const res = await request(t.app).get('/api/docs/').redirects(1);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/swagger/i);
  });

  it('answers health and readiness', async () => {
    expect((await request(t.app).get('/healthz')).body).toEqual({ status: 'ok' });
    const ready = await request(t.app).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
  });

  it('sets a readable XSRF-TOKEN cookie', async () => {
    const res = await request(t.app).get('/sanctum/csrf-cookie');
    expect(res.status).toBe(204);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/XSRF-TOKEN=[\w-]{32,}/);
    expect(cookie).not.toMatch(/HttpOnly/i);
  });

  it('serves the web app shell for app routes (SPA fallback) with the runtime config', async () => {
    for (const path of ['/', '/voter/elect', '/admin/members', '/sign-in']) {
      const res = await request(t.app).get(path);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/html/);
    }
  });

  it('sends security headers', async () => {
    const res = await request(t.app).get('/healthz');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe("the web app's assets", () => {
  it('are served before the app: immutable, with the security headers, unlogged, and a missing one is a plain 404', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'kura-dist-'));
    try {
      mkdirSync(join(dist, 'assets'));
      writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Kura</title><!--kura-config-->');
      writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log(1);');
      const app = createApp({ ...t.ctx, env: { ...t.ctx.env, WEB_DIST_DIR: dist, TRUST_PROXY_HOPS: 1 } });
      const before = t.logs.length;
      const res = await request(app).get('/assets/index-abc123.js').set('x-forwarded-proto', 'https').expect(200);
      expect(res.text).toBe('console.log(1);');
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000/);
      expect(res.headers['x-powered-by']).toBeUndefined();
      const missing = await request(app).get('/assets/index-gone00.js').expect(404);
      expect(missing.headers['content-type']).toMatch(/json/);
      expect(missing.body).toEqual({ message: 'Not found' });
      expect(missing.headers['x-content-type-options']).toBe('nosniff');
      expect(t.logs.slice(before).filter((l) => l.includes('/assets/'))).toEqual([]);
      // the app's routes still answer, and the shell still comes from the same directory
      expect((await request(app).get('/sign-in').expect(200)).text).toContain('kura-config');
      await request(app).get('/healthz').expect(200);
      expect(t.logs.slice(before).some((l) => l.includes('"url":"/sign-in"'))).toBe(true);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});

/** A GET with exactly these request headers, answered as it came over the wire (no client decoding it). */
function rawGet(server: Server, path: string, headers: Record<string, string>) {
  const { port } = server.address() as AddressInfo;
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

describe("the web app's assets, compressed at build", () => {
  it('go to each browser in the best encoding it accepts, brotli first, and never an encoding it refused', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'kura-dist-'));
    const script = Buffer.from(`export const words = ${JSON.stringify('Vote in your organisation’s election. '.repeat(200))};`);
    const br = brotliCompressSync(script);
    const gz = gzipSync(script);
    let server: Server | undefined;
    try {
      mkdirSync(join(dist, 'assets'));
      writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Kura</title><!--kura-config-->');
      writeFileSync(join(dist, 'assets', 'words-abc123.js'), script);
      writeFileSync(join(dist, 'assets', 'words-abc123.js.br'), br);
      writeFileSync(join(dist, 'assets', 'words-abc123.js.gz'), gz);
      writeFileSync(join(dist, 'assets', 'tiny-abc123.js'), 'console.log(1);');
      const app = createApp({ ...t.ctx, env: { ...t.ctx.env, WEB_DIST_DIR: dist } });
      server = await new Promise<Server>((resolve) => {
        const s = app.listen(0, '127.0.0.1', () => resolve(s));
      });
      const path = '/assets/words-abc123.js';
      // Chromium over HTTPS, and the same with a quality that puts gzip ahead: brotli is sent (both accepted)
      for (const accept of ['gzip, deflate, br, zstd', 'gzip;q=1, br;q=0.5']) {
        const res = await rawGet(server, path, { 'accept-encoding': accept });
        expect(res.status).toBe(200);
        expect(res.headers['content-encoding']).toBe('br');
        expect(res.body.equals(br)).toBe(true);
        expect(brotliDecompressSync(res.body).equals(script)).toBe(true);
      }
      // gzip where brotli is not accepted (Chromium over plain HTTP), or refused by its quality
      for (const accept of ['gzip, deflate', 'br;q=0, gzip']) {
        const res = await rawGet(server, path, { 'accept-encoding': accept });
        expect(res.headers['content-encoding']).toBe('gzip');
        expect(gunzipSync(res.body).equals(script)).toBe(true);
      }
      // the file as it is for a client that accepts no encoding, or refuses every one we have
      const refusing: Record<string, string>[] = [
        {},
        { 'accept-encoding': 'identity' },
        { 'accept-encoding': 'br;q=0, gzip;q=0' },
        { 'accept-encoding': 'zstd' },
      ];
      for (const headers of refusing) {
        const res = await rawGet(server, path, headers);
        expect(res.headers['content-encoding']).toBeUndefined();
        expect(res.body.equals(script)).toBe(true);
      }
      // every answer of a file with encodings says it varies by them, and is what the file is
      const res = await rawGet(server, path, { 'accept-encoding': 'br' });
      expect(res.headers['vary']).toMatch(/accept-encoding/i);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['content-length']).toBe(String(br.length));
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      // a file too small to be worth compressing is sent as it is
      const tiny = await rawGet(server, '/assets/tiny-abc123.js', { 'accept-encoding': 'br, gzip' });
      expect(tiny.headers['content-encoding']).toBeUndefined();
      expect(tiny.body.toString()).toBe('console.log(1);');
      // an address that is not percent-encoding, and a compressed file gone from the disk: the
      // API's plain 404, never a compressed or plain-text answer
      const bad = await rawGet(server, '/assets/words-%E0%A4%A.js', { 'accept-encoding': 'br' });
      expect(bad.status).toBe(404);
      expect(JSON.parse(bad.body.toString())).toEqual({ message: 'Not found' });
      unlinkSync(join(dist, 'assets', 'words-abc123.js.br'));
      const gone = await rawGet(server, path, { 'accept-encoding': 'br' });
      expect(gone.status).toBe(404);
      expect(gone.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(gone.body.toString())).toEqual({ message: 'Not found' });
    } finally {
      await new Promise((r) => (server ? server.close(r) : r(undefined)));
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('leave the API uncompressed, whatever the client accepts (BREACH: answers hold tokens beside what a request echoes)', async () => {
    const res = await request(t.app).get('/api/v1/election').set('accept-encoding', 'br, gzip, deflate').expect(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    const shell = await request(t.app).get('/sign-in').set('accept-encoding', 'br, gzip, deflate');
    expect(shell.headers['content-encoding']).toBeUndefined();
  });
});

describe('request logging', () => {
  it('logs a line per request at info, and only server errors above it', async () => {
    const before = t.logs.length;
    await request(t.app).get('/api/v1/psk/election/status').expect(200);
    expect(t.logs.slice(before).some((l) => l.includes('"url":"/api/v1/psk/election/status"') && l.includes('"status":200'))).toBe(true);

    const lines: string[] = [];
    const quiet = createLogger(
      { LOG_LEVEL: 'warn', NODE_ENV: 'test' },
      new Writable({ write: (c, _e, done) => (lines.push(String(c)), done()) }),
    );
    const dead = await createTestDatabase();
    await dead.close();
    const app = createApp({ ...t.ctx, logger: quiet, database: dead });
    await request(app).get('/healthz').expect(200);
    await request(app).get('/api/v1/no-such-route').expect(404);
    expect(lines.filter((l) => l.includes('request completed'))).toEqual([]);
    await request(app).get('/readyz').expect(503);
    const failed = lines
      .filter((l) => l.includes('request completed'))
      .map((l) => JSON.parse(l) as { level: number; req: { url: string }; res: { status: number } });
    expect(failed).toEqual([
      expect.objectContaining({ level: 40, req: expect.objectContaining({ method: 'GET', url: '/readyz' }), res: { status: 503 } }),
    ]);
  });
});
