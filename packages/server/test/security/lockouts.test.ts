import { and, eq } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
const FREE_FAILURES = 5;
const TOO_MANY_FAILURES = 'Too many failed attempts for this account, please try again later';
const delayAfter = (n: number) => (n < 5 ? 0 : Math.min(600000, 1000 * 2 ** (n - 5)));
import {} from '../../src/auth/account-limits';
import { createApp } from '../../src/app';
import { totpTokenAt } from '../../src/auth/totp';
import { otpChallenges } from '../../src/db/schema';
import { openBrowser } from '../auth/browser';
import { API, guessingSetup, wrongCode } from '../auth/guessing';
import { bearer, createMember, createStaff, tokenFor } from '../factories';

/**
 * Security hardening: a stranger knowing only a member number (and the public default pin) sent
 * 100 wrong pins to `sign-pass` and locked the member out of every sign-in for an hour; the same
 * worked on an admin with wrong passwords. Failures now count per (account, method), only where
 * the method exists, with growing delays; the admin's password counts per address first.
 */

const g = guessingSetup();
const { nextIp, requestCode } = g;

const wrongPin = (i: number) => String(90000 + i);

/** sign-pass from a fresh browser (it needs the CSRF cookie) at a new address. */
async function signPass(memberNo: string, pass: string) {
  const browser = await openBrowser(g.t.app);
  return browser.post(`${API}/sign-pass`, { pfNumber: memberNo, pass }).set('X-Forwarded-For', nextIp());
}

async function enrolAuthenticator(member: { id: number; memberNo: string }) {
  const voterToken = await tokenFor(g.t.ctx, 'voter', member.id);
  const qr = await request(g.t.app).post(`${API}/send-qr`).set(bearer(voterToken)).send({ pfNumber: member.memberNo });
  expect(qr.status).toBe(200);
  const secret = qr.body.secret as string;
  const enrol = await request(g.t.app)
    .post(`${API}/verify-token`)
    .set(bearer(voterToken))
    .send({ pfNumber: member.memberNo, token: totpTokenAt(secret, g.t.clock.now()) });
  expect(enrol.status, JSON.stringify(enrol.body)).toBe(200);
  return secret;
}

describe('a stranger cannot lock a member out', () => {
  it('100 wrong pins for a member without an authenticator count for nothing: the SMS code still signs in', async () => {
    const member = await createMember(g.t.ctx);
    const statuses = new Set<number>();
    for (let i = 0; i < 100; i++) {
      const res = await signPass(member.memberNo, wrongPin(i));
      statuses.add(res.status);
    }
    expect([...statuses]).toEqual([403]);
    const browser = await openBrowser(g.t.app);
    const code = await requestCode(browser, member);
    const res = await browser.post(`${API}/verify/sms`, { token: code }).set('X-Forwarded-For', nextIp());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.bearer_token).toBeTruthy();
  });

  it('sign-pass is no oracle for the pin of a member without an authenticator: a wrong, the default and their own pin answer alike', async () => {
    const member = await createMember(g.t.ctx);
    const voterToken = await tokenFor(g.t.ctx, 'voter', member.id);
    const ownPin = '8642';
    const changed = await request(g.t.app)
      .put(`${API}/psk/pin`)
      .set(bearer(voterToken))
      .send({ current_pin: g.t.ctx.env.DEFAULT_PIN, new_pin: ownPin });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const answers = [];
    for (const pass of [wrongPin(1), g.t.ctx.env.DEFAULT_PIN, ownPin, wrongPin(2)]) {
      const res = await signPass(member.memberNo, pass);
      answers.push({ status: res.status, body: res.body as unknown, cookies: res.headers['set-cookie'] === undefined });
    }
    expect(answers[0]).toEqual({
      status: 403,
      body: {
        message: 'Set up an authenticator app first: sign in with an SMS code, then scan the QR code',
        issue: 'Set up an authenticator app first: sign in with an SMS code, then scan the QR code',
      },
      cookies: true,
    });
    for (const answer of answers) expect(answer).toEqual(answers[0]);
  });

  it('pin and token failures up to the ceiling on a member with an authenticator leave the SMS code alone', async () => {
    const member = await createMember(g.t.ctx);
    await enrolAuthenticator(member);
    g.t.clock.advance(31_000);
    const ceiling = g.t.ctx.env.RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR;
    let counted = 0;
    for (let i = 0; counted < ceiling && i < ceiling * 3; i++) {
      const res = await signPass(member.memberNo, wrongPin(i));
      if (res.status === 401) counted++;
      else if (res.body.message === TOO_MANY_FAILURES) break;
      else {
        expect(res.status).toBe(429);
        g.t.clock.advance(Number(res.headers['retry-after']) * 1000);
      }
    }
    expect(counted).toBe(ceiling);
    // The pin method is now stopped, the right pin included...
    const pin = await signPass(member.memberNo, g.t.ctx.env.DEFAULT_PIN);
    expect(pin.status).toBe(429);
    // ...but the code texted to the member's own phone is another method.
    g.t.clock.advance(61_000);
    const browser = await openBrowser(g.t.app);
    const code = await requestCode(browser, member);
    const res = await browser.post(`${API}/verify/sms`, { token: code }).set('X-Forwarded-For', nextIp());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('100 wrong SMS codes (the code ceiling) do not block the pin + authenticator sign-in', async () => {
    const member = await createMember(g.t.ctx);
    const secret = await enrolAuthenticator(member);
    const browser = await openBrowser(g.t.app);
    for (let round = 0; round < 20; round++) {
      g.t.clock.advance(61_000);
      const code = await requestCode(browser, member);
      for (let i = 0; i < 5; i++)
        expect((await browser.post(`${API}/verify/sms`, { token: wrongCode(code) }).set('X-Forwarded-For', nextIp())).status).toBe(401);
    }
    g.t.clock.advance(31_000);
    const pinBrowser = await openBrowser(g.t.app);
    const pin = await pinBrowser
      .post(`${API}/sign-pass`, { pass: g.t.ctx.env.DEFAULT_PIN, pfNumber: member.memberNo })
      .set('X-Forwarded-For', nextIp());
    expect(pin.status, JSON.stringify(pin.body)).toBe(200);
    const res = await pinBrowser.post(`${API}/verify-token-login`, {
      token: totpTokenAt(secret, g.t.clock.now()),
      pfNumber: member.memberNo,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

describe('guessing meets growing delays', () => {
  it(`${FREE_FAILURES} free failures, then each attempt waits twice as long, and the right pin waits too`, async () => {
    const member = await createMember(g.t.ctx);
    await enrolAuthenticator(member);
    const pin = (pass: string) => signPass(member.memberNo, pass);
    for (let i = 0; i < FREE_FAILURES; i++) expect((await pin(wrongPin(i))).status).toBe(401);
    for (let n = FREE_FAILURES; n < FREE_FAILURES + 4; n++) {
      const early = await pin(g.t.ctx.env.DEFAULT_PIN);
      expect(early.status).toBe(429);
      expect(Number(early.headers['retry-after'])).toBe(Math.ceil(delayAfter(n) / 1000));
      g.t.clock.advance(delayAfter(n));
      expect((await pin(wrongPin(n))).status).toBe(401);
    }
    g.t.clock.advance(delayAfter(FREE_FAILURES + 4));
    expect((await pin(g.t.ctx.env.DEFAULT_PIN)).status).toBe(200);
    // a success clears the failures
    for (let i = 0; i < FREE_FAILURES; i++) expect((await pin(wrongPin(i))).status).toBe(401);
  });

  it('a burst of parallel guesses cannot slip under the limit: at most the free ones are checked', async () => {
    const member = await createMember(g.t.ctx);
    await enrolAuthenticator(member);
    const browsers = await Promise.all(Array.from({ length: 30 }, () => openBrowser(g.t.app)));
    const answers = await Promise.all(
      browsers.map((b, i) => b.post(`${API}/sign-pass`, { pfNumber: member.memberNo, pass: wrongPin(i) }).set('X-Forwarded-For', nextIp())),
    );
    const checked = answers.filter((r) => r.status === 401).length;
    expect(answers.filter((r) => r.status === 429).length).toBe(30 - checked);
    expect(checked).toBeLessThanOrEqual(FREE_FAILURES);
    // the refused ones were not counted: once the delay is over, the member's right pin passes
    g.t.clock.advance(delayAfter(checked));
    expect((await signPass(member.memberNo, g.t.ctx.env.DEFAULT_PIN)).status).toBe(200);
  });
});

describe("an account's one-time code failures", () => {
  const ceiling = 3;
  const withCeiling = () => createApp({ ...g.t.ctx, env: { ...g.t.ctx.env, RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR: ceiling } });

  it('a burst of parallel wrong codes cannot slip past the ceiling: the refused ones never reach the code', async () => {
    const app = withCeiling();
    const member = await createMember(g.t.ctx);
    const browser = await openBrowser(app);
    const code = await requestCode(browser, member);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => browser.post(`${API}/verify/sms`, { token: wrongCode(code) }).set('X-Forwarded-For', nextIp())),
    );
    const checked = answers.filter((r) => r.status === 401).length;
    expect(checked).toBeLessThanOrEqual(ceiling);
    expect(answers.filter((r) => r.status === 429 && r.body.message === TOO_MANY_FAILURES).length).toBe(12 - checked);
    const [challenge] = await g.t.ctx.database.db
      .select({ tries: otpChallenges.tries })
      .from(otpChallenges)
      .where(and(eq(otpChallenges.purpose, 'voter'), eq(otpChallenges.subjectId, member.id)));
    expect(challenge!.tries).toBe(checked);
  });

  it("a right code clears the account's code failures, so the ceiling counts from there", async () => {
    const app = withCeiling();
    const member = await createMember(g.t.ctx);
    const browser = await openBrowser(app);
    const verify = (token: string) => browser.post(`${API}/verify/sms`, { token }).set('X-Forwarded-For', nextIp());
    const code = await requestCode(browser, member);
    for (let i = 0; i < ceiling - 1; i++) expect((await verify(wrongCode(code))).status).toBe(401);
    expect((await verify(code)).status).toBe(200);
    g.t.clock.advance(61_000);
    const next = await requestCode(browser, member);
    // Uncleared, the earlier failures would refuse the second of these.
    for (let i = 0; i < ceiling; i++) expect((await verify(wrongCode(next))).status).toBe(401);
    const stopped = await verify(next);
    expect(stopped.status).toBe(429);
    expect(stopped.body.message).toBe(TOO_MANY_FAILURES);
  });
});

describe('the admin password', () => {
  it('a stranger at one address meets delays and the ceiling; the admin at another signs in at once', async () => {
    const app = createApp({ ...g.t.ctx, env: { ...g.t.ctx.env, RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR: 8 } });
    const admin = await createStaff(g.t.ctx, { role: 'admin', password: 'correct horse battery' });
    const stranger = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await request(app)
        .post(`${API}/admin/login`)
        .set('X-Forwarded-For', stranger)
        .send({ email: admin.email, password: `guess-${i}` });
      statuses.push(res.status);
      if (res.status === 429 && res.body.message === TOO_MANY_FAILURES) break;
      if (res.status === 429) g.t.clock.advance(Number(res.headers['retry-after']) * 1000);
    }
    expect(statuses.filter((s) => s === 401).length).toBe(8);
    const blocked = await request(app)
      .post(`${API}/admin/login`)
      .set('X-Forwarded-For', stranger)
      .send({ email: admin.email, password: 'correct horse battery' });
    expect(blocked.status).toBe(429);
    const own = await request(app)
      .post(`${API}/admin/login`)
      .set('X-Forwarded-For', nextIp())
      .send({ email: admin.email, password: 'correct horse battery' });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
  });

  it('guessing from many addresses still meets the global ceiling, the right password included', async () => {
    const app = createApp({ ...g.t.ctx, env: { ...g.t.ctx.env, RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR: 2 } });
    const admin = await createStaff(g.t.ctx, { role: 'admin', password: 'correct horse battery' });
    for (let i = 0; i < 20; i++) {
      const res = await request(app)
        .post(`${API}/admin/login`)
        .set('X-Forwarded-For', nextIp())
        .send({ email: admin.email, password: `guess-${i}` });
      expect(res.status).toBe(401);
    }
    const res = await request(app)
      .post(`${API}/admin/login`)
      .set('X-Forwarded-For', nextIp())
      .send({ email: admin.email, password: 'correct horse battery' });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});
