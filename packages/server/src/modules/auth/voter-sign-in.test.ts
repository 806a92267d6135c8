import { and, eq, isNull } from 'drizzle-orm';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { accountKey } from '../../auth/account-limits';
import { totpTokenAt } from '../../auth/totp';
import { activityLogs, authFailures, members, otpChallenges } from '../../db/schema';
import { enrolAuthenticator } from '../../../test/auth/authenticator';
import { openTypedBrowser, type TypedBrowser } from '../../../test/auth/browser';
import { createGoogleSigner, signedInWhileLinked, TEST_GOOGLE_CLIENT_ID, type GoogleSigner } from '../../../test/auth/google-signer';
import { startSmsSink, type SmsSink } from '../../../test/auth/sms-sink';
import { wrongCode } from '../../../test/auth/guessing';
import { apiClient, asBearer, bodyOf, cookiesSetBy, untyped, withCookies } from '../../../test/client';
import { createMember, createStaff, tokenFor } from '../../../test/factories';
import { createTestApp, databaseKind, type TestApp } from '../../../test/harness';

/**
 * Voter sign-in end to end over HTTP: SMS codes through a real webhook sink, the authenticator
 * flow, Google sign-in and sign-up with locally signed ID tokens.
 */

let t: TestApp;
let sms: SmsSink;
let google: GoogleSigner;
/** Every code and bearer token handed out, to prove none reaches the log. */
const secrets: string[] = [];

beforeAll(async () => {
  [sms, google] = await Promise.all([startSmsSink(), createGoogleSigner()]);
  t = await createTestApp({ env: { SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: sms.url, GOOGLE_CLIENT_ID: TEST_GOOGLE_CLIENT_ID } });
  t.ctx.google.certs = google.certs;
});

afterAll(async () => {
  await t?.close();
  await sms?.close();
});

/** A client without a session, and one with the given bearer token. */
const anon = (app: Express = t.app) => apiClient(app);
const as = (token: string) => apiClient(t.app, token);

/** A fresh browser as typed clients (test/auth/browser.ts). */
const browserOn = (app: Express = t.app) => openTypedBrowser(app);
type BrowserApi = TypedBrowser;

/** Step one of the SMS sign-in; answers the code the sink received. */
async function requestCode(browser: BrowserApi, member: { memberNo: string; phone: string }, identifier = member.memberNo) {
  const res = await browser.auth.verifyPhone({ body: { unique_id: identifier, consent: true } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const code = sms.codeFor(member.phone);
  secrets.push(code);
  return { res, code };
}

async function session(res: { status: number; body: unknown }) {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ bearer_token: expect.any(String), hash: expect.any(String), balance: 0, message: expect.any(String) });
  const token = (res.body as { bearer_token: string }).bearer_token;
  secrets.push(token);
  return token;
}

describe('SMS sign-in (verify/phone, verify/sms)', () => {
  it('texts a code and signs the member in with it; the token works until logout', async () => {
    const member = await createMember(t.ctx, { name: 'Amina Ochieng', phone: '0712345689' });
    const browser = await browserOn();
    const { res, code } = await requestCode(browser, member);
    expect(bodyOf(res, 200).message).toContain('********89');
    expect(sms.messages.at(-1)).toMatchObject({ to: '0712345689' });
    const pendingCookie = res.headers.getSetCookie().find((c) => c.startsWith('kura_pending_voter='));
    expect(pendingCookie).toMatch(/HttpOnly/i);
    expect(pendingCookie).toMatch(/SameSite=Lax/i);
    expect(pendingCookie).not.toContain(code);

    const token = await session(await browser.auth.verifySms({ body: { token: code } }));
    const validate = await as(token).auth.validateVoter();
    expect(validate.status).toBe(200);
    expect(validate.body).toEqual({ user_type: 'voter', data: { name: 'Amina Ochieng', language: null } });

    const [row] = await t.ctx.database.db.select().from(members).where(eq(members.id, member.id));
    expect(row!.verifiedAt).toBeInstanceOf(Date);

    // Voter token on a staff route: 403.
    expect((await as(token).auth.validateStaff()).status).toBe(403);

    expect((await as(token).auth.logout()).status).toBe(204);
    const after = await as(token).auth.validateVoter();
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: 'Unauthenticated' });
  });

  it("answers the member's own language with the session, null when they have chosen none", async () => {
    for (const language of ['sw', null]) {
      const member = await createMember(t.ctx, { language });
      const browser = await browserOn();
      const { code } = await requestCode(browser, member);
      const res = await browser.auth.verifySms({ body: { token: code } });
      await session(res);
      expect(bodyOf(res, 200).language).toBe(language);
    }
  });

  it('accepts the member email as identifier, whatever its case', async () => {
    const member = await createMember(t.ctx, { email: 'wanjiku@example.org' });
    const browser = await browserOn();
    const { code } = await requestCode(browser, member, 'Wanjiku@Example.org');
    await session(await browser.auth.verifySms({ body: { token: code } }));
  });

  it('answers an unknown member with 404 and the sign-up hint, and a missing consent with 422', async () => {
    const browser = await browserOn();
    const unknown = await browser.auth.verifyPhone({ body: { unique_id: '99999999', consent: true } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'No account found, try signing up', issue: 'No such user exists' });

    const noConsent = await browser.auth.verifyPhone({ body: { unique_id: '12345', consent: untyped(false) } });
    expect(noConsent.status).toBe(422);
    expect(bodyOf(noConsent, 422).errors!.consent).toBeDefined();
  });

  it('refuses the code step without the CSRF header (419) or without a pending sign-in (401)', async () => {
    const member = await createMember(t.ctx);
    const browser = await browserOn();
    const { code } = await requestCode(browser, member);
    const noCsrf = await browser.withoutCsrf.auth.verifySms({ body: { token: code } });
    expect(noCsrf.status).toBe(419);
    expect(noCsrf.body).toEqual({ message: 'CSRF token mismatch' });

    const stranger = await browserOn();
    const noPending = await stranger.auth.verifySms({ body: { token: code } });
    expect(noPending.status).toBe(401);
    expect(bodyOf(noPending, 401).message).toBe('Your sign-in has expired, please start again');

    // The refused attempts did not spend the code.
    await session(await browser.auth.verifySms({ body: { token: code } }));
  });

  it('rejects a wrong code but keeps the right one usable', async () => {
    const member = await createMember(t.ctx);
    const browser = await browserOn();
    const { code } = await requestCode(browser, member);
    const wrong = await browser.auth.verifySms({ body: { token: wrongCode(code) } });
    expect(wrong.status).toBe(401);
    expect(bodyOf(wrong, 401).message).toBe('The code is incorrect, please try again');
    await session(await browser.auth.verifySms({ body: { token: code } }));
  });

  it('rejects an expired code (5 minutes)', async () => {
    const member = await createMember(t.ctx);
    const browser = await browserOn();
    const { res, code } = await requestCode(browser, member);
    t.clock.advance(5 * 60_000 + 1000);
    // Replay the pending cookie explicitly: the server's clock, not the browser's, decides.
    const expired = await anon().auth.verifySms({ body: { token: code }, extraHeaders: withCookies(cookiesSetBy(res), browser.xsrf) });
    expect(expired.status).toBe(401);
  });

  it('rejects a code used once already', async () => {
    const member = await createMember(t.ctx);
    const browser = await browserOn();
    const { res, code } = await requestCode(browser, member);
    const cookie = withCookies(cookiesSetBy(res), browser.xsrf);
    const replay = () => anon().auth.verifySms({ body: { token: code }, extraHeaders: cookie });
    await session(await replay());
    const again = await replay();
    expect(again.status).toBe(401);
    expect(bodyOf(again, 401).message).toBe('The code has expired or was already used, please request a new one');
  });

  it('kills a code after 5 wrong tries, even for the right code on the sixth', async () => {
    const member = await createMember(t.ctx);
    const browser = await browserOn();
    const { code } = await requestCode(browser, member);
    for (let i = 1; i <= 5; i++) {
      const res = await browser.auth.verifySms({ body: { token: wrongCode(code) } });
      expect(res.status).toBe(401);
      if (i === 5) expect(bodyOf(res, 401).message).toBe('Too many wrong codes, please request a new one');
    }
    const sixth = await browser.auth.verifySms({ body: { token: code } });
    expect(sixth.status).toBe(401);
    expect(bodyOf(sixth, 401).message).toBe('The code has expired or was already used, please request a new one');
  });

  it('allows one send per minute, and a new code kills the older one', async () => {
    const member = await createMember(t.ctx);
    const browser = await browserOn();
    const first = await requestCode(browser, member);

    const tooSoon = await browser.auth.verifyPhone({ body: { unique_id: member.memberNo, consent: true } });
    expect(tooSoon.status).toBe(429);
    expect(Number(tooSoon.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(tooSoon.headers.get('retry-after'))).toBeLessThanOrEqual(60);

    t.clock.advance(61_000);
    const second = await requestCode(browser, member);
    const old = await anon().auth.verifySms({
      body: { token: first.code },
      extraHeaders: withCookies(cookiesSetBy(first.res), browser.xsrf),
    });
    expect(old.status).toBe(401);
    await session(await browser.auth.verifySms({ body: { token: second.code } }));
  });

  it('makes one session from two simultaneous submissions of the same code', async () => {
    const member = await createMember(t.ctx);
    const browser = await browserOn();
    const { res, code } = await requestCode(browser, member);
    const cookie = withCookies(cookiesSetBy(res), browser.xsrf);
    const submit = () => anon().auth.verifySms({ body: { token: code }, extraHeaders: cookie });
    const answers = await Promise.all([submit(), submit()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
    secrets.push(...answers.filter((a) => a.status === 200).map((a) => bodyOf(a, 200).bearer_token));
  });

  it('refuses a forged or tampered pending cookie', async () => {
    const member = await createMember(t.ctx);
    const browser = await browserOn();
    const { res, code } = await requestCode(browser, member);
    // The cookie is sealed (src/auth/pending.ts): flip one bit of it, or put a plain state in its place.
    const original = /kura_pending_voter=([^;]+)/.exec(cookiesSetBy(res))![1]!;
    const bytes = Buffer.from(decodeURIComponent(original), 'base64url');
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 1;
    const forged = cookiesSetBy(res).replace(/kura_pending_voter=[^;]+/, `kura_pending_voter=${bytes.toString('base64url')}`);
    const plain = JSON.stringify({ kind: 'code', role: 'voter', subjectId: member.id, challengeId: 1, expiresAt: Date.now() + 60_000 });
    const planted = await anon().auth.verifySms({
      body: { token: code },
      extraHeaders: withCookies(`kura_pending_voter=${encodeURIComponent(plain)}`, browser.xsrf),
    });
    expect(planted.status).toBe(401);
    const tampered = await anon().auth.verifySms({ body: { token: code }, extraHeaders: withCookies(forged, browser.xsrf) });
    expect(tampered.status).toBe(401);
    expect(bodyOf(tampered, 401).message).toBe('Your sign-in has expired, please start again');
  });

  it('answers 502 when the SMS gateway fails and leaves no usable code behind', async () => {
    const member = await createMember(t.ctx);
    const browser = await browserOn();
    const before = sms.messages.length;
    sms.failNext(500);
    const failed = await browser.auth.verifyPhone({ body: { unique_id: member.memberNo, consent: true } });
    expect(failed.status).toBe(502);
    expect(bodyOf(failed, 502).message).toBe('Could not send the SMS code, please try again');
    expect(sms.messages.length).toBe(before);
    const live = await t.ctx.database.db
      .select()
      .from(otpChallenges)
      .where(
        and(
          eq(otpChallenges.subjectId, member.id),
          eq(otpChallenges.purpose, 'voter'),
          isNull(otpChallenges.usedAt),
          isNull(otpChallenges.revokedAt),
        ),
      );
    expect(live).toHaveLength(0);
    // The member can ask again at once, and that code works.
    const { code } = await requestCode(browser, member);
    await session(await browser.auth.verifySms({ body: { token: code } }));
  });

  it('records attempts and outcomes in the activity log without the code', async () => {
    const member = await createMember(t.ctx, { name: 'Logged Member' });
    const browser = await browserOn();
    const { code } = await requestCode(browser, member);
    await browser.auth.verifySms({ body: { token: wrongCode(code) } });
    await session(await browser.auth.verifySms({ body: { token: code } }));
    const rows = await t.ctx.database.db.select().from(activityLogs).where(eq(activityLogs.userId, member.id));
    expect(rows.map((r) => `${r.activity}/${r.status}`)).toEqual(
      expect.arrayContaining([
        'Voter sign-in: SMS code sent/success',
        'Voter sign-in: SMS code check/failed',
        'Voter sign-in: SMS code check/success',
      ]),
    );
    expect(rows.every((r) => r.name === 'Logged Member' && r.ipAddress.length > 0)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(code);
  });
});

describe('authenticator sign-in (send-qr, verify-token, sign-pass, verify-token-login)', () => {
  it('enrols from a voter session, then signs in with pin + token; each token step works once', async () => {
    const member = await createMember(t.ctx, { name: 'Totp Voter' });
    const voterToken = await tokenFor(t.ctx, 'voter', member.id);

    const voter = as(voterToken);
    const qr = await voter.auth.sendQr({ body: { pfNumber: member.memberNo } });
    expect(qr.status).toBe(200);
    const { url, secret } = bodyOf(qr, 200);
    expect(url).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(url.split(',')[1]!, 'base64').toString()).toContain('<svg');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    const wrongConfirm = await voter.auth.verifyToken({
      body: { pfNumber: member.memberNo, token: wrongCode(totpTokenAt(secret, t.clock.now())) },
    });
    expect(wrongConfirm.status).toBe(422);

    const firstToken = totpTokenAt(secret, t.clock.now());
    const confirm = await voter.auth.verifyToken({ body: { pfNumber: member.memberNo, token: firstToken } });
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
    expect(bodyOf(confirm, 200).message).toBe('Authenticator set up successfully');

    const browser = await browserOn();
    const badPin = await browser.auth.signPass({ body: { pfNumber: member.memberNo, pass: '0000' } });
    expect(badPin.status).toBe(401);
    expect(bodyOf(badPin, 401).issue).toBe('Incorrect pin');
    const noCsrf = await browser.withoutCsrf.auth.signPass({ body: { pfNumber: member.memberNo, pass: t.ctx.env.DEFAULT_PIN } });
    expect(noCsrf.status).toBe(419);
    const pin = await browser.auth.signPass({ body: { pfNumber: member.memberNo, pass: t.ctx.env.DEFAULT_PIN } });
    expect(pin.status).toBe(200);

    // The token already accepted at enrolment is a replay.
    const replay = await browser.auth.verifyTokenLogin({ body: { pfNumber: member.memberNo, token: firstToken } });
    expect(replay.status).toBe(401);
    expect(bodyOf(replay, 401).message).toBe('The token is incorrect or has expired, please try again');

    t.clock.advance(30_000);
    const freshToken = totpTokenAt(secret, t.clock.now());
    const noCsrfLogin = await browser.withoutCsrf.auth.verifyTokenLogin({ body: { pfNumber: member.memberNo, token: freshToken } });
    expect(noCsrfLogin.status).toBe(419);
    const token = await session(await browser.auth.verifyTokenLogin({ body: { pfNumber: member.memberNo, token: freshToken } }));
    expect((await as(token).auth.validateVoter()).body).toEqual({
      user_type: 'voter',
      data: { name: 'Totp Voter', language: null },
    });
    const [row] = await t.ctx.database.db.select().from(members).where(eq(members.id, member.id));
    expect(row!.verifiedAt).toBeInstanceOf(Date);

    // The pin step is spent by the sign-in, and the same token cannot be used again either.
    const again = await browser.auth.verifyTokenLogin({ body: { pfNumber: member.memberNo, token: freshToken } });
    expect(again.status).toBe(401);
    expect((await browser.auth.signPass({ body: { pfNumber: member.memberNo, pass: t.ctx.env.DEFAULT_PIN } })).status).toBe(200);
    const reused = await browser.auth.verifyTokenLogin({ body: { pfNumber: member.memberNo, token: freshToken } });
    expect(reused.status).toBe(401);
  });

  it('spends the pin-passed state with the sign-in: a copy of the cookie cannot skip the pin a second time', async () => {
    const member = await createMember(t.ctx);
    const secret = await enrol(member);
    const browser = await browserOn();
    const pin = await browser.auth.signPass({ body: { pfNumber: member.memberNo, pass: t.ctx.env.DEFAULT_PIN } });
    expect(pin.status).toBe(200);
    const kept = pin.headers.getSetCookie().find((c) => c.startsWith('kura_pending_voter='))!;
    const cookie = kept.split(';')[0]!;
    t.clock.advance(30_000);
    await session(await browser.auth.verifyTokenLogin({ body: { pfNumber: member.memberNo, token: totpTokenAt(secret, t.clock.now()) } }));

    // The kept copy, within its five minutes, with a fresh token: no pin was passed for this sign-in.
    t.clock.advance(30_000);
    const replay = await anon().auth.verifyTokenLogin({
      body: { pfNumber: member.memberNo, token: totpTokenAt(secret, t.clock.now()) },
      extraHeaders: withCookies(cookie, browser.xsrf),
    });
    expect(replay.status).toBe(401);
    expect(bodyOf(replay, 401).message).toBe('Your sign-in has expired, please start again');
  });

  it("answers the member's own language with the session, null when they have chosen none", async () => {
    for (const language of ['sw', null]) {
      const member = await createMember(t.ctx, { language });
      const secret = await enrol(member);
      const browser = await browserOn();
      expect((await browser.auth.signPass({ body: { pfNumber: member.memberNo, pass: t.ctx.env.DEFAULT_PIN } })).status).toBe(200);
      t.clock.advance(30_000);
      const res = await browser.auth.verifyTokenLogin({ body: { pfNumber: member.memberNo, token: totpTokenAt(secret, t.clock.now()) } });
      await session(res);
      expect(bodyOf(res, 200).language).toBe(language);
    }
  });

  it('needs a passed pin for the same member before the token step', async () => {
    const member = await createMember(t.ctx);
    const other = await createMember(t.ctx);
    await enrol(member);
    await enrol(other);
    const browser = await browserOn();
    const noPin = await browser.auth.verifyTokenLogin({ body: { pfNumber: member.memberNo, token: '123456' } });
    expect(noPin.status).toBe(401);
    expect(bodyOf(noPin, 401).message).toBe('Your sign-in has expired, please start again');

    expect((await browser.auth.signPass({ body: { pfNumber: other.memberNo, pass: t.ctx.env.DEFAULT_PIN } })).status).toBe(200);
    const swapped = await browser.auth.verifyTokenLogin({ body: { pfNumber: member.memberNo, token: '123456' } });
    expect(swapped.status).toBe(401);
  });

  it('uses the member own pin once set, and refuses the pin step without an authenticator', async () => {
    const member = await createMember(t.ctx);
    await t.ctx.database.db
      .update(members)
      .set({ pinHash: await t.ctx.passwords.hash('8642') })
      .where(eq(members.id, member.id));
    await enrol(member);
    const browser = await browserOn();
    expect((await browser.auth.signPass({ body: { pfNumber: member.memberNo, pass: t.ctx.env.DEFAULT_PIN } })).status).toBe(401);
    expect((await browser.auth.signPass({ body: { pfNumber: member.memberNo, pass: '8642' } })).status).toBe(200);

    const plain = await createMember(t.ctx);
    const refused = await browser.auth.signPass({ body: { pfNumber: plain.memberNo, pass: t.ctx.env.DEFAULT_PIN } });
    expect(refused.status).toBe(403);
    const unknown = await browser.auth.signPass({ body: { pfNumber: '424242', pass: t.ctx.env.DEFAULT_PIN } });
    expect(unknown.status).toBe(404);
    expect(bodyOf(unknown, 404).issue).toBe('No such user exists');
  });

  it('enrols only from a voter session and only for the caller', async () => {
    const member = await createMember(t.ctx);
    const other = await createMember(t.ctx);
    const voterToken = await tokenFor(t.ctx, 'voter', member.id);
    expect((await anon().auth.sendQr({ body: { pfNumber: member.memberNo } })).status).toBe(401);
    expect((await as(voterToken).auth.sendQr({ body: { pfNumber: other.memberNo } })).status).toBe(403);
    const agentToken = await tokenFor(t.ctx, 'agent');
    expect((await as(agentToken).auth.sendQr({ body: { pfNumber: member.memberNo } })).status).toBe(403);
  });
});

/** Enrols an authenticator for the member through the API; answers the secret. */
const enrol = async (member: { id: number; memberNo: string }) => (await enrolAuthenticator(t, member)).secret;

describe('Google sign-in and sign-up for voters', () => {
  it('signs a member in with a Google ID token for their email', async () => {
    const member = await createMember(t.ctx, { email: 'grace@example.org', name: 'Grace Wambui' });
    const idToken = await google.idToken({ email: 'grace@example.org' });
    const res = await anon().auth.loginGoogle({ body: { email: 'grace@example.org', oauth_id_token: idToken } });
    const token = await session(res);
    expect(bodyOf(res, 200).name).toBe('Grace Wambui');
    expect((await as(token).auth.validateVoter()).status).toBe(200);
    const [row] = await t.ctx.database.db.select().from(members).where(eq(members.id, member.id));
    expect(row!.verifiedAt).toBeInstanceOf(Date);
    expect(row!.googleSub).toMatch(/^google-sub-/);
  });

  it("answers the member's own language with the session, null when they have chosen none", async () => {
    for (const [language, email] of [
      ['sw', 'lugha@example.org'],
      [null, 'no.lugha@example.org'],
    ] as const) {
      await createMember(t.ctx, { email, language });
      const res = await anon().auth.loginGoogle({ body: { email, oauth_id_token: await google.idToken({ email }) } });
      await session(res);
      expect(bodyOf(res, 200).language).toBe(language);
    }
  });

  it('refuses a wrong audience, an unverified email, an expired token, a foreign key and a mismatched email', async () => {
    await createMember(t.ctx, { email: 'felix@example.org' });
    const cases = [
      await google.idToken({ email: 'felix@example.org', audience: 'someone-else.apps.googleusercontent.com' }),
      await google.idToken({ email: 'felix@example.org', emailVerified: false }),
      await google.idToken({ email: 'felix@example.org', expiresIn: -600 }),
      await google.idToken({ email: 'felix@example.org', foreignKey: true }),
      await google.idToken({ email: 'felix@example.org', issuer: 'https://evil.example.com' }),
      'not-a-jwt',
    ];
    const messages = [];
    for (const idToken of cases) {
      const res = await anon().auth.loginGoogle({ body: { email: 'felix@example.org', oauth_id_token: idToken } });
      expect(res.status).toBe(401);
      messages.push(bodyOf(res, 401).message);
    }
    expect(messages[1]).toBe('Your Google email address is not verified');
    const mismatch = await anon().auth.loginGoogle({
      body: { email: 'felix@example.org', oauth_id_token: await google.idToken({ email: 'someone@example.org' }) },
    });
    expect(mismatch.status).toBe(401);
  });

  it('refuses every re-encoding of a spent token (padding, the base64 alphabet, whitespace, spare bits) alike; a fresh token works', async () => {
    await createMember(t.ctx, { email: 'reencoded@example.org' });
    const login = (idToken: string) => anon().auth.loginGoogle({ body: { email: 'reencoded@example.org', oauth_id_token: idToken } });
    // A signature with both base64url-only characters, so the standard alphabet changes it.
    const claims = { email: 'reencoded@example.org', sub: 'google-sub-reencoded' };
    let spent = await google.idToken(claims);
    while (!/[-_]/.test(spent.split('.')[2]!)) spent = await google.idToken(claims);
    await session(await login(spent));
    const [header, payload, signature] = spent.split('.') as [string, string, string];
    // 256 signature bytes leave 4 spare bits in the last character: flipping them decodes to the same bytes.
    const last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const spare = last[last.indexOf(signature.at(-1)!) ^ 1]!;
    const variants = {
      padded: `${spent}=`,
      doublePadded: `${spent}==`,
      standardAlphabet: `${header}.${payload}.${signature.replace(/-/g, '+').replace(/_/g, '/')}`,
      spaceInSignature: `${header}.${payload}.${signature.slice(0, 10)} ${signature.slice(10)}`,
      trailingSpace: `${spent} `,
      leadingSpace: ` ${spent}`,
      newlineInSignature: `${header}.${payload}.${signature.slice(0, 64)}\n${signature.slice(64)}`,
      spareBits: `${header}.${payload}.${signature.slice(0, -1)}${spare}`,
      paddedPayload: `${header}.${payload}=.${signature}`,
      fourSegments: `${spent}.`,
    };
    expect(Buffer.from(variants.spareBits.split('.')[2]!, 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
    for (const [name, idToken] of Object.entries(variants)) {
      const res = await login(idToken);
      expect(res.status, name).toBe(401);
      expect(bodyOf(res, 401).message, name).toBe('Invalid Google credential, please sign in with Google again');
    }
    // A re-encoding of a token never used is refused too, and does not spend it: the token itself still works.
    const fresh = await google.idToken(claims);
    expect((await login(`${fresh}=`)).status).toBe(401);
    await session(await login(fresh));
    expect((await login(fresh)).status).toBe(401);
  });

  it('sends an unknown Google account to sign-up (404 with the issue)', async () => {
    const res = await anon().auth.loginGoogle({
      body: { email: 'nobody@example.org', oauth_id_token: await google.idToken({ email: 'nobody@example.org' }) },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'No account found, try signing up', issue: 'No such user exists' });
  });

  it('links a Google account at sign-up once the texted code is entered (201), refuses it twice (409), then signs in by it', async () => {
    const member = await createMember(t.ctx, {
      memberNo: '4321',
      phone: '0722000111',
      email: 'registered@example.org',
      name: 'Registered Name',
    });
    const credential = () => google.idToken({ email: 'personal@gmail.com', sub: 'google-sub-personal' });
    const body = async () => ({
      pfNumber: '4321',
      phone: '0722000111',
      name: 'x',
      email: 'personal@gmail.com',
      email_verified: true,
      photo: '',
      google_id: 'x',
      credential: await credential(),
    });
    const browser = await browserOn();

    const wrongPhone = await browser.auth.signup({ body: { ...(await body()), phone: '0722000999' } });
    expect(wrongPhone.status).toBe(404);

    const started = await browser.auth.signup({ body: await body() });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body).toEqual({ message: 'A 6 digit code has been sent to your phone ********11', pfNumber: '4321' });
    const code = sms.codeFor('0722000111');
    secrets.push(code);
    const created = await browser.auth.verifySignup({ body: { token: code } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({ message: expect.any(String), pfNumber: '4321' });
    const [row] = await t.ctx.database.db.select().from(members).where(eq(members.id, member.id));
    expect(row!.googleSub).toBe('google-sub-personal');
    expect(row!.verifiedAt).toBeInstanceOf(Date);
    expect(row!.email).toBe('registered@example.org');

    const again = await browser.auth.signup({ body: await body() });
    expect(again.status).toBe(409);
    expect(bodyOf(again, 409).message).toBe('Such an account already exists, try signing in or use a different voter id');

    // The same Google account on another voter ID: also taken.
    await createMember(t.ctx, { memberNo: '4322', phone: '0722000222' });
    const taken = await browser.auth.signup({ body: { ...(await body()), pfNumber: '4322', phone: '0722000222' } });
    expect(taken.status).toBe(409);

    const login = await anon().auth.loginGoogle({
      body: {
        email: 'personal@gmail.com',
        oauth_id_token: await google.idToken({ email: 'personal@gmail.com', sub: 'google-sub-personal' }),
      },
    });
    expect((await session(login)) && bodyOf(login, 200).name).toBe('Registered Name');
  });

  it('a 409 at signup/verify leaves the code unspent: once the conflict is gone the same code links', async () => {
    // Both ways an account can turn out taken between the two steps: the member signed in with
    // another Google account by email meanwhile, or this Google account was linked to another member.
    const cases = [
      { memberNo: '4331', phone: '0722000331', otherEmail: 'member.4331@example.org', theirs: true },
      { memberNo: '4332', phone: '0722000332', otherEmail: 'g4332@gmail.com', theirs: false },
    ];
    for (const c of cases) {
      const member = await createMember(t.ctx, { memberNo: c.memberNo, phone: c.phone, email: c.theirs ? c.otherEmail : undefined });
      const sub = `google-sub-${c.memberNo}`;
      const browser = await browserOn();
      const started = await browser.auth.signup({
        body: {
          pfNumber: c.memberNo,
          phone: c.phone,
          credential: await google.idToken({ email: 'g4332@gmail.com', sub }),
        },
      });
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      const code = sms.codeFor(c.phone);
      secrets.push(code);

      const holder = c.theirs ? member : await createMember(t.ctx, { email: c.otherEmail });
      const signedIn = await anon().auth.loginGoogle({
        body: { email: c.otherEmail, oauth_id_token: await google.idToken({ email: c.otherEmail, sub: c.theirs ? `other-${sub}` : sub }) },
      });
      expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);

      const taken = await browser.auth.verifySignup({ body: { token: code } });
      expect(taken.status, JSON.stringify(taken.body)).toBe(409);
      expect(bodyOf(taken, 409).message).toBe('Such an account already exists, try signing in or use a different voter id');
      const [challenge] = await t.ctx.database.db
        .select()
        .from(otpChallenges)
        .where(and(eq(otpChallenges.subjectId, member.id), eq(otpChallenges.purpose, 'voter')));
      expect(challenge).toMatchObject({ usedAt: null, tries: 0 });
      // Nor does it count against the member's sign-up.
      const failures = await t.ctx.database.db
        .select()
        .from(authFailures)
        .where(eq(authFailures.accountKey, accountKey('voter', member.id, 'signup')));
      expect(failures).toEqual([]);

      // The conflicting link undone (by the organisation): the same code, same browser, links.
      await t.ctx.database.db.update(members).set({ googleSub: null }).where(eq(members.id, holder.id));
      const linked = await browser.auth.verifySignup({ body: { token: code } });
      expect(linked.status, JSON.stringify(linked.body)).toBe(201);
      const [row] = await t.ctx.database.db.select().from(members).where(eq(members.id, member.id));
      expect(row!.googleSub).toBe(sub);
    }
  });

  it('answers 503 on every Google route when GOOGLE_CLIENT_ID is not configured', async () => {
    const app = createApp({ ...t.ctx, env: { ...t.ctx.env, GOOGLE_CLIENT_ID: undefined } });
    const idToken = await google.idToken({ email: 'grace@example.org' });
    const { auth } = anon(app);
    for (const [name, signIn] of Object.entries({
      loginGoogle: auth.loginGoogle,
      loginAdminGoogle: auth.loginAdminGoogle,
      loginAgentGoogle: auth.loginAgentGoogle,
    })) {
      const res = await signIn({ body: { email: 'grace@example.org', oauth_id_token: idToken } });
      expect(res.status, name).toBe(503);
      expect(bodyOf(res, 503).message, name).toBe('Google sign-in is not configured on this server');
    }
    const signup = await auth.signup({ body: { pfNumber: '4321', phone: '0722000111', credential: idToken } });
    expect(signup.status).toBe(503);
  });
});

describe('roles and logs', () => {
  it('refuses a staff token on a voter route (403)', async () => {
    const admin = await createStaff(t.ctx, { role: 'admin' });
    const token = await tokenFor(t.ctx, 'admin', admin.id);
    expect((await as(token).auth.validateVoter()).status).toBe(403);
  });

  it('takes the bearer token only from the Authorization header', async () => {
    const token = await tokenFor(t.ctx, 'voter');
    // A query the route does not take (?access_token=…), sent as written.
    expect((await anon().auth.validateVoter(untyped({ query: { access_token: token } }))).status).toBe(401);
    expect((await anon().auth.validateVoter({ extraHeaders: { authorization: `Basic ${token}` } })).status).toBe(401);
    expect((await anon().auth.validateVoter({ extraHeaders: asBearer('not-a-real-token') })).status).toBe(401);
  });

  it('never writes a code or a bearer token to the log', () => {
    expect(secrets.length).toBeGreaterThan(10);
    const log = t.logs.join('\n');
    for (const secret of secrets) expect(log).not.toContain(secret);
  });
});

describe.skipIf(databaseKind !== 'postgres')('voter Google sign-in judges the link as its update finds it (two sessions)', () => {
  it('a Google sign-in by email that waited while another Google account was linked is refused, and that link stays', async () => {
    const member = await createMember(t.ctx, { email: 'linked.meanwhile@example.org' });
    const idToken = await google.idToken({ email: 'linked.meanwhile@example.org' });
    const res = await signedInWhileLinked(t.ctx.database.sql, 'members', member.id, () =>
      anon().auth.loginGoogle({ body: { email: 'linked.meanwhile@example.org', oauth_id_token: idToken } }),
    );
    expect(res.status).toBe(403);
    expect(bodyOf(res, 403).message).toBe('This account is linked to a different Google account');
    const [row] = await t.ctx.database.db.select({ googleSub: members.googleSub }).from(members).where(eq(members.id, member.id));
    expect(row!.googleSub).toBe('linked-meanwhile');
  });
});
