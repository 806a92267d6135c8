import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLogs, sessions, staff } from '../../db/schema';
import { openBrowser } from '../../../test/auth/browser';
import { startSmtpCapture, type SmtpCapture } from '../../../test/auth/smtp-capture';
import { apiClient, bodyOf, browserClient, untyped } from '../../../test/client';
import { createStaff, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { BAD_PASSWORD_LINK, LAST_ADMIN, NOT_YOURSELF, STAFF_EXISTS } from '.';

/**
 * Staff managed from the back office (docs/api.md "Running it on your own"): list, add (an agent
 * signs in at once; an admin sets a password through an e-mailed link), remove (sessions end; never
 * the last admin nor oneself) and one's own display name. A real SMTP server captures the mails.
 */

let t: TestApp;
let smtp: SmtpCapture;
let adminId: number;
let adminToken: string;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Kura <codes@kura.test>' } });
  adminId = (await createStaff(t.ctx, { role: 'admin', name: 'First Admin', email: 'first@example.org' })).id;
  adminToken = await tokenFor(t.ctx, 'admin', adminId);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** The admin's client (the admin changes half-way through the file). */
const admin = () => apiClient(t.app, adminToken);
const anon = () => apiClient(t.app);
const as = (token: string) => apiClient(t.app, token);

/** The newest mail to `to`, its quoted-printable soft breaks undone, once it arrived (sent after the answer). */
async function mailTo(to: string, since: number): Promise<string> {
  const end = Date.now() + 15_000;
  for (;;) {
    const mail = [...smtp.messages].reverse().find((m) => m.at >= since && m.to.includes(to));
    if (mail) return mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    if (Date.now() > end) throw new Error(`no mail to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function lastLog(activity: string) {
  const rows = await t.ctx.database.db.select().from(activityLogs).where(eq(activityLogs.activity, activity));
  return rows.at(-1);
}

describe('GET staff/status', () => {
  it('tells anyone whether an admin exists yet (false on an empty install: src/bootstrap.test.ts)', async () => {
    expect((await anon().staff.getStaffStatus()).body).toEqual({ data: { admin_exists: true } });
  });
});

describe('GET staff', () => {
  it('lists every admin and agent in the Staff shape', async () => {
    const res = await admin().staff.listStaff();
    expect(res.status).toBe(200);
    expect(bodyOf(res, 200).data).toContainEqual({
      id: adminId,
      email: 'first@example.org',
      name: 'First Admin',
      role: 'admin',
      created_at: expect.any(String),
    });
  });
  it('is for admins only', async () => {
    const agent = await tokenFor(t.ctx, 'agent');
    expect((await as(agent).staff.listStaff()).status).toBe(403);
    expect((await anon().staff.listStaff()).status).toBe(401);
  });
});

describe('POST staff', () => {
  it('adds an agent who signs in by e-mailed code at once, and logs it', async () => {
    const res = await admin().staff.createStaff({ body: { email: ' Obs@Example.org ', role: 'agent', name: 'Observer' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(bodyOf(res, 201).data).toMatchObject({ email: 'obs@example.org', role: 'agent', name: 'Observer' });
    const since = Date.now() - 1000;
    const browser = browserClient(await openBrowser(t.app));
    const login = await browser.auth.loginAgent({ body: { email: 'obs@example.org' } });
    expect(login.status).toBe(200);
    const code = await smtp.codeSince('obs@example.org', since);
    const verified = await browser.auth.verifyAgent({ body: { token: code } });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(await lastLog('Staff added')).toMatchObject({
      status: 'success',
      data: 'agent obs@example.org',
      userId: adminId,
      userType: 'admin',
    });
  });

  it('adds an admin who sets a password by the e-mailed link (once), then signs in with it', async () => {
    const since = Date.now();
    const res = await admin().staff.createStaff({ body: { email: 'second@example.org', role: 'admin' } });
    expect(res.status).toBe(201);
    expect(bodyOf(res, 201).data).toMatchObject({ email: 'second@example.org', role: 'admin', name: 'second' });
    const mail = await mailTo('second@example.org', since);
    const token = /\/admin\/set-password#token=([0-9]+\.[0-9]+\.[A-Za-z0-9_-]{43})/.exec(mail)?.[1];
    expect(token, mail).toBeDefined();

    // No password yet: the admin login refuses.
    const before = browserClient(await openBrowser(t.app));
    expect((await before.auth.loginAdmin({ body: { email: 'second@example.org', password: 'a long new password' } })).status).toBe(401);

    const tampered = `${token!.slice(0, -2)}${token!.endsWith('AA') ? 'BB' : 'AA'}`;
    const setPassword = (body: { token: string; password: string }) => anon().staff.setStaffPassword({ body });
    const bad = await setPassword({ token: tampered, password: 'a long new password' });
    expect(bad.status).toBe(422);
    expect(bodyOf(bad, 422).message).toBe(BAD_PASSWORD_LINK);
    const short = await setPassword({ token: token!, password: 'short' });
    expect(short.status).toBe(422);

    const set = await setPassword({ token: token!, password: 'a long new password' });
    expect(set.status, JSON.stringify(set.body)).toBe(204);
    const again = await setPassword({ token: token!, password: 'another long password' });
    expect(again.status).toBe(422);

    const browser = browserClient(await openBrowser(t.app));
    const login = await browser.auth.loginAdmin({ body: { email: 'second@example.org', password: 'a long new password' } });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(await lastLog('Admin password set by e-mailed link')).toMatchObject({ status: 'failed' });
    const rows = await t.ctx.database.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.activity, 'Admin password set by e-mailed link'), eq(activityLogs.status, 'success')));
    expect(rows).toHaveLength(1);
  });

  it('refuses a duplicate e-mail (409), bad input (422, never 500)', async () => {
    await createStaff(t.ctx, { role: 'agent', email: 'dup@example.org' });
    const dup = await admin().staff.createStaff({ body: { email: 'DUP@example.org', role: 'admin' } });
    expect(dup.status).toBe(409);
    expect(bodyOf(dup, 409).message).toBe(STAFF_EXISTS);
    expect(await lastLog('Staff added')).toMatchObject({ status: 'failed' });
    for (const body of [
      {},
      { email: 'x@example.org', role: 'voter' },
      { email: 'not-an-email', role: 'agent' },
      { email: 'y@example.org', role: 'agent', name: '' },
    ]) {
      const res = await admin().staff.createStaff({ body: untyped(body) });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(bodyOf(res, 422).message).toEqual(expect.any(String));
    }
    const agent = await tokenFor(t.ctx, 'agent');
    expect((await as(agent).staff.createStaff({ body: { email: 'z@example.org', role: 'agent' } })).status).toBe(403);
  });
});

describe('DELETE staff/{id}', () => {
  it('removes an agent and ends their sessions', async () => {
    const agent = await createStaff(t.ctx, { role: 'agent' });
    const token = await tokenFor(t.ctx, 'agent', agent.id);
    expect((await as(token).auth.validateStaff()).status).toBe(200);
    const res = await admin().staff.deleteStaff({ params: { id: agent.id } });
    expect(res.status).toBe(204);
    expect((await as(token).auth.validateStaff()).status).toBe(401);
    expect(await t.ctx.database.db.select().from(sessions).where(eq(sessions.subjectId, agent.id))).toEqual([]);
    expect(await t.ctx.database.db.select().from(staff).where(eq(staff.id, agent.id))).toEqual([]);
    expect(await lastLog('Staff removed')).toMatchObject({ status: 'success', data: `agent ${agent.email}` });
    expect((await admin().staff.deleteStaff({ params: { id: agent.id } })).status).toBe(404);
  });

  it('never removes oneself nor the last admin (409)', async () => {
    const self = await admin().staff.deleteStaff({ params: { id: adminId } });
    expect(self.status).toBe(409);
    expect(bodyOf(self, 409).message).toBe(NOT_YOURSELF);
    // Another admin removes every other admin; the last one left cannot go.
    const other = await createStaff(t.ctx, { role: 'admin' });
    const otherToken = await tokenFor(t.ctx, 'admin', other.id);
    const admins = await t.ctx.database.db.select().from(staff).where(eq(staff.role, 'admin'));
    for (const a of admins) {
      if (a.id !== adminId && a.id !== other.id) expect((await admin().staff.deleteStaff({ params: { id: a.id } })).status).toBe(204);
    }
    expect((await as(otherToken).staff.deleteStaff({ params: { id: adminId } })).status).toBe(204);
    // `other` is now the only admin: a fresh admin's session cannot exist, so check the rule itself
    // through a stale session of the removed admin (401) and the last-admin refusal by the service.
    expect((await admin().staff.listStaff()).status).toBe(401);
    const { deleteStaff } = await import('./staff.service');
    await expect(deleteStaff({ ...t.ctx }, { role: 'admin', id: 999999, name: 'someone', ip: '' }, other.id)).rejects.toMatchObject({
      status: 409,
      message: LAST_ADMIN,
    });
    const left = await t.ctx.database.db.select().from(staff).where(eq(staff.role, 'admin'));
    expect(left.map((a) => a.id)).toEqual([other.id]);
    // The rest of this file signs in as `other`.
    adminId = other.id;
    adminToken = otherToken;
  });

  it('answers 404 for an unknown id and 404 for one that is no id', async () => {
    expect((await admin().staff.deleteStaff({ params: { id: 999999 } })).status).toBe(404);
    expect((await admin().staff.deleteStaff({ params: { id: untyped('abc') } })).status).toBeGreaterThanOrEqual(400);
  });
});

describe('PATCH staff/me', () => {
  it('sets the caller’s own display name, admin or agent, and logs it', async () => {
    const agent = await createStaff(t.ctx, { role: 'agent' });
    const token = await tokenFor(t.ctx, 'agent', agent.id);
    const res = await as(token).staff.updateOwnStaff({ body: { name: '  Wanjiru K. ' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(bodyOf(res, 200).data).toMatchObject({ id: agent.id, name: 'Wanjiru K.', role: 'agent' });
    const mine = await admin().staff.updateOwnStaff({ body: { name: 'Returning Officer' } });
    expect(bodyOf(mine, 200).data).toMatchObject({ id: adminId, name: 'Returning Officer', role: 'admin' });
    expect(await lastLog('Staff display name changed')).toMatchObject({ status: 'success', data: 'Returning Officer', userId: adminId });
    expect((await admin().staff.updateOwnStaff({ body: { name: ' ' } })).status).toBe(422);
    expect((await admin().staff.updateOwnStaff({ body: { name: 'x'.repeat(101) } })).status).toBe(422);
    const voter = await tokenFor(t.ctx, 'voter');
    expect((await as(voter).staff.updateOwnStaff({ body: { name: 'Me' } })).status).toBe(403);
  });
});
