import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context';
import { AppError } from '../errors';
import { likeContains, pageRequest, paginate } from './pagination';
import { filesOf, removeUploads, sniffImage, storeImages, uploadsDir, type UploadFile } from './uploads';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), Buffer.alloc(32)]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(18)]);
const GIF = Buffer.from('474946383961010001000000002c00000000010001000002', 'hex');

const dataDir = mkdtempSync(join(tmpdir(), 'kura-uploads-'));
const ctx = { env: { DATA_DIR: dataDir }, logger: pino({ level: 'silent' }) } as unknown as AppContext;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const file = (buffer: Buffer, over: Partial<UploadFile> = {}) =>
  ({ fieldname: 'image', originalname: '../../x.png', mimetype: 'image/png', buffer, size: buffer.length, ...over }) as UploadFile;

describe('sniffImage', () => {
  it('recognises JPEG, PNG and WebP by content', async () => {
    expect(await sniffImage(PNG)).toEqual({ mime: 'image/png', ext: 'png' });
    expect(await sniffImage(JPEG)).toEqual({ mime: 'image/jpeg', ext: 'jpg' });
    expect(await sniffImage(WEBP)).toEqual({ mime: 'image/webp', ext: 'webp' });
  });

  it('refuses anything else with 415, whatever it claims to be', async () => {
    for (const bytes of [
      GIF,
      Buffer.from('<html><script>alert(1)</script></html>'),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      Buffer.alloc(0),
      Buffer.from('%PDF-1.4\n'),
    ]) {
      await expect(sniffImage(bytes)).rejects.toMatchObject({ status: 415 });
    }
  });
});

describe('storeImages and removeUploads', () => {
  it('writes each image under a random name with the sniffed extension, never the client name', async () => {
    const names = await storeImages(ctx, [file(PNG), file(JPEG, { originalname: 'photo.exe' })]);
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^[a-f0-9]{32}\.png$/);
    expect(names[1]).toMatch(/^[a-f0-9]{32}\.jpg$/);
    expect(readFileSync(join(uploadsDir(ctx), names[0]!)).equals(PNG)).toBe(true);
    expect(readdirSync(dataDir)).toEqual(['uploads']);
    await removeUploads(ctx, [`/uploads/${names[0]}`, names[1]]);
    expect(readdirSync(uploadsDir(ctx))).toEqual([]);
  });

  it('writes nothing when any file of a set is not an image', async () => {
    await expect(storeImages(ctx, [file(PNG), file(Buffer.from('<html>'))])).rejects.toBeInstanceOf(AppError);
    expect(readdirSync(uploadsDir(ctx))).toEqual([]);
  });

  it('only ever deletes its own random names inside the uploads folder', async () => {
    const outside = join(dataDir, 'keep.png');
    writeFileSync(outside, PNG);
    const inside = join(uploadsDir(ctx), 'keep.png');
    writeFileSync(inside, PNG);
    await removeUploads(ctx, [
      '../keep.png',
      '/uploads/../keep.png',
      'keep.png',
      'https://lh3.googleusercontent.com/a/photo.png',
      null,
      undefined,
      `${'a'.repeat(32)}.png`,
    ]);
    expect(existsSync(outside)).toBe(true);
    expect(existsSync(inside)).toBe(true);
  });
});

describe('filesOf', () => {
  it('collects files by field and drops the empty part of an untouched file input', () => {
    const empty = file(Buffer.alloc(0), { originalname: '', fieldname: 'images[]' });
    const a = file(PNG, { fieldname: 'images[]' });
    const b = file(PNG, { fieldname: 'images' });
    expect(filesOf({ files: { 'images[]': [a, empty], images: [b] } }, ['images[]', 'images'])).toEqual([a, b]);
    expect(filesOf({ file: a }, ['images[]'])).toEqual([a]);
    expect(filesOf({ file: a }, ['image'])).toEqual([]);
    expect(filesOf({ files: [a, b] }, ['images'])).toEqual([b]);
    expect(filesOf({}, ['image'])).toEqual([]);
  });
});

describe('pagination', () => {
  it('has last_page at least 1 and computes offsets', () => {
    expect(pageRequest({})).toEqual({ page: 1, perPage: 10, offset: 0 });
    expect(pageRequest({ page: 3, per_page: 25 })).toEqual({ page: 3, perPage: 25, offset: 50 });
    expect(paginate([], 0, pageRequest({}))).toEqual({ data: [], current_page: 1, last_page: 1, per_page: 10, total: 0 });
    expect(paginate([], 21, pageRequest({ page: 9 }))).toMatchObject({ current_page: 9, last_page: 3, total: 21 });
  });

  it('escapes LIKE wildcards', () => {
    expect(likeContains('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
  });
});
