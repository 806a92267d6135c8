import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { openBrowser } from '../auth/browser';
import { API, guessingSetup, wrongCode } from '../auth/guessing';
import { createMember, createStaff } from '../factories';

/**
 * The per-account ceiling at its real default: at most 100 failed sign-in steps an hour per
 * account, whatever addresses (X-Forwarded-For through a trusted proxy) the guesses come from.
 * Slow (100 password hashes), so it lives here rather than in the normal suite.
 */

const g = guessingSetup();
const { nextIp, requestCode } = g;

describe('100 failures an hour per account', () => {
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

  it('stops admin password guessing at 100 an hour across rotating addresses, the right password included', async () => {
    const admin = await createStaff(g.t.ctx, { role: 'admin', password: 'correct horse battery' });
    for (let i = 0; i < 100; i++) {
      const res = await request(g.t.app).post(`${API}/admin/login`).set('X-Forwarded-For', nextIp()).send({ email: admin.email, password: `guess-${i}` });
      expect(res.status).toBe(401);
    }
    const res = await request(g.t.app).post(`${API}/admin/login`).set('X-Forwarded-For', nextIp()).send({ email: admin.email, password: 'correct horse battery' });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

});
