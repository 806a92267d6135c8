import { existsSync, readdirSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, bodyOf, multipart, type FilePart } from '../client';
import { bearer, createCandidate, createPosition, tokenFor } from '../factories';
import { createTestApp, type TestApp } from '../harness';
import { reportImageUrl } from '../../src/lib/report-images';

/**
 * Hostile uploads on the three multipart routes (help, candidate photo, members import): oversize,
 * wrong type by content, polyglots, path traversal names, too many files, malformed and slow
 * multipart. Each gets a clear 4xx; nothing is written outside DATA_DIR/uploads (and only random
 * names inside it); the process keeps answering.
 */

const API = '/api/v1';
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2216bc70000000049454e44ae426082',
  'hex',
);
let t: TestApp;
let server: Server;
let voter: string;
let admin: string;
let candidateId: number;
let candidate: Awaited<ReturnType<typeof createCandidate>>;

beforeAll(async () => {
  t = await createTestApp();
  voter = await tokenFor(t.ctx, 'voter');
  admin = await tokenFor(t.ctx, 'admin');
  const chair = await createPosition(t.ctx);
  candidate = await createCandidate(t.ctx, [chair.id]);
  candidateId = candidate.id;
  server = createServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await t?.close();
});

function storedFiles(): string[] {
  const dir = join(t.dataDir, 'uploads');
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : [];
}

const report = (files: { name?: string; data: Buffer; filename: string; type?: string }[], details = 'Something broke') => {
  // One reporter sends many reports here: keep it under the per-account hourly limit (quotas.test.ts).
  t.clock.advance(13 * 60_000);
  const parts: Record<string, FilePart[]> = {};
  for (const f of files)
    (parts[f.name ?? 'images[]'] ??= []).push({ file: f.data, filename: f.filename, contentType: f.type ?? 'image/png' });
  return apiClient(server, voter).help.reportIssue({ body: multipart({ details, ...parts }) });
};
/** The candidate edit form with the given image parts (as a browser sends them). */
const candidateEdit = (fields: Record<string, string | FilePart | FilePart[]>) =>
  apiClient(server, admin).candidates.updateCandidate({ params: { id: candidateId }, body: multipart(fields) });

describe('uploads', () => {
  it('refuses wrong types judged by content, whatever the name or claimed type says', async () => {
    const cases = [
      { data: Buffer.from('<?php system($_GET["c"]); ?>'), filename: 'shell.php.png' },
      {
        data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        filename: 'x.svg',
        type: 'image/svg+xml',
      },
      { data: Buffer.from('<html><script>alert(1)</script></html>'), filename: 'page.png' },
      { data: Buffer.from('GIF89a\x01\x00\x01\x00<script>alert(1)</script>'), filename: 'a.gif', type: 'image/gif' },
      { data: Buffer.from('%PDF-1.4 /JavaScript (app.alert(1))'), filename: 'doc.jpg', type: 'image/jpeg' },
      { data: Buffer.alloc(0), filename: 'empty.png' },
    ];
    for (const c of cases) {
      const res = await report([c]);
      expect(res.status, `${c.filename}: ${JSON.stringify(res.body)}`).toBe(415);
      expect(bodyOf(res, 415).message).toBe('Images must be JPEG, PNG or WebP files');
    }
    expect(storedFiles()).toEqual([]);
  });

  it('stores a polyglot (a real PNG with a script appended) only as an inert PNG under a random name', async () => {
    const polyglot = Buffer.concat([PNG, Buffer.from('<script>alert(1)</script><?php echo 1; ?>')]);
    const res = await report([{ data: polyglot, filename: '../../../../tmp/evil.php' }]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const files = storedFiles();
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[a-f0-9]{32}\.png$/);
    // A report image is served only at the admins' signed URL (src/lib/report-images.ts).
    expect((await request(server).get(`/uploads/${files[0]}`)).status).toBe(403);
    const served = await request(server).get(reportImageUrl(t.ctx, files[0]!));
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toContain("default-src 'none'");
    expect(existsSync('/tmp/evil.php')).toBe(false);
  });

  it('serves a report image under no other spelling of its path: encoded, doubled slashes, dot segments, capitals', async () => {
    const before = new Set(storedFiles());
    expect((await report([{ data: PNG, filename: 'screen.png' }])).status).toBe(201);
    const name = storedFiles().find((f) => !before.has(f))!;
    const [hex, ext] = name.split('.') as [string, string];
    const enc = (s: string, upper = false) =>
      [...s].map((c) => `%${c.charCodeAt(0).toString(16)[upper ? 'toUpperCase' : 'toLowerCase']()}`).join('');
    // Raw requests: an HTTP client library would tidy these paths before sending them.
    const rawGet = (path: string) =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        const port = (server.address() as AddressInfo).port;
        const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        req.end();
      });
    const tricks = [
      `/uploads/${name}`,
      `/uploads/${enc(hex[0]!)}${hex.slice(1)}.${ext}`,
      `/uploads/${hex}.${enc(ext[0]!)}${ext.slice(1)}`,
      `/uploads/${enc(name)}`,
      `/uploads/${enc(name, true)}`,
      `/uploads/${hex}%2E${ext}`,
      `/uploads/${hex}%2e${ext}`,
      `/uploads//${name}`,
      `/uploads///${name}`,
      `//uploads/${name}`,
      `/uploads/./${name}`,
      `/uploads/.//${name}`,
      `/uploads/x/../${name}`,
      `/uploads/x/..%2f${name}`,
      `/uploads%2f${name}`,
      `/uploads%2F${name}`,
      `/%75ploads/${name}`,
      `/UPLOADS/${name}`,
      `/Uploads/${name}`,
      `/./uploads/${name}`,
      `/x/../uploads/${name}`,
      `/uploads/${hex.toUpperCase()}.${ext.toUpperCase()}`,
      `/uploads/${name}?expires=99999999999&sig=x`,
      `/uploads/${name}/`,
      `/uploads/${name}%00`,
      `/uploads/${name}%20`,
      `/uploads/${name};x`,
      `/uploads/${name}#x`,
      `/uploads/%252e/${name}`,
    ];
    const leaks: string[] = [];
    for (const path of tricks) {
      const res = await rawGet(path);
      const refused = res.status >= 400 && res.status < 500 && !res.body.includes(PNG.subarray(0, 16));
      if (!refused || String(res.headers['cache-control'] ?? '').includes('public')) leaks.push(`${path} ${res.status}`);
    }
    expect(leaks).toEqual([]);
    // Signed, it is served, and never to a shared cache, even when the signed path is spelled oddly.
    const signed = reportImageUrl(t.ctx, name);
    for (const path of [signed, signed.replace(`/uploads/${hex[0]}`, `/uploads/${enc(hex[0]!, true)}`), `/${signed}`]) {
      const res = await rawGet(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['cache-control'], path).toBe('private, no-store');
      expect(res.headers['content-type'], path).toBe('image/png');
    }
  });

  it('serves a candidate photo to anyone, cached for a day; a name that is not stored is a 404', async () => {
    const res = await candidateEdit({
      name: candidate.name,
      phone: candidate.phone,
      email: candidate.email!,
      county: 'Nairobi',
      image: { file: PNG, filename: 'me.png', contentType: 'image/png' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const url = bodyOf(res, 200).data.image_url!;
    const photo = await request(server).get(url);
    expect(photo.status).toBe(200);
    expect(photo.headers['cache-control']).toBe('public, max-age=86400');
    expect(photo.headers['x-content-type-options']).toBe('nosniff');
    expect((await request(server).get(url.replace(/\.png$/, '.PNG'))).status).toBe(200);
    const missing = await request(server).get(`/uploads/${'0'.repeat(32)}.png`);
    expect(missing.status).toBe(404);
    expect(missing.headers['cache-control'] ?? '').not.toContain('public');
    expect((await request(server).get('/uploads/')).status).toBe(404);
  });

  it('ignores traversal in names: nothing lands outside the folder, and /uploads cannot be walked out of', async () => {
    const names = [
      '../../../etc/passwd',
      '..\\..\\..\\windows\\evil.png',
      '/etc/cron.d/x.png',
      'a/../../b.png',
      '\u0000.png',
      '%2e%2e%2fx.png',
    ];
    const before = storedFiles().length;
    let stored = 0;
    for (const filename of names) {
      const res = await report([{ data: PNG, filename }]);
      // A NUL in a part header is malformed multipart (400); every other name is just ignored.
      expect([201, 400], filename).toContain(res.status);
      if (res.status === 201) stored++;
    }
    expect(stored).toBeGreaterThanOrEqual(names.length - 1);
    const after = storedFiles();
    expect(after).toHaveLength(before + stored);
    for (const f of after) expect(f).toMatch(/^[a-f0-9]{32}\.png$/);
    expect(readdirSync(t.dataDir).sort()).toEqual(['uploads']);
    for (const path of [
      '/uploads/../package.json',
      '/uploads/%2e%2e/%2e%2e/package.json',
      '/uploads/..%2f..%2fpackage.json',
      '/uploads/.secrets.json',
    ]) {
      const res = await request(server).get(path);
      expect(res.text, path).not.toContain('"dependencies"');
      expect(res.text).not.toContain('ballotKey');
    }
  });

  it('refuses oversize images (413) and too many files (422), leaving nothing behind', async () => {
    const before = storedFiles().length;
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 + 10)]);
    const oversize = await report([{ data: big, filename: 'big.png' }]);
    expect(oversize.status).toBe(413);
    expect(typeof (oversize.body as { message?: unknown }).message).toBe('string');
    const six = await report(Array.from({ length: 6 }, (_, i) => ({ data: PNG, filename: `${i}.png` })));
    expect(six.status).toBe(422);
    const mixed = await report([
      { data: PNG, filename: 'ok.png' },
      { data: Buffer.from('MZ\x90\x00'), filename: 'app.exe' },
    ]);
    expect(mixed.status).toBe(415);
    const stray = await report([{ name: 'evil', data: PNG, filename: 'x.png' }]);
    expect(stray.status).toBe(422);
    expect(storedFiles()).toHaveLength(before);
  });

  it('refuses a bad candidate photo and a non-CSV import without writing anything', async () => {
    const before = storedFiles().length;
    const photo = await candidateEdit({
      name: candidate.name,
      phone: candidate.phone,
      email: candidate.email!,
      county: 'Nairobi',
      image: { file: Buffer.from('<svg onload=alert(1)>'), filename: 'x.png', contentType: 'image/png' },
    });
    expect(photo.status).toBe(415);
    const twoImages = await candidateEdit({
      name: candidate.name,
      image: [
        { file: PNG, filename: 'a.png' },
        { file: PNG, filename: 'b.png' },
      ],
    });
    expect([413, 422]).toContain(twoImages.status);
    const csv = await apiClient(server, admin).members.importMembers({
      query: {},
      body: multipart({ file: { file: PNG, filename: '../../x.csv', contentType: 'text/csv' } }),
    });
    // Either refused outright or answered as an all-or-nothing import that created nobody.
    if (csv.status === 200) expect(csv.body.created + csv.body.updated).toBe(0);
    else expect(csv.status).toBeGreaterThanOrEqual(400);
    expect(csv.status).toBeLessThan(500);
    expect(storedFiles()).toHaveLength(before);
    expect(readdirSync(t.dataDir).sort()).toEqual(['uploads']);
  });

  it('answers malformed multipart with 4xx and never streams a body from an anonymous caller', async () => {
    const bodies: [string, string][] = [
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="details"\r\n\r\nhello'], // truncated
      ['multipart/form-data', '--x\r\n\r\n--x--'], // no boundary
      ['multipart/form-data; boundary=x', 'garbage without any boundary'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name=\r\n\r\nx\r\n--x--\r\n'],
      [
        'multipart/form-data; boundary=x',
        `--x\r\nContent-Disposition: form-data; name="details"\r\n\r\n${'y'.repeat(40 * 1024)}\r\n--x--\r\n`,
      ],
    ];
    for (const [type, body] of bodies) {
      const res = await request(server).post(`${API}/help`).set(bearer(voter)).set('Content-Type', type).send(body);
      expect(res.status, `${type} ${body.slice(0, 40)}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    const anonymous = await apiClient(server).help.reportIssue({
      body: multipart({ 'images[]': { file: PNG, filename: 'a.png' }, details: 'x' }),
    });
    expect(anonymous.status).toBe(401);
  });

  it('survives a slow multipart upload that stops half way (client gives up)', async () => {
    const port = (server.address() as AddressInfo).port;
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.on('error', () => {});
    socket.write(
      `POST ${API}/help HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${voter}\r\nContent-Type: multipart/form-data; boundary=zz\r\nContent-Length: 100000\r\n\r\n--zz\r\nContent-Disposition: form-data; name="images[]"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    for (let i = 0; i < 5; i++) {
      socket.write(PNG.subarray(0, 8));
      await new Promise((r) => setTimeout(r, 50));
    }
    socket.destroy();
    await new Promise((r) => setTimeout(r, 100));
    expect((await request(server).get('/healthz')).status).toBe(200);
    expect((await report([{ data: PNG, filename: 'after.png' }])).status).toBe(201);
  });
});
