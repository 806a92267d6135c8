import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { members, organisation } from '../db/schema';
import { openBrowser } from '../../test/auth/browser';
import { startSmsSink, type SmsSink } from '../../test/auth/sms-sink';
import { startSmtpCapture, type SmtpCapture } from '../../test/auth/smtp-capture';
import type { UpdateOrganisationBody } from '@kura/contract';
import { apiClient, bodyOf, browserClient, untyped } from '../../test/client';
import { createMember, tokenFor } from '../../test/factories';
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

const putOrganisation = (body: UpdateOrganisationBody, token = admin) => apiClient(t.app, token).organisation.updateOrganisation({ body });
const anon = () => apiClient(t.app);
const defaultLanguages = async () => [
  bodyOf(await anon().organisation.getOrganisation(), 200).data.default_language,
  bodyOf(await anon().elections.getElection(), 200).data.default_language,
];

describe("the organisation's default language", () => {
  it('is English at first, in GET organisation and GET election', async () => {
    // GET organisation, then GET election.
    expect(await defaultLanguages()).toEqual(['en', 'en']);
  });

  it('is set by an admin to a shipped language only; a voter may not', async () => {
    const bad = await putOrganisation({ default_language: untyped('fr') });
    expect(bad.status).toBe(422);
    expect(bodyOf(bad, 422).errors?.default_language).toEqual(['The language must be one of en, sw']);
    const voter = await tokenFor(t.ctx, 'voter', (await createMember(t.ctx)).id);
    expect((await putOrganisation({ default_language: 'sw' }, voter)).status).toBe(403);

    const ok = await putOrganisation({ default_language: 'sw' });
    expect(ok.status).toBe(200);
    expect(bodyOf(ok, 200).data.default_language).toBe('sw');
    expect(await defaultLanguages()).toEqual(['sw', 'sw']);
  });

  it('is the language of the sign-in code for a member without one; a member with one keeps theirs', async () => {
    expect((await putOrganisation({ default_language: 'sw' })).status).toBe(200);
    const none = await createMember(t.ctx, { language: null });
    const english = await createMember(t.ctx, { language: 'en' });
    const browser = browserClient(await openBrowser(t.app));
    expect((await browser.auth.verifyPhone({ body: { unique_id: none.memberNo, consent: true } })).status).toBe(200);
    expect((await browser.auth.verifyPhone({ body: { unique_id: english.memberNo, consent: true } })).status).toBe(200);
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
    const me = apiClient(t.app, token);
    expect(bodyOf(await me.auth.validateVoter(), 200).data).toEqual({ name: member.name, language: null });

    const bad = await me.members.setOwnLanguage({ body: { language: untyped('de') } });
    expect(bad.status).toBe(422);
    expect(bodyOf(bad, 422).errors?.language).toEqual(['The language must be one of en, sw']);
    const missing = await me.members.setOwnLanguage({ body: untyped({}), extraHeaders: { 'accept-language': 'sw' } });
    expect(missing.status).toBe(422);
    expect(bodyOf(missing, 422).errors?.language).toEqual(['Sehemu ya lugha inahitajika']);
    expect((await apiClient(t.app, admin).members.setOwnLanguage({ body: { language: 'sw' } })).status).toBe(403);
    expect((await anon().members.setOwnLanguage({ body: { language: 'sw' } })).status).toBe(401);

    // Written any case, with spaces.
    const ok = await me.members.setOwnLanguage({ body: { language: untyped(' SW ') } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ data: { language: 'sw' } });
    const [row] = await t.ctx.database.db.select({ language: members.language }).from(members).where(eq(members.id, member.id));
    expect(row!.language).toBe('sw');
    expect(bodyOf(await me.auth.validateVoter(), 200).data.language).toBe('sw');

    // The next sign-in's session carries it.
    const browser = browserClient(await openBrowser(t.app));
    expect((await browser.auth.verifyPhone({ body: { unique_id: member.memberNo, consent: true } })).status).toBe(200);
    const session = await browser.auth.verifySms({ body: { token: sms.codeFor(member.phone) } });
    expect(session.status).toBe(200);
    expect(bodyOf(session, 200).language).toBe('sw');

    // null: back to the organisation's default.
    const cleared = await me.members.setOwnLanguage({ body: { language: null } });
    expect(cleared.body).toEqual({ data: { language: null } });
  });

  it('is set by an admin through the member edit', async () => {
    const member = await createMember(t.ctx);
    const res = await apiClient(t.app, admin).members.updateMember({
      params: { id: member.id },
      body: { name: member.name, phone: member.phone, email: member.email, county: 'Nairobi', member_no: member.memberNo, language: 'sw' },
    });
    expect(res.status).toBe(200);
    expect(bodyOf(res, 200).data.language).toBe('sw');
  });
});

describe("reminders in the member's language", () => {
  it("sends each member the admin's text in their language, the original where there is none", async () => {
    // Those earlier tests' members are on the roll too; only these three are looked at.
    const swahili = await createMember(t.ctx, { language: 'sw', email: 'kumbusho.sw@example.org' });
    const english = await createMember(t.ctx, { language: 'en', email: 'remind.en2@example.org' });
    const byDefault = await createMember(t.ctx, { language: null, email: 'kwa.chaguo@example.org' });
    expect((await putOrganisation({ default_language: 'sw' })).status).toBe(200);

    const reminders = apiClient(t.app, admin).reminders;
    const bad = await reminders.createReminder({
      body: { channel: 'email', message: 'Hello {name}', translations: untyped({ fr: { message: 'Bonjour' } }) },
    });
    expect(bad.status).toBe(422);

    const res = await reminders.createReminder({
      body: {
        channel: 'email',
        message: 'Hello {name}, please vote',
        translations: { sw: { message: 'Habari {name}, tafadhali piga kura' } },
      },
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
