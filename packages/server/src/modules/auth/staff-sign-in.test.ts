import { and, eq, isNull } from 'drizzle-orm';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../app';
import { activityLogs, otpChallenges, staff } from '../../db/schema';
import { openTypedBrowser, type TypedBrowser } from '../../../test/auth/browser';
import { createGoogleSigner, signedInWhileLinked, TEST_GOOGLE_CLIENT_ID, type GoogleSigner } from '../../../test/auth/google-signer';
import { startSmsSink, type SmsSink } from '../../../test/auth/sms-sink';
import { startSmtpCapture, type SmtpCapture } from '../../../test/auth/smtp-capture';
import { wrongCode } from '../../../test/auth/guessing';
import { apiClient, bodyOf, withCookies } from '../../../test/client';
import { createMember, createStaff, tokenFor } from '../../../test/factories';
import { createTestApp, databaseKind, type TestApp } from '../../../test/harness';

/**
 * Admin and agent sign-in end to end over HTTP, with a real SMTP server capturing the codes;
 * plus the rate limits every sign-in shares.
 */

let t: TestApp;
let smtp: SmtpCapture;
let sms: SmsSink;
let google: GoogleSigner;
const secrets: string[] = [];

const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  [smtp, sms, google] = await Promise.all([startSmtpCapture(), startSmsSink(), createGoogleSigner()]);
  t = await createTestApp({
    env: {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Kura <codes@kura.test>',
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: sms.url,
      GOOGLE_CLIENT_ID: TEST_GOOGLE_CLIENT_ID,
    },
  });
  t.ctx.google.certs = google.certs;
});

afterAll(async () => {
  await t?.close();
  await Promise.all([smtp?.close(), sms?.close()]);
});

/** A client without a session, and one with the given bearer token. */
const anon = (app: Express = t.app) => apiClient(app);
const as = (token: string) => apiClient(t.app, token);

/** A fresh browser as typed clients (test/auth/browser.ts). */
const browserOn = (app: Express = t.app) => openTypedBrowser(app);
type BrowserApi = TypedBrowser;

function session(res: { status: number; body: unknown }): string {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ bearer_token: expect.any(String), hash: expect.any(String), balance: 0 });
  const token = (res.body as { bearer_token: string }).bearer_token;
  secrets.push(token);
  return token;
}

/** The code in the newest mail to `to`; agents' codes go out after the answer, so it may wait for one. */
async function mailedCode(to: string): Promise<string> {
  const code = await smtp.codeSince(to, 0);
  secrets.push(code);
  return code;
}

describe('admin sign-in (admin/login, verify/admin)', () => {
  it('checks the password, emails a code, and answers a session for it', async () => {
    const admin = await createStaff(t.ctx, { role: 'admin', password: PASSWORD, name: 'Ada Admin' });
    const browser = await browserOn();
    const login = await browser.auth.loginAdmin({ body: { email: admin.email.toUpperCase(), password: PASSWORD } });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(login.body).toEqual({ message: 'A security code has been sent to your email' });
    const mail = smtp.messages.at(-1)!;
    expect(mail.to).toEqual([admin.email]);
    expect(mail.from).toBe('codes@kura.test');
    const code = await mailedCode(admin.email);

    const noCsrf = await browser.withoutCsrf.auth.verifyAdmin({ body: { token: code } });
    expect(noCsrf.status).toBe(419);

    const wrong = await browser.auth.verifyAdmin({ body: { token: wrongCode(code) } });
    expect(wrong.status).toBe(401);

    const token = session(await browser.auth.verifyAdmin({ body: { token: code } }));
    const validate = await as(token).auth.validateStaff();
    expect(validate.body).toEqual({ user_type: 'admin', data: { name: 'Ada Admin' } });
    // Staff token on a voter route: 403.
    expect((await as(token).auth.validateVoter()).status).toBe(403);

    expect((await as(token).auth.logout()).status).toBe(204);
    const after = await as(token).auth.validateStaff();
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: 'Unauthenticated' });
  });

  it('answers 401 Invalid credentials for a wrong password or an unknown email, and sends nothing', async () => {
    const admin = await createStaff(t.ctx, { role: 'admin', password: PASSWORD });
    const agent = await createStaff(t.ctx, { role: 'agent' });
    const before = smtp.messages.length;
    const browser = await browserOn();
    // Each answer costs one slow hash, a real admin's or the stand-in's, so its time says nothing of who exists.
    const checks = vi.spyOn(t.ctx.passwords, 'verify');
    const standIn = vi.spyOn(t.ctx.passwords, 'verifyNone');
    try {
      for (const [body, checked] of [
        [{ email: admin.email, password: 'not-the-password-1' }, 'verify'],
        [{ email: 'nobody@example.org', password: PASSWORD }, 'verifyNone'],
        [{ email: agent.email, password: PASSWORD }, 'verifyNone'],
      ] as const) {
        checks.mockClear();
        standIn.mockClear();
        const res = await browser.auth.loginAdmin({ body });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ message: 'Invalid credentials' });
        expect({ verify: checks.mock.calls.length, verifyNone: standIn.mock.calls.length }).toEqual({
          verify: checked === 'verify' ? 1 : 0,
          verifyNone: checked === 'verifyNone' ? 1 : 0,
        });
      }
    } finally {
      checks.mockRestore();
      standIn.mockRestore();
    }
    expect(smtp.messages.length).toBe(before);
    const rows = await t.ctx.database.db.select().from(activityLogs).where(eq(activityLogs.userId, admin.id));
    expect(rows.some((r) => r.activity === 'Admin sign-in: password check' && r.status === 'failed')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain('not-the-password');
  });

  it('answers 502 when the mail server refuses the code, and leaves no usable code', async () => {
    const admin = await createStaff(t.ctx, { role: 'admin', password: PASSWORD });
    const browser = await browserOn();
    smtp.rejectNext();
    const res = await browser.auth.loginAdmin({ body: { email: admin.email, password: PASSWORD } });
    expect(res.status).toBe(502);
    expect(bodyOf(res, 502).message).toBe('Could not send the security code by email, please try again');
    const live = await t.ctx.database.db
      .select()
      .from(otpChallenges)
      .where(
        and(
          eq(otpChallenges.purpose, 'admin'),
          eq(otpChallenges.subjectId, admin.id),
          isNull(otpChallenges.usedAt),
          isNull(otpChallenges.revokedAt),
        ),
      );
    expect(live).toHaveLength(0);
  });
});

describe('agent sign-in (agent/login, verify/agent)', () => {
  it('emails a code to an agent and answers a session for it', async () => {
    const agent = await createStaff(t.ctx, { role: 'agent', name: 'Otieno Agent' });
    const browser = await browserOn();
    const login = await browser.auth.loginAgent({ body: { email: agent.email } });
    expect(login.status).toBe(200);
    const code = await mailedCode(agent.email);
    const token = session(await browser.auth.verifyAgent({ body: { token: code } }));
    expect((await as(token).auth.validateStaff()).body).toEqual({
      user_type: 'agent',
      data: { name: 'Otieno Agent' },
    });
    // An agent is not an admin.
    expect((await as(token).members.listMembers()).status).toBe(403);
  });

  it('answers the same for an unknown email, sends nothing, and no code completes it', async () => {
    const agent = await createStaff(t.ctx, { role: 'agent' });
    const known = await (await browserOn()).auth.loginAgent({ body: { email: agent.email } });
    // The agent's mail goes out after the answer: count from when it has arrived.
    secrets.push(await mailedCode(agent.email));
    const before = smtp.messages.length;
    const browser = await browserOn();
    const unknown = await browser.auth.loginAgent({ body: { email: 'stranger@example.org' } });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(unknown.headers.getSetCookie().some((c) => c.startsWith('kura_pending_agent='))).toBe(true);
    expect(smtp.messages.length).toBe(before);
    const verify = await browser.auth.verifyAgent({ body: { token: '123456' } });
    expect(verify.status).toBe(401);
    expect(bodyOf(verify, 401).message).toBe('The code is incorrect, please try again');
  });

  it('gives an unknown email and an agent pending cookies alike: one length, no id, no JSON; an altered one is refused', async () => {
    const agent = await createStaff(t.ctx, { role: 'agent' });
    const pendingOf = (res: { status: number; headers: Headers }) => {
      expect(res.status).toBe(200);
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith('kura_pending_agent='))!;
      return decodeURIComponent(cookie.split(';')[0]!.slice('kura_pending_agent='.length));
    };
    const knownBrowser = await browserOn();
    const known = pendingOf(await knownBrowser.auth.loginAgent({ body: { email: agent.email } }));
    const unknown = pendingOf(await (await browserOn()).auth.loginAgent({ body: { email: 'nobody-here@example.org' } }));
    expect(known).toMatch(/^[\w-]+$/);
    expect(unknown.length).toBe(known.length);
    for (const value of [known, unknown]) {
      const decoded = Buffer.from(value, 'base64url').toString('latin1');
      for (const text of [value, decoded]) {
        expect(text).not.toContain('subjectId');
        expect(text).not.toContain('"kind"');
        expect(text).not.toContain('"role"');
        expect(text).not.toContain(`:${agent.id},`);
      }
    }
    // One byte of the sealed value changed: no pending sign-in, as for a forged cookie.
    const bytes = Buffer.from(known, 'base64url');
    bytes[20] = bytes[20]! ^ 1;
    const altered = await anon().auth.verifyAgent({
      body: { token: await mailedCode(agent.email) },
      extraHeaders: withCookies(`kura_pending_agent=${bytes.toString('base64url')}`, knownBrowser.xsrf),
    });
    expect(altered.status).toBe(401);
    expect(bodyOf(altered, 401).message).toBe('Your sign-in has expired, please start again');
  });

  it('answers wrong, then too many tries, then expired, alike for an agent and an unknown email', async () => {
    const agent = await createStaff(t.ctx, { role: 'agent' });
    const knownBrowser = await browserOn();
    expect((await knownBrowser.auth.loginAgent({ body: { email: agent.email } })).status).toBe(200);
    const wrong = wrongCode(await mailedCode(agent.email));
    const unknownBrowser = await browserOn();
    expect((await unknownBrowser.auth.loginAgent({ body: { email: 'not-an-agent@example.org' } })).status).toBe(200);
    const answers = async (browser: BrowserApi) => {
      const seen: string[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await browser.auth.verifyAgent({ body: { token: wrong } });
        seen.push(`${res.status} ${(res.body as { message?: string }).message}`);
      }
      return seen;
    };
    const known = await answers(knownBrowser);
    expect(known.slice(3)).toEqual([
      '401 The code is incorrect, please try again',
      '401 Too many wrong codes, please request a new one',
      '401 The code has expired or was already used, please request a new one',
    ]);
    expect(await answers(unknownBrowser)).toEqual(known);
  });

  it('does not let an admin-pending cookie finish an agent sign-in', async () => {
    const admin = await createStaff(t.ctx, { role: 'admin', password: PASSWORD });
    const browser = await browserOn();
    expect((await browser.auth.loginAdmin({ body: { email: admin.email, password: PASSWORD } })).status).toBe(200);
    const code = await mailedCode(admin.email);
    const crossed = await browser.auth.verifyAgent({ body: { token: code } });
    expect(crossed.status).toBe(401);
  });
});

describe('staff Google sign-in', () => {
  it('signs in an admin and an agent by their Google accounts, each only on its own route', async () => {
    const admin = await createStaff(t.ctx, { role: 'admin', email: 'boss@example.org', name: 'Boss' });
    const agent = await createStaff(t.ctx, { role: 'agent', email: 'watcher@example.org', name: 'Watcher' });
    const adminToken = await google.idToken({ email: admin.email });
    const agentToken = await google.idToken({ email: agent.email });

    const a = session(await anon().auth.loginAdminGoogle({ body: { email: admin.email, oauth_id_token: adminToken } }));
    expect(bodyOf(await as(a).auth.validateStaff(), 200).user_type).toBe('admin');
    const g = session(await anon().auth.loginAgentGoogle({ body: { email: agent.email, oauth_id_token: agentToken } }));
    expect(bodyOf(await as(g).auth.validateStaff(), 200).user_type).toBe('agent');

    // A fresh token: each is accepted once (the reused one is refused, 401).
    const crossed = await anon().auth.loginAdminGoogle({
      body: { email: agent.email, oauth_id_token: await google.idToken({ email: agent.email }) },
    });
    expect(crossed.status).toBe(403);
    const replayed = await anon().auth.loginAgentGoogle({ body: { email: agent.email, oauth_id_token: agentToken } });
    expect(replayed.status).toBe(401);
    const wrongAudience = await anon().auth.loginAdminGoogle({
      body: { email: admin.email, oauth_id_token: await google.idToken({ email: admin.email, audience: 'other-app' }) },
    });
    expect(wrongAudience.status).toBe(401);
    const unverified = await anon().auth.loginAgentGoogle({
      body: { email: agent.email, oauth_id_token: await google.idToken({ email: agent.email, emailVerified: false }) },
    });
    expect(unverified.status).toBe(401);
  });
});

describe('rate limits', () => {
  /** The same database and clock behind an app with other limits. */
  const appWith = (env: Partial<TestApp['ctx']['env']>) => createApp({ ...t.ctx, env: { ...t.ctx.env, ...env } });

  it('caps sends per IP with 429 and Retry-After', async () => {
    const app = appWith({ RATE_LIMIT_IP_SENDS_PER_HOUR: 2 });
    const browser = await browserOn(app);
    for (let i = 0; i < 2; i++) expect((await browser.auth.loginAgent({ body: { email: `nobody${i}@example.org` } })).status).toBe(200);
    const third = await browser.auth.loginAgent({ body: { email: 'nobody3@example.org' } });
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(60);
    expect(bodyOf(third, 429).message).toBe('Too many attempts from this network, please try again later');
  });

  it('caps failed tries per IP with 429 and Retry-After', async () => {
    const app = appWith({ RATE_LIMIT_IP_TRIES_PER_HOUR: 2 });
    const admin = await createStaff(t.ctx, { role: 'admin', password: PASSWORD });
    const browser = await browserOn(app);
    for (let i = 0; i < 2; i++) {
      expect((await browser.auth.loginAdmin({ body: { email: admin.email, password: `wrong ${i}` } })).status).toBe(401);
    }
    const third = await browser.auth.loginAdmin({ body: { email: admin.email, password: PASSWORD } });
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('caps password failures per admin across addresses at ten times the per-address ceiling, until the hour has passed', async () => {
    const app = appWith({ RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR: 2, TRUST_PROXY_HOPS: 1 });
    const admin = await createStaff(t.ctx, { role: 'admin', password: PASSWORD });
    const from = (ip: string, password: string) =>
      anon(app).auth.loginAdmin({ body: { email: admin.email, password }, extraHeaders: { 'x-forwarded-for': ip } });
    for (let i = 1; i <= 20; i++) expect((await from(`198.51.100.${i}`, 'guess')).status).toBe(401);
    const locked = await from('203.0.113.9', PASSWORD);
    expect(locked.status).toBe(429);
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3000 - 60);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    const ips = await t.ctx.database.db.select({ ip: activityLogs.ipAddress }).from(activityLogs).where(eq(activityLogs.userId, admin.id));
    expect(new Set(ips.map((r) => r.ip)).size).toBeGreaterThanOrEqual(3);

    t.clock.advance(60 * 60_000 + 1000);
    expect((await from('203.0.113.9', PASSWORD)).status).toBe(200);
    secrets.push(await mailedCode(admin.email));
  });

  it('counts wrong SMS codes against the member account too', async () => {
    const app = appWith({ RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR: 3 });
    const member = await createMember(t.ctx);
    const browser = await browserOn(app);
    expect((await browser.auth.verifyPhone({ body: { unique_id: member.memberNo, consent: true } })).status).toBe(200);
    const code = sms.codeFor(member.phone);
    secrets.push(code);
    for (let i = 0; i < 3; i++) expect((await browser.auth.verifySms({ body: { token: wrongCode(code) } })).status).toBe(401);
    const locked = await browser.auth.verifySms({ body: { token: code } });
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).not.toBeNull();
  });
});

describe('logs', () => {
  it('never writes a code or a bearer token to the log', () => {
    expect(secrets.length).toBeGreaterThan(5);
    const log = t.logs.join('\n');
    for (const secret of secrets) expect(log).not.toContain(secret);
  });

  it('a voter token cannot reach staff routes', async () => {
    const token = await tokenFor(t.ctx, 'voter');
    expect((await as(token).auth.validateStaff()).status).toBe(403);
  });
});

describe.skipIf(databaseKind !== 'postgres')('staff Google sign-in judges the link as its update finds it (two sessions)', () => {
  it('a first Google sign-in that waited while another Google account was linked is refused, and that link stays', async () => {
    const admin = await createStaff(t.ctx, { role: 'admin', email: 'linked.meanwhile@example.org' });
    const idToken = await google.idToken({ email: admin.email });
    const res = await signedInWhileLinked(t.ctx.database.sql, 'staff', admin.id, () =>
      anon().auth.loginAdminGoogle({ body: { email: admin.email, oauth_id_token: idToken } }),
    );
    expect(res.status).toBe(403);
    expect(bodyOf(res, 403).message).toBe('This account is linked to a different Google account');
    const [row] = await t.ctx.database.db.select({ googleSub: staff.googleSub }).from(staff).where(eq(staff.id, admin.id));
    expect(row!.googleSub).toBe('linked-meanwhile');
  });
});
