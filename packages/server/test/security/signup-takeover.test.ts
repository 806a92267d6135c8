import { and, eq } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountKey } from '../../src/auth/account-limits';
import { CODE_WRONG } from '../../src/auth/one-time-codes';
import { activityLogs, authFailures, members, otpChallenges } from '../../src/db/schema';
import { openBrowser } from '../auth/browser';
import { createGoogleSigner, TEST_GOOGLE_CLIENT_ID, type GoogleSigner } from '../auth/google-signer';
import { API, wrongCode } from '../auth/guessing';
import { startSmsSink, type SmsSink } from '../auth/sms-sink';
import { bearer, createMember, tokenFor } from '../factories';
import { createTestApp, type TestApp } from '../harness';

/**
 * A stranger took over a member's vote through sign-up: `signup` linked any Google account to a
 * member given the member number and a phone number it never proved, guesses were not counted,
 * one Google ID token served every guess, and `details` gave 4 of the 10 phone digits away. Then
 * `google/login` with the stranger's Google account signed in as the member. Linking now needs
 * the code texted to the member's registered phone (`signup/verify`), failures count per member,
 * an ID token is accepted once, and the link is written to the activity log.
 */

let t: TestApp;
let sms: SmsSink;
let google: GoogleSigner;
let n = 0;
const nextIp = () => `10.9.${(++n >> 8) & 255}.${n & 255}`;

beforeAll(async () => {
  [sms, google] = await Promise.all([startSmsSink(), createGoogleSigner()]);
  t = await createTestApp({
    env: { TRUST_PROXY_HOPS: '1', SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: sms.url, GOOGLE_CLIENT_ID: TEST_GOOGLE_CLIENT_ID },
  });
  t.ctx.google.certs = google.certs;
});

afterAll(async () => {
  await t?.close();
  await sms?.close();
});

const attacker = { email: 'stranger@gmail.com', sub: 'google-sub-stranger' };
const attackerToken = (sub = attacker.sub) => google.idToken({ email: attacker.email, sub });

const signupBody = (pfNumber: string, phone: string, credential: string) => ({
  pfNumber,
  phone,
  name: 'Stranger',
  email: attacker.email,
  email_verified: true,
  photo: '',
  google_id: attacker.sub,
  credential,
});

const linkedSub = async (memberId: number) =>
  (await t.ctx.database.db.select({ sub: members.googleSub }).from(members).where(eq(members.id, memberId)))[0]!.sub;

/** google/login with the stranger's own Google account. */
const strangerLogin = async (sub = attacker.sub) =>
  request(t.app)
    .post(`${API}/google/login`)
    .set('X-Forwarded-For', nextIp())
    .send({ email: attacker.email, oauth_id_token: await attackerToken(sub) });

describe('sign-up cannot be used to take over a member', () => {
  it('one ID token for many phone guesses: the second use is refused, and nothing links', async () => {
    const member = await createMember(t.ctx, { memberNo: '5101', phone: '0712345689' });
    const credential = await attackerToken('google-sub-one-token');
    const statuses: number[] = [];
    for (let i = 0; i < 56; i++) {
      const guess = `07123456${String(i).padStart(2, '0')}`;
      const browser = await openBrowser(t.app);
      const res = await browser.post(`${API}/signup`, signupBody('5101', guess, credential)).set('X-Forwarded-For', nextIp());
      statuses.push(res.status);
    }
    const right = await (
      await openBrowser(t.app)
    )
      .post(`${API}/signup`, signupBody('5101', '0712345689', credential))
      .set('X-Forwarded-For', nextIp());
    expect(statuses[0]).toBe(404);
    // Every later use of the same token is refused before the phone is even looked at.
    expect(new Set(statuses.slice(1))).toEqual(new Set([401]));
    expect(right.status).toBe(401);
    expect(right.body.message).toBe('This Google sign-in was already used, please sign in with Google again');
    expect(await linkedSub(member.id)).toBeNull();
  });

  it('a fresh token for every phone guess: guesses per member are limited (429), from any address', async () => {
    const member = await createMember(t.ctx, { memberNo: '5102', phone: '0712345600' });
    const statuses: number[] = [];
    for (let i = 1; i <= 56; i++) {
      const guess = `07123456${String(i).padStart(2, '0')}`;
      const browser = await openBrowser(t.app);
      const res = await browser
        .post(`${API}/signup`, signupBody('5102', guess, await attackerToken(`google-sub-guess-${i}`)))
        .set('X-Forwarded-For', nextIp());
      statuses.push(res.status);
      // Stop at the first refusal: the delays grow from 1 s, and a slow machine could otherwise
      // outlast the last one before the right phone below is tried.
      if (res.status === 429) break;
    }
    expect(statuses.slice(0, 5)).toEqual([404, 404, 404, 404, 404]);
    expect(statuses).toContain(429);
    // Once limited, even the right phone waits: the limit is checked before the phone.
    const right = await (
      await openBrowser(t.app)
    )
      .post(`${API}/signup`, signupBody('5102', '0712345600', await attackerToken('google-sub-guess-right')))
      .set('X-Forwarded-For', nextIp());
    expect(right.status).toBe(429);
    expect(right.headers['retry-after']).toBeTruthy();
    expect(await linkedSub(member.id)).toBeNull();
  });

  it('the right member number and phone without the code link nothing; wrong codes fail; google/login stays refused', async () => {
    const member = await createMember(t.ctx, { memberNo: '5103', phone: '0712345611' });
    const browser = await openBrowser(t.app);
    const started = await browser
      .post(`${API}/signup`, signupBody('5103', '0712345611', await attackerToken()))
      .set('X-Forwarded-For', nextIp());
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body.message).toBe('A 6 digit code has been sent to your phone ********11');
    expect(started.body.pfNumber).toBe('5103');
    // The code went to the member's registered phone only, never into the answer.
    const code = sms.codeFor('0712345611');
    expect(JSON.stringify(started.body)).not.toContain(code);
    expect(sms.messages.at(-1)!.message).toMatch(/link a Google account/);

    expect(await linkedSub(member.id)).toBeNull();
    expect((await strangerLogin()).status).toBe(404);

    for (let i = 0; i < 5; i++) {
      const wrong = await browser.post(`${API}/signup/verify`, { token: wrongCode(code) }).set('X-Forwarded-For', nextIp());
      expect(wrong.status).toBe(401);
    }
    // Five failures are free; the sixth attempt waits a second (429) before it is even checked.
    const early = await browser.post(`${API}/signup/verify`, { token: code }).set('X-Forwarded-For', nextIp());
    expect(early.status).toBe(429);
    // The code died after 5 wrong tries: the right one no longer links either.
    t.clock.advance(2_000);
    const late = await browser.post(`${API}/signup/verify`, { token: code }).set('X-Forwarded-For', nextIp());
    expect(late.status).toBe(401);
    expect(late.body.message).toBe('The code has expired or was already used, please request a new one');
    expect(await linkedSub(member.id)).toBeNull();
    expect((await strangerLogin()).status).toBe(404);
  });

  it('the code step needs the pending cookie and CSRF header of the browser that started it', async () => {
    await createMember(t.ctx, { memberNo: '5104', phone: '0712345622' });
    const browser = await openBrowser(t.app);
    const started = await browser
      .post(`${API}/signup`, signupBody('5104', '0712345622', await attackerToken('google-sub-5104')))
      .set('X-Forwarded-For', nextIp());
    expect(started.status).toBe(202);
    const code = sms.codeFor('0712345622');
    const other = await openBrowser(t.app);
    expect((await other.post(`${API}/signup/verify`, { token: code })).status).toBe(401);
    expect((await browser.postWithoutCsrf(`${API}/signup/verify`, { token: code })).status).toBe(419);
    // An SMS sign-in cookie is not a sign-up: verify/sms does not link, and signup/verify refuses it.
    expect((await browser.post(`${API}/verify/sms`, { token: code })).status).toBe(401);
  });

  it('a member who proves the phone links their Google account, once, and the link is in the activity log', async () => {
    const member = await createMember(t.ctx, { memberNo: '5105', phone: '0712345633', name: 'Real Member' });
    const browser = await openBrowser(t.app);
    const credential = await google.idToken({ email: 'real.member@gmail.com', sub: 'google-sub-real-member' });
    const body = { ...signupBody('5105', '0712345633', credential), email: 'real.member@gmail.com' };
    const started = await browser.post(`${API}/signup`, body).set('X-Forwarded-For', nextIp());
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const code = sms.codeFor('0712345633');
    const linked = await browser.post(`${API}/signup/verify`, { token: code }).set('X-Forwarded-For', '10.77.0.1');
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);
    expect(linked.body).toEqual({ message: 'Account created successfully, you can now sign in', pfNumber: '5105' });
    expect(await linkedSub(member.id)).toBe('google-sub-real-member');

    const [row] = await t.ctx.database.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.userId, member.id), eq(activityLogs.activity, 'Voter sign-up: Google account linked')));
    expect(row).toMatchObject({ userType: 'voter', status: 'success', ipAddress: '10.77.0.1', name: 'Real Member' });
    expect(row!.data).toContain('real.member@gmail.com');
    expect(row!.data).not.toContain(code);

    // The code is spent, and the token is spent: neither starts or finishes a second link.
    expect((await browser.post(`${API}/signup/verify`, { token: code })).status).toBe(401);
    expect((await browser.post(`${API}/signup`, body)).status).toBe(401);
    const login = await request(t.app)
      .post(`${API}/google/login`)
      .send({
        email: 'real.member@gmail.com',
        oauth_id_token: await google.idToken({ email: 'real.member@gmail.com', sub: 'google-sub-real-member' }),
      });
    expect(login.status).toBe(200);
    expect(login.body.name).toBe('Real Member');
  });

  it('an ID token is accepted once on google/login too', async () => {
    await createMember(t.ctx, { email: 'once@example.org' });
    const idToken = await google.idToken({ email: 'once@example.org' });
    const first = await request(t.app).post(`${API}/google/login`).send({ email: 'once@example.org', oauth_id_token: idToken });
    expect(first.status).toBe(200);
    const again = await request(t.app).post(`${API}/google/login`).send({ email: 'once@example.org', oauth_id_token: idToken });
    expect(again.status).toBe(401);
  });

  it('a wrong code answers alike whether the account was taken meanwhile or not, and counts alike', async () => {
    // The "account exists" check comes only after a right code (sign-up.service.ts): without the
    // code, signup/verify cannot tell that the member or the Google account got linked meanwhile.
    const answers = [];
    for (const [memberNo, phone, taken] of [
      ['5107', '0712345677', false],
      ['5108', '0712345688', true],
    ] as const) {
      const email = `member.${memberNo}@example.org`;
      const member = await createMember(t.ctx, { memberNo, phone, email });
      const browser = await openBrowser(t.app);
      const started = await browser
        .post(`${API}/signup`, signupBody(memberNo, phone, await attackerToken(`google-sub-${memberNo}`)))
        .set('X-Forwarded-For', nextIp());
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      const code = sms.codeFor(phone);
      if (taken) {
        // The member signs in with their own Google account meanwhile, which links it.
        const own = await request(t.app)
          .post(`${API}/google/login`)
          .send({ email, oauth_id_token: await google.idToken({ email, sub: `google-sub-own-${memberNo}` }) });
        expect(own.status).toBe(200);
      }
      const res = await browser.post(`${API}/signup/verify`, { token: wrongCode(code) }).set('X-Forwarded-For', nextIp());
      const [challenge] = await t.ctx.database.db.select().from(otpChallenges).where(eq(otpChallenges.subjectId, member.id));
      const failures = await t.ctx.database.db
        .select()
        .from(authFailures)
        .where(eq(authFailures.accountKey, accountKey('voter', member.id, 'signup')));
      answers.push({
        status: res.status,
        body: res.body,
        retryAfter: res.headers['retry-after'],
        tries: challenge!.tries,
        failures: failures.length,
      });
    }
    expect(answers[0]).toEqual({
      status: 401,
      body: { message: CODE_WRONG, issue: CODE_WRONG },
      retryAfter: undefined,
      tries: 1,
      failures: 1,
    });
    expect(answers[1]).toEqual(answers[0]);
  });

  it('failures at sign-up do not lock the member out of their own SMS sign-in', async () => {
    const member = await createMember(t.ctx, { memberNo: '5106', phone: '0712345644' });
    for (let i = 0; i < 30; i++) {
      const browser = await openBrowser(t.app);
      await browser
        .post(`${API}/signup`, signupBody('5106', `07000000${String(i).padStart(2, '0')}`, await attackerToken(`google-sub-lock-${i}`)))
        .set('X-Forwarded-For', nextIp());
    }
    t.clock.advance(61_000);
    const browser = await openBrowser(t.app);
    const sent = await browser.post(`${API}/verify/phone`, { unique_id: member.memberNo, consent: true }).set('X-Forwarded-For', nextIp());
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const res = await browser.post(`${API}/verify/sms`, { token: sms.codeFor(member.phone) }).set('X-Forwarded-For', nextIp());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

describe('details shows too little to guess the phone with', () => {
  it('masks the phone to at most its last two digits and gives a stranger no branch', async () => {
    const member = await createMember(t.ctx, { memberNo: '5201', phone: '0712345655', branch: 'Mombasa' });
    const res = await request(t.app).post(`${API}/details`).set('X-Forwarded-For', nextIp()).send({ member_no: '5201' });
    expect(res.status).toBe(200);
    expect(res.body.phone).toBe('********55');
    expect(res.body.phone.replace(/\D/g, '').length).toBeLessThanOrEqual(2);
    expect(res.body.branch).toBe('');
    expect(JSON.stringify(res.body)).not.toContain('Mombasa');

    // The member themself, signed in, sees their branch.
    const own = await request(t.app)
      .post(`${API}/details`)
      .set(bearer(await tokenFor(t.ctx, 'voter', member.id)))
      .send({ member_no: '5201' });
    expect(own.body.branch).toBe('Mombasa');
    // Another member does not.
    const other = await createMember(t.ctx, { memberNo: '5202' });
    const theirs = await request(t.app)
      .post(`${API}/details`)
      .set(bearer(await tokenFor(t.ctx, 'voter', other.id)))
      .send({ member_no: '5201' });
    expect(theirs.body.branch).toBe('');
  });

  it('the SMS sign-in message masks the phone the same way', async () => {
    const member = await createMember(t.ctx, { memberNo: '5203', phone: '0712345666' });
    const browser = await openBrowser(t.app);
    const res = await browser.post(`${API}/verify/phone`, { unique_id: member.memberNo, consent: true }).set('X-Forwarded-For', nextIp());
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('A 6 digit code has been sent to your phone ********66');
  });
});
