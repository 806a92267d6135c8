import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSED_PER_SUBJECT } from '../../src/lib/activity-log';
import { activityLogs } from '../../src/db/schema';
import { REPORT_STORAGE_FULL, REPORT_STORAGE_PER_ACCOUNT, REPORTS_PER_HOUR, TOO_MANY_REPORTS } from '../../src/modules/help';
import { apiClient, bodyOf, multipart } from '../client';
import { createMember, tokenFor } from '../factories';
import { createTestApp, type TestApp } from '../harness';
import { createElection, createVoter, setVoting, vote } from '../voting/election';

/**
 * Security hardening (quotas): any voter could fill the disk (ten `POST help` with five 5 MiB images
 * each wrote 251 MB in a second) and flood the activity log with refused votes (300 rows in 1.5 s).
 */

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2216bc70000000049454e44ae426082',
  'hex',
);
const MiB = 1024 * 1024;
const image = (bytes: number) => Buffer.concat([PNG, Buffer.alloc(bytes - PNG.length)]);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const report = (token: string, images: Buffer[]) =>
  apiClient(t.app, token).help.reportIssue({
    body: multipart({
      details: 'The ballot page does not load',
      'images[]': images.map((file, i) => ({ file, filename: `s${i}.png`, contentType: 'image/png' })),
    }),
  });
const uploadBytes = () => {
  const dir = join(t.dataDir, 'uploads');
  try {
    return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
  } catch {
    return 0;
  }
};

describe('help reports cannot fill the disk', () => {
  it(`ten parallel reports of five large images keep the account within ${REPORT_STORAGE_PER_ACCOUNT / MiB} MiB and ${REPORTS_PER_HOUR} reports an hour`, async () => {
    const token = await tokenFor(t.ctx, 'voter', (await createMember(t.ctx)).id);
    const before = uploadBytes();
    const big = Array.from({ length: 5 }, () => image(4 * MiB));
    const answers = await Promise.all(Array.from({ length: 10 }, () => report(token, big)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThan(0);
    expect(
      statuses.every((s) => [201, 413, 429].includes(s)),
      statuses.join(','),
    ).toBe(true);
    expect(uploadBytes() - before).toBeLessThanOrEqual(REPORT_STORAGE_PER_ACCOUNT);
    const full = answers.find((r) => r.status === 413);
    expect(full && bodyOf(full, 413).message).toBe(REPORT_STORAGE_FULL);
    // Without images, the member can still report.
    expect((await report(token, [])).status).toBe(201);
  });

  it(`at most ${REPORTS_PER_HOUR} reports an hour per account, with Retry-After; another account is unaffected`, async () => {
    const token = await tokenFor(t.ctx, 'voter', (await createMember(t.ctx)).id);
    for (let i = 0; i < REPORTS_PER_HOUR; i++) expect((await report(token, [image(1024)])).status).toBe(201);
    const refused = await report(token, [image(1024)]);
    expect(refused.status).toBe(429);
    expect(bodyOf(refused, 429).message).toBe(TOO_MANY_REPORTS);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const other = await tokenFor(t.ctx, 'agent');
    expect((await report(other, [image(1024)])).status).toBe(201);
    t.clock.advance(61 * 60_000);
    expect((await report(token, [image(1024)])).status).toBe(201);
  });
});

describe('refused actions cannot flood the activity log', () => {
  it(`60 refused votes write at most ${REFUSED_PER_SUBJECT} rows, the last saying more are not logged`, async () => {
    const e = await createElection(t.ctx);
    await setVoting(t.ctx, false);
    const { member, token } = await createVoter(t.ctx);
    for (let i = 0; i < 60; i++) expect((await vote(t.app, token, { [e.chair.id]: e.alice.id })).status).toBe(403);
    const rows = await t.ctx.database.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.userId, member.id), eq(activityLogs.userType, 'voter')));
    expect(rows.length).toBe(REFUSED_PER_SUBJECT);
    expect(rows.at(-1)!.data).toMatch(/not logged/);
    // A successful action is always logged.
    await setVoting(t.ctx, true);
    expect((await vote(t.app, token, { [e.chair.id]: e.alice.id })).status).toBe(201);
    const after = await t.ctx.database.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.userId, member.id), eq(activityLogs.status, 'success')));
    expect(after.length).toBe(1);
  });
});
