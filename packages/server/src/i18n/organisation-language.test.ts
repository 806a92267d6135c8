import { eq } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { members, organisation } from '../db/schema';
import { openBrowser } from '../../test/auth/browser';
import { startSmsSink, type SmsSink } from '../../test/auth/sms-sink';
import { startSmtpCapture, type SmtpCapture } from '../../test/auth/smtp-capture';
import { bearer, createMember, tokenFor } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { waitFor } from '../../test/voting/sockets';
import { createElection } from '../../test/voting/election';

/**
 * docs/api.md "Languages", the organisation's and the member's side: the organisation's default
 * language (GET/PUT organisation, GET election) is the language of a member who has none; a member
 * sets their own (PUT me/language), and the session and GET validate carry it; a reminder goes out
 * in each member's language when the admin wrote it in that language.
 */

let t: TestApp;
let sms: SmsSink;
let smtp: SmtpCapture;
let admin: string;
const API = '/api/v1';

beforeAll(async () => {
  [sms, smtp] = await Promise.all([startSmsSink(), startSmtpCapture()]);
  t = await createTestApp({
    env: { SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: sms.url, SMTP_URL: smtp.url, APP_NAME: 'Kura', MIX_INTERVAL_MS: '3600000' },
  });
  await createElection(t.ctx);
  admin = await tokenFor(t.ctx, 'admin');
});
afterAll(async () => {
  await t?.close();
  await Promise.all([sms?.close(), smtp?.close()]);
});
afterEach(async () => {
  await t.ctx.database.db.update(organisation).set({ defaultLanguage: 'en' });
});

const putOrganisation = (body: object, token = admin) => request(t.app).put(`${API}/organisation`).set(bearer(token)).send(body);

describe("the organisation's default language", () => {
  it('is English at first, in GET organisation and GET election', async () => {
    expect((await request(t.app).get(`${API}/organisation`)).body.data.default_language).toBe('en');
    expect((await request(t.app).get(`${API}/election`)).body.data.default_language).toBe('en');
  });

  it('is set by an admin to a shipped language only; a voter may not', async () => {
    const bad = await putOrganisation({ default_language: 'fr' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.default_language).toEqual(['The language must be one of en, sw']);
    const voter = await tokenFor(t.ctx, 'voter', (await createMember(t.ctx)).id);
    expect((await putOrganisation({ default_language: 'sw' }, voter)).status).toBe(403);

    const ok = await putOrganisation({ default_language: 'sw' });
    expect(ok.status).toBe(200);
    expect(ok.body.data.default_language).toBe('sw');
    expect((await request(t.app).get(`${API}/organisation`)).body.data.default_language).toBe('sw');
    expect((await request(t.app).get(`${API}/election`)).body.data.default_language).toBe('sw');
  });

  it('is the language of the sign-in code for a member without one; a member with one keeps theirs', async () => {
    expect((await putOrganisation({ default_language: 'sw' })).status).toBe(200);
    const none = await createMember(t.ctx, { language: null });
    const english = await createMember(t.ctx, { language: 'en' });
    const browser = await openBrowser(t.app);
    await browser.post(`${API}/verify/phone`, { unique_id: none.memberNo, consent: true }).expect(200);
    await browser.post(`${API}/verify/phone`, { unique_id: english.memberNo, consent: true }).expect(200);
    const to = (phone: string) => sms.messages.filter((m) => m.to === phone).at(-1)!.message;
    expect(to(none.phone)).toBe(
      `${sms.codeFor(none.phone)} ni msimbo wako wa kuingia Kura. Unakwisha baada ya dakika 5. Usimpe mtu yeyote.`,
    );
    expect(to(english.phone)).toBe(`${sms.codeFor(english.phone)} is your Kura sign-in code. It expires in 5 minutes. Do not share it.`);
  });
});

describe("a member's own language", () => {
  it('is set by the member (PUT me/language), carried by GET validate and the next session; staff may not call it', async () => {
    const member = await createMember(t.ctx);
    const token = await tokenFor(t.ctx, 'voter', member.id);
    expect((await request(t.app).get(`${API}/validate`).set(bearer(token))).body.data).toEqual({ name: member.name, language: null });

    const bad = await request(t.app).put(`${API}/me/language`).set(bearer(token)).send({ language: 'de' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.language).toEqual(['The language must be one of en, sw']);
    const missing = await request(t.app).put(`${API}/me/language`).set(bearer(token)).set('Accept-Language', 'sw').send({});
    expect(missing.status).toBe(422);
    expect(missing.body.errors.language).toEqual(['Sehemu ya lugha inahitajika']);
    expect((await request(t.app).put(`${API}/me/language`).set(bearer(admin)).send({ language: 'sw' })).status).toBe(403);
    expect((await request(t.app).put(`${API}/me/language`).send({ language: 'sw' })).status).toBe(401);

    const ok = await request(t.app).put(`${API}/me/language`).set(bearer(token)).send({ language: ' SW ' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ data: { language: 'sw' } });
    const [row] = await t.ctx.database.db.select({ language: members.language }).from(members).where(eq(members.id, member.id));
    expect(row!.language).toBe('sw');
    expect((await request(t.app).get(`${API}/validate`).set(bearer(token))).body.data.language).toBe('sw');

    // The next sign-in's session carries it.
    const browser = await openBrowser(t.app);
    await browser.post(`${API}/verify/phone`, { unique_id: member.memberNo, consent: true }).expect(200);
    const session = await browser.post(`${API}/verify/sms`, { token: sms.codeFor(member.phone) });
    expect(session.status).toBe(200);
    expect(session.body.language).toBe('sw');

    // null: back to the organisation's default.
    const cleared = await request(t.app).put(`${API}/me/language`).set(bearer(token)).send({ language: null });
    expect(cleared.body).toEqual({ data: { language: null } });
  });

  it('is set by an admin through the member edit', async () => {
    const member = await createMember(t.ctx);
    const res = await request(t.app)
      .post(`${API}/edit/psk/member/${member.id}`)
      .set(bearer(admin))
      .send({ name: member.name, phone: member.phone, email: member.email, county: 'Nairobi', member_no: member.memberNo, language: 'sw' });
    expect(res.status).toBe(200);
    expect(res.body.data.language).toBe('sw');
  });
});

describe("reminders in the member's language", () => {
  it("sends each member the admin's text in their language, the original where there is none", async () => {
    // Those earlier tests' members are on the roll too; only these three are looked at.
    const swahili = await createMember(t.ctx, { language: 'sw', email: 'kumbusho.sw@example.org' });
    const english = await createMember(t.ctx, { language: 'en', email: 'remind.en2@example.org' });
    const byDefault = await createMember(t.ctx, { language: null, email: 'kwa.chaguo@example.org' });
    expect((await putOrganisation({ default_language: 'sw' })).status).toBe(200);

    const bad = await request(t.app)
      .post(`${API}/reminders`)
      .set(bearer(admin))
      .send({ channel: 'email', message: 'Hello {name}', translations: { fr: { message: 'Bonjour' } } });
    expect(bad.status).toBe(422);

    const res = await request(t.app)
      .post(`${API}/reminders`)
      .set(bearer(admin))
      .send({
        channel: 'email',
        message: 'Hello {name}, please vote',
        translations: { sw: { message: 'Habari {name}, tafadhali piga kura' } },
      });
    expect(res.status).toBe(202);
    const mailTo = (email: string) => smtp.messages.find((m) => m.to.includes(email));
    await waitFor(() => [swahili, english, byDefault].every((m) => !!mailTo(m.email)), 15_000, 'reminders');
    expect(mailTo(swahili.email)!.raw).toContain(`Habari ${swahili.name}, tafadhali piga kura`);
    expect(mailTo(byDefault.email)!.raw).toContain(`Habari ${byDefault.name}, tafadhali piga kura`);
    expect(mailTo(byDefault.email)!.raw).toContain('Subject: Kikumbusho:');
    expect(mailTo(english.email)!.raw).toContain(`Hello ${english.name}, please vote`);
    expect(mailTo(english.email)!.raw).toContain('Subject: Reminder:');
  });
});
