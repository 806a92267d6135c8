import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLogs, issueReports } from '../../db/schema';
import { REPORT_IMAGE_URL_TTL_MS, reportImageUrl } from '../../lib/report-images';
import { apiClient, bodyOf, multipart, type FilePart } from '../../../test/client';
import { bearer, createMember, createStaff, tokenFor } from '../../../test/factories';
import { createTestApp, databaseKind, type TestApp } from '../../../test/harness';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
/** RIFF....WEBPVP8 : enough for content sniffing to call it WebP. */
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(18)]);

let t: TestApp;
let admin: string;
let voter: string;
let voterId: number;
let uploads: string;

beforeAll(async () => {
  t = await createTestApp();
  const staff = await createStaff(t.ctx, { role: 'admin', name: 'Help Admin' });
  admin = await tokenFor(t.ctx, 'admin', staff.id);
  const member = await createMember(t.ctx, { name: 'Wanjiku Reporter' });
  voterId = member.id;
  voter = await tokenFor(t.ctx, 'voter', member.id);
  uploads = join(t.dataDir, 'uploads');
});
afterAll(async () => {
  await t?.close();
});

const storedFiles = () => (existsSync(uploads) ? readdirSync(uploads).sort() : []);
/** A report as the browser sends it: `details` (another field when none) and files under `images[]` (or another name). */
const report = (token: string | undefined, details?: string, images: FilePart[] = [], field = 'images[]') =>
  apiClient(t.app, token).help.reportIssue({
    body: multipart(details === undefined ? { other: 'x', [field]: images } : { details, [field]: images }),
  });
const png = (filename: string, file: Buffer = PNG): FilePart => ({ file, filename });
/** token null: no session. */
const listIssues = (perPage?: number, token: string | null = admin) =>
  apiClient(t.app, token ?? undefined).help.listIssues({ query: perPage === undefined ? {} : { per_page: perPage } });

describe('report an issue', () => {
  it('stores the report with the reporter and images, and logs it', async () => {
    const res = await report(voter, '  I cannot see my branch ballot  ', [
      { file: PNG, filename: 'screen.png', contentType: 'image/png' },
      { file: WEBP, filename: 'screen2.webp', contentType: 'image/webp' },
    ]);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ message: 'Issue reported successfully' });
    const [row] = await t.ctx.database.db.select().from(issueReports).where(eq(issueReports.reporterId, voterId));
    expect(row).toMatchObject({ details: 'I cannot see my branch ballot', role: 'voter', reporterName: 'Wanjiku Reporter' });
    expect(row!.images).toHaveLength(2);
    expect(row!.images[0]).toMatch(/^[a-f0-9]{32}\.png$/);
    expect(row!.images[1]).toMatch(/^[a-f0-9]{32}\.webp$/);
    expect(storedFiles()).toEqual([...row!.images].sort());
    const [log] = await t.ctx.database.db.select().from(activityLogs).where(eq(activityLogs.activity, 'Issue reported'));
    expect(log).toMatchObject({ name: 'Wanjiku Reporter', userId: voterId, status: 'success', data: '2 images' });
  });

  it('takes a report without images, from any signed-in role, and `images` without brackets', async () => {
    for (const role of ['agent', 'admin'] as const) expect((await report(await tokenFor(t.ctx, role), `from ${role}`)).status).toBe(201);
    const plain = await report(voter, 'plain field name', [png('a.png')], 'images');
    expect(plain.status).toBe(201);
    const [row] = await t.ctx.database.db.select().from(issueReports).where(eq(issueReports.details, 'from agent'));
    expect(row!.role).toBe('agent');
  });

  it('requires details (422) and a multipart body (415)', async () => {
    const missing = await report(voter);
    expect(missing.status).toBe(422);
    expect(bodyOf(missing, 422).errors?.details).toEqual(['The details field is required']);
    const blank = await report(voter, '   ');
    expect(blank.status).toBe(422);
    // Raw on purpose: JSON, which the contract client would never send to this multipart route.
    const json = await request(t.app).post('/api/v1/help').set(bearer(voter)).send({ details: 'json' });
    expect(json.status).toBe(415);
  });

  it('refuses six images, a non-image and an oversize image, keeping nothing', async () => {
    const before = storedFiles();
    const count = await t.ctx.database.db.$count(issueReports);
    const six = await report(
      voter,
      'six',
      Array.from({ length: 6 }, (_, i) => png(`${i}.png`)),
    );
    expect(six.status).toBe(422);
    const html = await report(voter, 'html', [png('ok.png'), png('evil.png', Buffer.from('<html><script>x</script></html>'))]);
    expect(html.status).toBe(415);
    const big = await report(voter, 'big', [png('big.png', Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]))]);
    expect(big.status).toBe(413);
    expect(storedFiles()).toEqual(before);
    expect(await t.ctx.database.db.$count(issueReports)).toBe(count);
  });

  it('needs a session', async () => {
    expect((await report(undefined, 'anon')).status).toBe(401);
  });
});

describe('list issues (admin)', () => {
  it('lists reports newest first with image URLs that serve the images', async () => {
    t.clock.advance(60_000);
    await report(voter, 'the newest one');
    const res = await listIssues(2);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ current_page: 1, per_page: 2, total: 5, last_page: 3 });
    expect(bodyOf(res, 200).data[0]).toEqual({
      id: expect.any(Number),
      details: 'the newest one',
      role: 'voter',
      reporter_id: voterId,
      reporter_name: 'Wanjiku Reporter',
      images: [],
      created_at: expect.any(String),
    });
    const all = bodyOf(await listIssues(100), 200);
    const withImages = all.data.find((r) => r.images.length === 2)!;
    expect(withImages.images[0]).toMatch(/^\/uploads\/[a-f0-9]{32}\.png\?expires=\d+&sig=[\w-]+$/);
    // The image URLs are no contract routes: fetched raw.
    const served = await request(t.app).get(withImages.images[0]!);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    const webp = await request(t.app).get(withImages.images[1]!);
    expect(webp.headers['content-type']).toBe('image/webp');
  });

  it("serves report images only through the admins' signed URLs, never to a shared cache", async () => {
    const all = bodyOf(await listIssues(100), 200);
    const url = all.data.find((r) => r.images.length === 2)!.images[0]!;
    const bare = url.split('?')[0]!;
    const staff = await request(t.app).get(url);
    expect(staff.status).toBe(200);
    expect(staff.headers['content-type']).toBe('image/png');
    expect(staff.headers['cache-control']).toBe('private, no-store');
    for (const token of [undefined, voter, admin]) {
      const req = request(t.app).get(bare);
      const res = await (token ? req.set(bearer(token)) : req);
      expect(res.status).toBe(403);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const forged = url.replace(/sig=[\w-]+/, `sig=${'A'.repeat(43)}`);
    expect((await request(t.app).get(forged)).status).toBe(403);
    const otherImage = url.replace(
      /[a-f0-9]{32}\.png/,
      all.data
        .find((r) => r.images.length === 2)!
        .images[1]!.split('?')[0]!
        .slice(9),
    );
    expect((await request(t.app).get(otherImage)).status).toBe(403);
    const expired = reportImageUrl(
      { ...t.ctx, now: () => new Date(t.ctx.now().getTime() - REPORT_IMAGE_URL_TTL_MS - 1000) },
      bare.slice(9),
    );
    expect((await request(t.app).get(expired)).status).toBe(403);
  });

  it('is for admins only', async () => {
    expect((await listIssues(undefined, null)).status).toBe(401);
    for (const token of [voter, await tokenFor(t.ctx, 'agent')]) expect((await listIssues(undefined, token)).status).toBe(403);
  });
});

describe('a report the database aborted and auditedTransaction ran again', () => {
  it.runIf(databaseKind === 'postgres')("keeps only the saved report's images when a deadlock made the report run twice", async () => {
    const member = await createMember(t.ctx, { name: 'Otieno Retried' });
    const token = await tokenFor(t.ctx, 'voter', member.id);
    // The first insert of this reporter's report is aborted as a deadlock; auditedTransaction runs it again.
    await t.ctx.database.db.execute(sql`create sequence help_retry_attempts`);
    await t.ctx.database.db.execute(sql`create function help_deadlock_once() returns trigger language plpgsql as $$
      begin if nextval('help_retry_attempts') = 1 then raise exception 'forced deadlock' using errcode = '40P01'; end if; return new; end $$`);
    await t.ctx.database.db.execute(
      sql.raw(
        `create trigger help_deadlock_once before insert on issue_reports for each row when (new.details = 'retried report') execute function help_deadlock_once()`,
      ),
    );
    const before = storedFiles();
    const res = await report(token, 'retried report', [{ file: PNG, filename: 'a.png', contentType: 'image/png' }]);
    expect(res.status).toBe(201);
    const [{ n }] = (await t.ctx.database.sql`select last_value::int as n from help_retry_attempts`) as unknown as [{ n: number }];
    expect(n).toBe(2);
    const [row] = await t.ctx.database.db.select().from(issueReports).where(eq(issueReports.details, 'retried report'));
    expect(row!.images).toHaveLength(1);
    // The aborted run's copy is gone: the folder holds what it held plus the saved report's image.
    expect(storedFiles()).toEqual([...before, ...row!.images].sort());
  });
});
