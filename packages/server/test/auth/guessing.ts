import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp } from '../harness';
import type { Browser } from './browser';
import { startSmsSink, type SmsSink } from './sms-sink';

export const API = '/api/v1';

/** A six-digit code that is not `code`. */
export const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

export type Guessing = {
  readonly t: TestApp;
  readonly sms: SmsSink;
  /** A different client address on every call, as a botnet behind the (trusted) proxy would send. */
  nextIp(): string;
  /** Step one of an SMS sign-in from a new address; answers the texted code. */
  requestCode(browser: Browser, member: { memberNo: string; phone: string }): Promise<string>;
};

/**
 * The set-up the brute-force tests share: an app behind one trusted proxy (so X-Forwarded-For
 * names the client) whose SMS codes land in a real HTTP sink. Registers the file's hooks.
 */
export function guessingSetup(): Guessing {
  let t: TestApp | undefined;
  let sms: SmsSink | undefined;
  let n = 0;
  beforeAll(async () => {
    sms = await startSmsSink();
    t = await createTestApp({ env: { TRUST_PROXY_HOPS: '1', SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: sms.url } });
  });
  afterAll(async () => {
    await t?.close();
    await sms?.close();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('guessingSetup: used before beforeAll ran');
    return value;
  };
  const nextIp = () => `10.${(++n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  return {
    get t() {
      return ready(t);
    },
    get sms() {
      return ready(sms);
    },
    nextIp,
    async requestCode(browser, member) {
      const res = await browser.post(`${API}/verify/phone`, { unique_id: member.memberNo, consent: true }).set('X-Forwarded-For', nextIp());
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return ready(sms).codeFor(member.phone);
    },
  };
}
