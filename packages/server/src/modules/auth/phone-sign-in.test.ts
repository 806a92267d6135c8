import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLogs, otpChallenges } from '../../db/schema';
import { openBrowser } from '../../../test/auth/browser';
import { startSmsSink, type SmsSink } from '../../../test/auth/sms-sink';
import { apiClient, bodyOf, browserClient } from '../../../test/client';
import { createMember } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';

/**
 * docs/api.md "Sign-in identifiers": `verify/phone` takes the member's registered phone (stored in
 * E.164) in any spelling beside the member number and the email; a phone two members share and
 * a phone no one has answer as an unknown identifier does.
 */

let t: TestApp;
let sms: SmsSink;

const UNKNOWN = { message: 'No account found, try signing up', issue: 'No such user exists' };

beforeAll(async () => {
  sms = await startSmsSink();
  t = await createTestApp({ env: { SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: sms.url } });
});

afterAll(async () => {
  await t?.close();
  await sms?.close();
});

async function askCode(identifier: string) {
  const browser = browserClient(await openBrowser(t.app));
  const res = await browser.auth.verifyPhone({ body: { unique_id: identifier, consent: true } });
  return { browser, res };
}

const codesFor = async (memberId: number) =>
  t.ctx.database.db
    .select()
    .from(otpChallenges)
    .where(and(eq(otpChallenges.purpose, 'voter'), eq(otpChallenges.subjectId, memberId)));

describe('voter sign-in by registered phone (verify/phone)', () => {
  it.each([
    ['0712 345 601', '+254712345601'],
    ['0712-345-602', '+254712345602'],
    ['254712345603', '+254712345603'],
    ['+254 712 345 604', '+254712345604'],
    ['+254712345605', '+254712345605'],
    [' 0712.345.606 ', '+254712345606'],
    ['0112 345 607', '+254112345607'],
  ])('finds the member by %s (stored %s), texts the code to that phone and signs in with it', async (spelling, stored) => {
    const member = await createMember(t.ctx, { phone: stored });
    const { browser, res } = await askCode(spelling);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(sms.messages.at(-1)?.to).toBe(stored);
    const signedIn = await browser.auth.verifySms({ body: { token: sms.codeFor(stored) } });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(bodyOf(signedIn, 200).name).toBe(member.name);
  });

  it('the phone typed at sign-in also names the member for the authenticator set-up (send-qr), as the web app keeps it', async () => {
    await createMember(t.ctx, { phone: '+254712345608' });
    const { browser } = await askCode('0712 345 608');
    const signedIn = await browser.auth.verifySms({ body: { token: sms.codeFor('+254712345608') } });
    const voter = apiClient(t.app, bodyOf(signedIn, 200).bearer_token);
    const qr = await voter.auth.sendQr({ body: { pfNumber: '0712 345 608' } });
    expect(qr.status, JSON.stringify(qr.body)).toBe(200);
  });

  it('keeps the resend limit of the account: a code by member number, then by phone within a minute, is 429', async () => {
    const member = await createMember(t.ctx, { phone: '+254712345611' });
    expect((await askCode(member.memberNo)).res.status).toBe(200);
    const again = (await askCode('0712 345 611')).res;
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(again.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await codesFor(member.id)).toHaveLength(1);
    t.clock.advance(61_000);
    expect((await askCode('0712 345 611')).res.status).toBe(200);
  });

  it('a phone two members share finds no one: 404 as for an unknown identifier, and no code to either', async () => {
    const first = await createMember(t.ctx, { phone: '+254712345621' });
    const second = await createMember(t.ctx, { phone: '+254712345621' });
    const sent = sms.messages.length;
    for (const spelling of ['0712 345 621', '+254712345621']) {
      const { res } = await askCode(spelling);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(UNKNOWN);
    }
    expect(sms.messages.length).toBe(sent);
    expect(await codesFor(first.id)).toHaveLength(0);
    expect(await codesFor(second.id)).toHaveLength(0);
    // Each still signs in by member number.
    expect((await askCode(first.memberNo)).res.status).toBe(200);
    expect(sms.messages.at(-1)?.to).toBe('+254712345621');
  });

  it('an unknown phone, member number or email answers 404 with the spec message and is logged as failed', async () => {
    for (const identifier of ['0712 999 631', '+254 712 999 631', '99999631', 'nobody631@example.org']) {
      const { res } = await askCode(identifier);
      expect(res.status, identifier).toBe(404);
      expect(res.body).toEqual(UNKNOWN);
    }
    const rows = await t.ctx.database.db.select().from(activityLogs).where(eq(activityLogs.name, '0712 999 631'));
    expect(rows.map((r) => r.status)).toEqual(['failed']);
  });

  it('a member number wins over a phone that reads the same', async () => {
    const byNumber = await createMember(t.ctx, { memberNo: '0712345641', phone: '+254712345642' });
    await createMember(t.ctx, { phone: '+254712345641' });
    expect((await askCode('0712345641')).res.status).toBe(200);
    expect(sms.messages.at(-1)?.to).toBe('+254712345642');
    expect(await codesFor(byNumber.id)).toHaveLength(1);
  });

  it('an identifier that is no member number, email or phone is 422 with the spec message', async () => {
    const { res } = await askCode('+254 20 12');
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain('Should only contain digits, be a valid email address, or follow CMAKE##/## format');
  });
});
