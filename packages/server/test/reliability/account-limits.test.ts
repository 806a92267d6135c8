import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { openBrowser } from '../auth/browser';
import { API, guessingSetup, wrongCode } from '../auth/guessing';
import { createMember, createStaff } from '../factories';

/**
 * The per-account ceilings at their real default: at most 100 failed codes an hour per account,
 * whatever addresses (X-Forwarded-For through a trusted proxy) the guesses come from, and 100
 * admin passwords an hour per (admin, address) (src/auth/account-limits.ts).
 * Slow (100 password hashes), so it lives here rather than in the normal suite.
 */

const g = guessingSetup();
const { nextIp, requestCode } = g;

describe('100 failures an hour per account and method', () => {
  it('stops an account at 100 failures an hour across codes and rotating X-Forwarded-For', async () => {
    const member = await createMember(g.t.ctx);
    const browser = await openBrowser(g.t.app);
    let failures = 0;
    let code = '';
    for (let round = 0; round < 20; round++) {
      g.t.clock.advance(61_000); // one send per identifier per 60 s
      code = await requestCode(browser, member);
      for (let i = 0; i < 5; i++) {
        const res = await browser.post(`${API}/verify/sms`, { token: wrongCode(code) }).set('X-Forwarded-For', nextIp());
        expect(res.status).toBe(401);
        failures++;
      }
    }
    expect(failures).toBe(100);
    g.t.clock.advance(61_000);
    const fresh = await browser.post(`${API}/verify/phone`, { unique_id: member.memberNo, consent: true }).set('X-Forwarded-For', nextIp());
    if (fresh.status === 200) {
      // Even the right code is refused while the account is locked.
      const res = await browser.post(`${API}/verify/sms`, { token: g.sms.codeFor(member.phone) }).set('X-Forwarded-For', nextIp());
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } else {
      expect(fresh.status).toBe(429);
    }
    // An hour later the account may try again.
    g.t.clock.advance(61 * 60_000);
    const code2 = await requestCode(browser, member);
    const ok = await browser.post(`${API}/verify/sms`, { token: code2 }).set('X-Forwarded-For', nextIp());
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('stops admin password guessing from one address at 100 an hour (with growing delays), while the admin signs in from their own', async () => {
    const admin = await createStaff(g.t.ctx, { role: 'admin', password: 'correct horse battery' });
    const stranger = nextIp();
    let failures = 0;
    for (let i = 0; i < 400 && failures < 100; i++) {
      const res = await request(g.t.app)
        .post(`${API}/admin/login`)
        .set('X-Forwarded-For', stranger)
        .send({ email: admin.email, password: `guess-${i}` });
      if (res.status === 401) failures++;
      else {
        expect(res.status).toBe(429);
        g.t.clock.advance(Number(res.headers['retry-after']) * 1000);
      }
    }
    expect(failures).toBe(100);
    const res = await request(g.t.app)
      .post(`${API}/admin/login`)
      .set('X-Forwarded-For', stranger)
      .send({ email: admin.email, password: 'correct horse battery' });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    const own = await request(g.t.app)
      .post(`${API}/admin/login`)
      .set('X-Forwarded-For', nextIp())
      .send({ email: admin.email, password: 'correct horse battery' });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
  });
});
