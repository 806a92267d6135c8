import { and, eq, isNull } from 'drizzle-orm';
import type { Express } from 'express';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { activityLogs, otpChallenges } from '../../src/db/schema';
import { openBrowser } from '../auth/browser';
import { apiClient, browserClient } from '../client';
import { startSmtpCapture, type SmtpCapture } from '../auth/smtp-capture';
import { createStaff } from '../factories';
import { createTestApp, type TestApp } from '../harness';

/**
 * Staff e-mail addresses cannot be found by asking. agent/login waited for the mail to go out
 * for a real agent (hundreds of ms with a real relay) and answered a stranger at once, and a
 * failing relay gave only a real agent a 502; admin/login counted wrong passwords (5 × 401, then
 * 429) only for a real admin. Every address now gets the same answer in the same time.
 */

const PASSWORD = 'correct horse battery';
const RELAY_DELAY_MS = 4000;

let t: TestApp;
let smtp: SmtpCapture;
let ip = 0;
const nextIp = () => `10.9.${(++ip >> 8) & 255}.${ip & 255}`;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Kura <codes@kura.test>', TRUST_PROXY_HOPS: '1' } });
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

afterEach(() => smtp.delayReplies(0));

/** agent/login from a fresh browser at a fresh address: the answer and how long it took. */
async function agentLogin(email: string) {
  const browser = browserClient(await openBrowser(t.app));
  const started = performance.now();
  const res = await browser.auth.loginAgent({ body: { email }, extraHeaders: { 'x-forwarded-for': nextIp() } });
  return { res, ms: performance.now() - started, browser };
}

describe('agent/login', () => {
  it('answers a real agent behind a slow relay as fast as an unknown address, with the same status and body', async () => {
    const agent = await createStaff(t.ctx, { role: 'agent' });
    await agentLogin('warm-up@example.org');
    smtp.delayReplies(RELAY_DELAY_MS);
    const since = Date.now();
    const known = await agentLogin(agent.email);
    const unknown = await agentLogin('nobody-at-all@example.org');
    expect(known.res.status).toBe(200);
    expect(unknown.res.status).toBe(known.res.status);
    expect(unknown.res.body).toEqual(known.res.body);
    // Both well under the relay's delay: the mail goes out after the answer.
    expect(known.ms).toBeLessThan(RELAY_DELAY_MS / 2);
    expect(unknown.ms).toBeLessThan(RELAY_DELAY_MS / 2);
    // And it does go out: the agent still signs in with it.
    const code = await smtp.codeSince(agent.email, since);
    const session = await known.browser.auth.verifyAgent({ body: { token: code } });
    expect(session.status, JSON.stringify(session.body)).toBe(200);
  });

  it('answers a real agent the same as an unknown address when the relay refuses the mail, and leaves no usable code', async () => {
    const agent = await createStaff(t.ctx, { role: 'agent' });
    smtp.rejectNext();
    const known = await agentLogin(agent.email);
    const unknown = await agentLogin('nobody-either@example.org');
    expect(known.res.status).toBe(200);
    expect(unknown.res.status).toBe(200);
    expect(known.res.body).toEqual(unknown.res.body);
    // The failure is recorded for the admins, and the code that never arrived is gone.
    await expect
      .poll(
        async () => {
          const rows = await t.ctx.database.db.select().from(activityLogs).where(eq(activityLogs.userId, agent.id));
          return rows.some((r) => r.status === 'failed' && r.data === 'delivery failed');
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    const live = await t.ctx.database.db
      .select()
      .from(otpChallenges)
      .where(
        and(
          eq(otpChallenges.purpose, 'agent'),
          eq(otpChallenges.subjectId, agent.id),
          isNull(otpChallenges.usedAt),
          isNull(otpChallenges.revokedAt),
        ),
      );
    expect(live).toHaveLength(0);
    expect(t.logs.join('\n')).toContain('one-time code not delivered');
  });
});

describe('admin/login', () => {
  /** The same database, relay and clock behind an app whose account ceiling is 2 failures an hour. */
  const CEILING = 2;
  const appWithCeiling = () => createApp({ ...t.ctx, env: { ...t.ctx.env, RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR: CEILING } });

  /** Four wrong passwords from one address: status and message of each. */
  async function wrongPasswords(app: Express, email: string) {
    const from = nextIp();
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await apiClient(app).auth.loginAdmin({
        body: { email, password: `wrong ${i}` },
        extraHeaders: { 'x-forwarded-for': from },
      });
      seen.push(`${res.status} ${(res.body as { message?: string }).message}`);
    }
    return seen;
  }

  it('counts wrong passwords for an unknown address exactly as for a real admin: 429 after the same number of failures', async () => {
    const app = appWithCeiling();
    const admin = await createStaff(t.ctx, { role: 'admin', password: PASSWORD });
    const known = await wrongPasswords(app, admin.email);
    expect(known).toEqual([
      ...Array(CEILING).fill('401 Invalid credentials'),
      '429 Too many failed attempts for this account, please try again later',
      '429 Too many failed attempts for this account, please try again later',
    ]);
    expect(await wrongPasswords(app, 'no-admin-here@example.org')).toEqual(known);
    // An agent's address is not an admin's either.
    const agent = await createStaff(t.ctx, { role: 'agent' });
    expect(await wrongPasswords(app, agent.email)).toEqual(known);
    // Each wrong password costs a slow hash, on a shared test machine.
  }, 120_000);

  it('lets the real admin in from another address while an unknown address is held', async () => {
    const app = appWithCeiling();
    const admin = await createStaff(t.ctx, { role: 'admin', password: PASSWORD });
    await wrongPasswords(app, 'also-nobody@example.org');
    const res = await apiClient(app).auth.loginAdmin({
      body: { email: admin.email, password: PASSWORD },
      extraHeaders: { 'x-forwarded-for': nextIp() },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }, 120_000);
});
