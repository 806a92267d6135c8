import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { totpTokenAt } from '../../src/auth/totp';
import { openBrowser } from '../auth/browser';
import { API, guessingSetup, wrongCode } from '../auth/guessing';
import { bearer, createMember, createStaff, tokenFor } from '../factories';

/**
 * Brute force and enumeration: one-time codes die after 5 wrong tries; an account's codes take at
 * most RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR (100) failures an hour however many addresses the guesses
 * come from (the other methods: lockouts.test.ts) (X-Forwarded-For is believed only through TRUST_PROXY_HOPS proxies); sign-in and the
 * details lookup tell nothing beyond docs/api.md "Rules the server enforces"; an authenticator token cannot be replayed.
 */

const g = guessingSetup();
const { nextIp, requestCode } = g;

describe('one-time code guessing', () => {
  it('kills a code after 5 wrong tries, even when each try comes from a new address', async () => {
    const member = await createMember(g.t.ctx);
    const browser = await openBrowser(g.t.app);
    const code = await requestCode(browser, member);
    for (let i = 0; i < 5; i++) {
      const res = await browser.post(`${API}/verify/sms`, { token: wrongCode(code) }).set('X-Forwarded-For', nextIp());
      expect(res.status).toBe(401);
    }
    const late = await browser.post(`${API}/verify/sms`, { token: code }).set('X-Forwarded-For', nextIp());
    expect(late.status).not.toBe(200);
    expect(late.body.bearer_token).toBeUndefined();
  });

  it('stops an account at its failure ceiling across codes and rotating X-Forwarded-For (100/h in test:reliability)', async () => {
    const app = createApp({ ...g.t.ctx, env: { ...g.t.ctx.env, RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR: 10 } });
    const member = await createMember(g.t.ctx);
    const browser = await openBrowser(app);
    for (let round = 0; round < 2; round++) {
      g.t.clock.advance(61_000);
      const res = await browser.post(`${API}/verify/phone`, { unique_id: member.memberNo, consent: true }).set('X-Forwarded-For', nextIp());
      expect(res.status).toBe(200);
      const code = g.sms.codeFor(member.phone);
      for (let i = 0; i < 5; i++)
        expect((await browser.post(`${API}/verify/sms`, { token: wrongCode(code) }).set('X-Forwarded-For', nextIp())).status).toBe(401);
    }
    g.t.clock.advance(61_000);
    const again = await browser.post(`${API}/verify/phone`, { unique_id: member.memberNo, consent: true }).set('X-Forwarded-For', nextIp());
    if (again.status === 200) {
      const res = await browser.post(`${API}/verify/sms`, { token: g.sms.codeFor(member.phone) }).set('X-Forwarded-For', nextIp());
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } else {
      expect(again.status).toBe(429);
    }
  });

  it('does not believe X-Forwarded-For without a trusted proxy hop (per-IP ceilings hold)', async () => {
    const app = createApp({
      ...g.t.ctx,
      env: { ...g.t.ctx.env, TRUST_PROXY_HOPS: 0, RATE_LIMIT_IP_TRIES_PER_HOUR: 3, RATE_LIMIT_IP_SENDS_PER_HOUR: 3 },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await request(app)
        .post(`${API}/admin/login`)
        .set('X-Forwarded-For', nextIp())
        .send({ email: `nobody${i}@example.org`, password: 'x' });
      statuses.push(res.status);
    }
    expect(statuses).toContain(429);
  });
});

describe('enumeration', () => {
  it('agent login answers the same for an agent, an admin and an unknown email', async () => {
    const agent = await createStaff(g.t.ctx, { role: 'agent' });
    const admin = await createStaff(g.t.ctx, { role: 'admin' });
    const answers = [];
    for (const email of [agent.email, admin.email, 'no-such-agent@example.org']) {
      const res = await request(g.t.app).post(`${API}/agent/login`).set('X-Forwarded-For', nextIp()).send({ email });
      const cookies = ([] as string[])
        .concat(res.headers['set-cookie'] ?? [])
        .map((c) => c.split('=')[0])
        .sort();
      answers.push({ status: res.status, body: res.body, cookies });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it('admin login answers the same for a wrong password and an unknown email', async () => {
    const admin = await createStaff(g.t.ctx, { role: 'admin', password: 'another long password' });
    const a = await request(g.t.app)
      .post(`${API}/admin/login`)
      .set('X-Forwarded-For', nextIp())
      .send({ email: admin.email, password: 'wrong password' });
    const b = await request(g.t.app)
      .post(`${API}/admin/login`)
      .set('X-Forwarded-For', nextIp())
      .send({ email: 'nobody-here@example.org', password: 'wrong password' });
    expect(a.status).toBe(401);
    expect({ status: b.status, body: b.body }).toEqual({ status: a.status, body: a.body });
  });

  it('the details lookup masks phone and email and says nothing more than docs/api.md', async () => {
    const member = await createMember(g.t.ctx, { phone: '0712345689', email: 'janet.wambui@example.org' });
    const res = await request(g.t.app).post(`${API}/details`).set('X-Forwarded-For', nextIp()).send({ member_no: member.memberNo });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['branch', 'email', 'phone', 'support_email']);
    expect(res.body.phone).toBe('********89');
    expect(res.body.email).toMatch(/^j\*+@example\.org$/);
    expect(JSON.stringify(res.body)).not.toContain('0712345689');
    expect(JSON.stringify(res.body)).not.toContain('janet.wambui');
    const unknown = await request(g.t.app).post(`${API}/details`).set('X-Forwarded-For', nextIp()).send({ member_no: '99999999' });
    expect(unknown.status).toBe(404);
    expect(Object.keys(unknown.body).every((k) => ['message', 'issue'].includes(k))).toBe(true);
  });
});

describe('authenticator', () => {
  it('refuses a replayed authenticator token', async () => {
    const member = await createMember(g.t.ctx);
    const voterToken = await tokenFor(g.t.ctx, 'voter', member.id);
    const qr = await request(g.t.app).post(`${API}/send-qr`).set(bearer(voterToken)).send({ pfNumber: member.memberNo });
    expect(qr.status).toBe(200);
    const secret = qr.body.secret as string;
    const enrol = await request(g.t.app)
      .post(`${API}/verify-token`)
      .set(bearer(voterToken))
      .send({ pfNumber: member.memberNo, token: totpTokenAt(secret, g.t.clock.now()) });
    expect(enrol.status, JSON.stringify(enrol.body)).toBe(200);
    g.t.clock.advance(31_000);

    const signIn = async () => {
      const browser = await openBrowser(g.t.app);
      const pin = await browser
        .post(`${API}/sign-pass`, { pass: g.t.ctx.env.DEFAULT_PIN, pfNumber: member.memberNo })
        .set('X-Forwarded-For', nextIp());
      expect(pin.status, JSON.stringify(pin.body)).toBe(200);
      return browser;
    };
    const token = totpTokenAt(secret, g.t.clock.now());
    const first = await (await signIn()).post(`${API}/verify-token-login`, { token, pfNumber: member.memberNo });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const replay = await (await signIn()).post(`${API}/verify-token-login`, { token, pfNumber: member.memberNo });
    expect(replay.status).toBe(401);
    expect(replay.body.bearer_token).toBeUndefined();
  });
});
