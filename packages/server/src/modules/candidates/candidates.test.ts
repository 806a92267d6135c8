import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLogs, candidacies, members } from '../../db/schema';
import { apiClient, binaryBody, bodyOf, multipart, type FilePart } from '../../../test/client';
import { bearer, createCandidate, createMember, createPosition, createStaff, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';

/** A valid 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
/** A minimal JPEG header (SOI + JFIF APP0), enough for content sniffing. */
const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), Buffer.alloc(64), Buffer.from('ffd9', 'hex')]);

let t: TestApp;
let admin: string;
let uploads: string;

beforeAll(async () => {
  t = await createTestApp();
  const staff = await createStaff(t.ctx, { role: 'admin', name: 'Carol Admin' });
  admin = await tokenFor(t.ctx, 'admin', staff.id);
  uploads = join(t.dataDir, 'uploads');
});
afterAll(async () => {
  await t?.close();
});

const storedFiles = () => (existsSync(uploads) ? readdirSync(uploads).sort() : []);

/** The edit form as a browser sends it: text fields (`position_ids[]`) plus optional file parts; token null: no session. */
function editForm(id: number, fields: Record<string, string | FilePart | (string | FilePart)[]>, token: string | null = admin) {
  return apiClient(t.app, token ?? undefined).candidates.updateCandidate({ params: { id }, body: multipart(fields) });
}
const listCandidates = (token?: string) => apiClient(t.app, token).candidates.listCandidates();

async function candidateFields(positionIds: number[]) {
  const m = await createCandidate(t.ctx, positionIds, { branch: 'Nairobi' });
  const fields = { name: m.name, phone: m.phone, email: m.email, county: 'Nairobi', 'position_ids[]': positionIds.map(String) };
  return { m, fields };
}

describe('list candidates', () => {
  it('lists every member with a position, with positions and image_url', async () => {
    const national = await createPosition(t.ctx, { name: 'Chair Test' });
    const branch = await createPosition(t.ctx, { name: 'Branch Test', level: 'Kisumu' });
    const c = await createCandidate(t.ctx, [national.id, branch.id], { name: 'Listed Candidate', branch: 'Kisumu' });
    const notCandidate = await createMember(t.ctx);
    const res = await listCandidates(admin);
    expect(res.status).toBe(200);
    const list = bodyOf(res, 200).data.data.candidates;
    expect(list.some((x) => x.id === notCandidate.id)).toBe(false);
    expect(list.find((x) => x.id === c.id)).toEqual({
      id: c.id,
      member_no: c.memberNo,
      name: 'Listed Candidate',
      phone: c.phone,
      email: c.email,
      county: 'Kisumu',
      image_url: null,
      statement: null,
      positions: [
        {
          id: national.id,
          name: 'Chair Test',
          level: 'National',
          seats: 1,
          description: null,
          branch_id: null,
          kind: 'candidates',
          method: 'plurality',
          threshold: null,
          quorum_percent: null,
        },
        {
          id: branch.id,
          name: 'Branch Test',
          level: 'Kisumu',
          seats: 1,
          description: null,
          branch_id: expect.any(Number),
          kind: 'candidates',
          method: 'plurality',
          threshold: null,
          quorum_percent: null,
        },
      ],
    });
  });

  it('is for admins only', async () => {
    expect((await listCandidates()).status).toBe(401);
    for (const role of ['voter', 'agent'] as const) expect((await listCandidates(await tokenFor(t.ctx, role))).status).toBe(403);
  });
});

describe('edit candidate', () => {
  it('updates fields and positions without an image', async () => {
    const [a, b] = [await createPosition(t.ctx), await createPosition(t.ctx)];
    const { m, fields } = await candidateFields([a.id]);
    const res = await editForm(m.id, { ...fields, name: 'New Name', county: 'Mombasa', 'position_ids[]': [String(b.id)] });
    expect(res.status).toBe(200);
    expect(bodyOf(res, 200).data).toMatchObject({
      id: m.id,
      name: 'New Name',
      county: 'Mombasa',
      image_url: null,
      positions: [{ id: b.id }],
    });
    const [log] = await t.ctx.database.db.select().from(activityLogs).where(eq(activityLogs.activity, 'Candidate updated'));
    expect(log).toMatchObject({ name: 'Carol Admin', status: 'success' });
  });

  it('sets the statement voters see on the ballot (at most 2,000 characters); empty clears it', async () => {
    const p = await createPosition(t.ctx);
    const { m, fields } = await candidateFields([p.id]);
    const res = await editForm(m.id, { ...fields, statement: 'Twelve years as treasurer of the Eldoret branch.' });
    expect(res.status).toBe(200);
    expect(bodyOf(res, 200).data.statement).toBe('Twelve years as treasurer of the Eldoret branch.');
    const voter = await tokenFor(t.ctx, 'voter');
    await t.ctx.voting.tallyOf(1).refreshStructure();
    const ballot = bodyOf(await apiClient(t.app, voter).ballots.getBallot(), 200).data;
    const mine = ballot.find((g) => g.position_id === p.id)!.candidates.find((c) => c.id === m.id)!;
    expect(mine.statement).toBe('Twelve years as treasurer of the Eldoret branch.');
    expect((await editForm(m.id, { ...fields, statement: 'x'.repeat(2001) })).status).toBe(422);
    expect(bodyOf(await editForm(m.id, { ...fields }), 200).data.statement).toBe('Twelve years as treasurer of the Eldoret branch.');
    expect(bodyOf(await editForm(m.id, { ...fields, statement: '' }), 200).data.statement).toBeNull();
  });

  it('stores a real PNG under a random name and serves it back byte-identical as image/png', async () => {
    const p = await createPosition(t.ctx);
    const { m, fields } = await candidateFields([p.id]);
    const res = await editForm(m.id, { ...fields, image: { file: PNG, filename: 'me.png', contentType: 'image/png' } });
    expect(res.status).toBe(200);
    const url = bodyOf(res, 200).data.image_url as string;
    expect(url).toMatch(/^\/uploads\/[a-f0-9]{32}\.png$/);
    const served = await binaryBody(request(t.app).get(url));
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(served.body as Buffer, PNG)).toBe(0);
    const list = bodyOf(await listCandidates(admin), 200);
    expect(list.data.data.candidates.find((c) => c.id === m.id)!.image_url).toBe(url);
  });

  it('replaces the photo, removing the old file; the type comes from the content, not the name', async () => {
    const p = await createPosition(t.ctx);
    const { m, fields } = await candidateFields([p.id]);
    const first = await editForm(m.id, { ...fields, image: { file: PNG, filename: 'a.png', contentType: 'image/png' } });
    const oldName = (bodyOf(first, 200).data.image_url as string).split('/').pop()!;
    expect(storedFiles()).toContain(oldName);
    const second = await editForm(m.id, { ...fields, image: { file: JPEG, filename: 'b.png', contentType: 'image/png' } });
    expect(second.status).toBe(200);
    expect(bodyOf(second, 200).data.image_url).toMatch(/\.jpg$/);
    expect(storedFiles()).not.toContain(oldName);
    expect(storedFiles()).toContain((bodyOf(second, 200).data.image_url as string).split('/').pop());
    // An edit without an image keeps the photo.
    const third = await editForm(m.id, fields);
    expect(bodyOf(third, 200).data.image_url).toBe(bodyOf(second, 200).data.image_url);
  });

  it('refuses an HTML file renamed .png with 415, changing nothing', async () => {
    const p = await createPosition(t.ctx);
    const { m, fields } = await candidateFields([p.id]);
    const before = storedFiles();
    const html = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
    const res = await editForm(m.id, {
      ...fields,
      name: 'Should Not Change',
      image: { file: html, filename: 'photo.png', contentType: 'image/png' },
    });
    expect(res.status).toBe(415);
    expect(bodyOf(res, 415).message).toBe('Images must be JPEG, PNG or WebP files');
    expect(storedFiles()).toEqual(before);
    const [row] = await t.ctx.database.db.select().from(members).where(eq(members.id, m.id));
    expect(row!.name).toBe(m.name);
  });

  it('refuses a 6 MiB image with 413', async () => {
    const p = await createPosition(t.ctx);
    const { m, fields } = await candidateFields([p.id]);
    const big = Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]);
    const res = await editForm(m.id, { ...fields, image: { file: big, filename: 'big.png', contentType: 'image/png' } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: expect.any(String) });
  });

  it('answers malformed multipart with 400, and the next request still works', async () => {
    const p = await createPosition(t.ctx);
    const { m, fields } = await candidateFields([p.id]);
    const res = await request(t.app)
      .post(`/api/v1/edit/candidate/${m.id}`)
      .set(bearer(admin))
      .set('content-type', 'multipart/form-data; boundary=XYZ')
      .send('--XYZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nhalf a part with no end');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: expect.any(String) });
    const noBoundary = await request(t.app)
      .post(`/api/v1/edit/candidate/${m.id}`)
      .set(bearer(admin))
      .set('content-type', 'multipart/form-data')
      .send('garbage');
    expect(noBoundary.status).toBe(400);
    const next = await editForm(m.id, fields);
    expect(next.status).toBe(200);
  });

  it('neutralises a path-traversal file name', async () => {
    const p = await createPosition(t.ctx);
    const { m, fields } = await candidateFields([p.id]);
    const res = await editForm(m.id, { ...fields, image: { file: PNG, filename: '../../../evil.png', contentType: 'image/png' } });
    expect(res.status).toBe(200);
    expect(bodyOf(res, 200).data.image_url).toMatch(/^\/uploads\/[a-f0-9]{32}\.png$/);
    expect(storedFiles().every((f) => /^[a-f0-9]{32}\.(png|jpg|webp)$/.test(f))).toBe(true);
    expect(readdirSync(t.dataDir).filter((f) => f !== 'uploads' && !f.endsWith('.csv'))).toEqual([]);
    expect(existsSync(join(dirname(t.dataDir), 'evil.png'))).toBe(false);
    expect(readFileSync(join(uploads, bodyOf(res, 200).data.image_url!.split('/').pop()!)).equals(PNG)).toBe(true);
  });

  it('validates fields (422), uniqueness, positions and the target', async () => {
    const p = await createPosition(t.ctx);
    const other = await createMember(t.ctx, { email: 'cand.taken@example.org' });
    const { m, fields } = await candidateFields([p.id]);
    const bad = await editForm(m.id, { ...fields, phone: 'abc', 'position_ids[]': ['x'] });
    expect(bad.status).toBe(422);
    expect(Object.keys(bodyOf(bad, 422).errors ?? {}).sort()).toEqual(['phone', 'position_ids.0']);
    const taken = await editForm(m.id, { ...fields, email: other.email });
    expect(taken.status).toBe(422);
    expect(bodyOf(taken, 422).errors).toEqual({ email: ['The email has already been taken'] });
    const unknown = await editForm(m.id, { ...fields, 'position_ids[]': ['999999'] });
    expect(unknown.status).toBe(422);
    expect((await editForm(99999999, fields)).status).toBe(404);
    // A failed edit with an image leaves no file behind.
    const before = storedFiles();
    const failed = await editForm(m.id, { ...fields, email: other.email, image: { file: PNG, filename: 'x.png' } });
    expect(failed.status).toBe(422);
    expect(storedFiles()).toEqual(before);
    expect((await t.ctx.database.db.select().from(candidacies).where(eq(candidacies.memberId, m.id))).map((r) => r.positionId)).toEqual([
      p.id,
    ]);
  });

  it('takes no positions as "none" and refuses a second image or other file fields', async () => {
    const p = await createPosition(t.ctx);
    const { m, fields } = await candidateFields([p.id]);
    const { 'position_ids[]': _ids, ...rest } = fields;
    const two = await editForm(m.id, {
      ...rest,
      image: [
        { file: PNG, filename: 'a.png' },
        { file: PNG, filename: 'b.png' },
      ],
    });
    expect(two.status).toBe(422);
    const stray = await editForm(m.id, { ...rest, other: { file: PNG, filename: 'a.png' } });
    expect(stray.status).toBe(422);
    const none = await editForm(m.id, rest);
    expect(none.status).toBe(200);
    expect(bodyOf(none, 200).data.positions).toEqual([]);
  });

  it('is refused before the upload is read: 401 without a token, 403 for voters and agents', async () => {
    const { m, fields } = await candidateFields([]);
    const before = storedFiles();
    expect((await editForm(m.id, { name: 'x', image: { file: PNG, filename: 'a.png' } }, null)).status).toBe(401);
    for (const role of ['voter', 'agent'] as const) {
      const res = await editForm(m.id, { ...fields, image: { file: PNG, filename: 'a.png' } }, await tokenFor(t.ctx, role));
      expect(res.status).toBe(403);
    }
    expect(storedFiles()).toEqual(before);
  });
});
