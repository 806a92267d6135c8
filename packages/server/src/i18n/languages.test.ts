import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { election, organisation } from '../db/schema';
import { CURRENT_ELECTION } from '../modules/elections';
import { openBrowser } from '../../test/auth/browser';
import { wrongCode } from '../../test/auth/guessing';
import { createGoogleSigner, TEST_GOOGLE_CLIENT_ID, type GoogleSigner } from '../../test/auth/google-signer';
import { startSmsSink, type SmsSink } from '../../test/auth/sms-sink';
import { startSmtpCapture, type SmtpCapture } from '../../test/auth/smtp-capture';
import { apiClient, bodyOf, browserClient, untyped } from '../../test/client';
import { createMember, createStaff, tokenFor } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { waitFor } from '../../test/voting/sockets';
import { createElection, setVoting, type Election } from '../../test/voting/election';

/**
 * The members' languages over HTTP (docs/architecture.md "Languages"): error messages follow
 * Accept-Language with the envelope unchanged, and the texts sent to a member (sign-in codes,
 * contact-change notices, reminders) go out in the member's language, through a real SMS webhook
 * sink and a real SMTP server.
 */

let t: TestApp;
let sms: SmsSink;
let smtp: SmtpCapture;
let e: Election;
let admin: string;
let google: GoogleSigner;
/** The header of one call: the reader's languages. */
const lang = (value: string) => ({ 'accept-language': value });

beforeAll(async () => {
  [sms, smtp, google] = await Promise.all([startSmsSink(), startSmtpCapture(), createGoogleSigner()]);
  t = await createTestApp({
    env: {
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: sms.url,
      SMTP_URL: smtp.url,
      APP_NAME: 'Kura',
      MIX_INTERVAL_MS: '3600000',
      GOOGLE_CLIENT_ID: TEST_GOOGLE_CLIENT_ID,
    },
  });
  t.ctx.google.certs = google.certs;
  await t.ctx.database.db.update(organisation).set({ name: 'Chama ya Ushirika' });
  e = await createElection(t.ctx);
  admin = await tokenFor(t.ctx, 'admin');
});
afterAll(async () => {
  await t?.close();
  await Promise.all([sms?.close(), smtp?.close()]);
});

describe('error messages follow Accept-Language', () => {
  it('answers a wrong code in Kiswahili for sw, in English for fr; status, issue and envelope unchanged', async () => {
    const member = await createMember(t.ctx);
    const browser = browserClient(await openBrowser(t.app));
    expect((await browser.auth.verifyPhone({ body: { unique_id: member.memberNo, consent: true } })).status).toBe(200);
    const code = sms.codeFor(member.phone);
    const verify = (language: string) => browser.auth.verifySms({ body: { token: wrongCode(code) }, extraHeaders: lang(language) });

    const sw = await verify('sw-KE,sw;q=0.9,en;q=0.8');
    expect(sw.status).toBe(401);
    expect(sw.body).toEqual({ message: 'Msimbo si sahihi, tafadhali jaribu tena', issue: 'The code is incorrect, please try again' });
    expect(sw.headers.get('vary')).toMatch(/Accept-Language/i);

    const fr = await verify('fr-FR,fr;q=0.9');
    expect(fr.status).toBe(401);
    expect(fr.body).toEqual({ message: 'The code is incorrect, please try again', issue: 'The code is incorrect, please try again' });

    // q-values count: English preferred over Kiswahili.
    const en = await verify('sw;q=0.5, en');
    expect(bodyOf(en, 401).message).toBe('The code is incorrect, please try again');
  });

  it('answers an unknown member and a validation failure in Kiswahili, the field keys as they are', async () => {
    const browser = browserClient(await openBrowser(t.app));
    const unknown = await browser.auth.verifyPhone({ body: { unique_id: '99999998', consent: true }, extraHeaders: lang('sw') });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Hakuna akaunti iliyopatikana, jaribu kujisajili', issue: 'No such user exists' });

    const invalid = await browser.auth.verifyPhone({ body: { unique_id: 'ab', consent: untyped(false) }, extraHeaders: lang('sw') });
    expect(invalid.status).toBe(422);
    const refused = bodyOf(invalid, 422);
    const errors = refused.errors ?? {};
    expect(Object.keys(errors).sort()).toEqual(['consent', 'unique_id']);
    expect(errors.unique_id).toContain('Lazima iwe na angalau herufi 3');
    expect(errors.consent).toEqual(['Lazima ukubali ukusanyaji wa data, sera ya faragha na masharti ili kuendelea']);
    expect(refused.message).toBe(errors[Object.keys(errors)[0]!]![0]);
  });

  it('answers a vote while voting is closed in Kiswahili, and a bad choice per field', async () => {
    const member = await createMember(t.ctx);
    const token = await tokenFor(t.ctx, 'voter', member.id);
    await setVoting(t.ctx, false);
    const voter = apiClient(t.app, token);
    const closed = await voter.ballots.castVote({ body: { candidates: { [e.chair.id]: e.alice.id } }, extraHeaders: lang('sw') });
    expect(closed.status).toBe(403);
    expect(closed.body).toEqual({ message: 'Upigaji kura umesimamishwa kwa sasa' });
    const english = await voter.ballots.castVote({ body: { candidates: { [e.chair.id]: e.alice.id } }, extraHeaders: lang('fr') });
    expect(english.body).toEqual({ message: 'Voting is currently disabled' });

    await setVoting(t.ctx, true);
    const wrong = await voter.ballots.castVote({ body: { candidates: { [e.chair.id]: e.carol.id } }, extraHeaders: lang('sw') });
    expect(wrong.status).toBe(422);
    expect(bodyOf(wrong, 422).errors).toEqual({
      [`candidates.${e.chair.id}`]: [`Mgombea uliyemchagua hagombei nafasi ya ${e.chair.name} Kitaifa`],
    });
  });

  it('answers the refusals of a closed election in Kiswahili, raised by code: texts the English matcher never knew (issue 38)', async () => {
    const asAdmin = apiClient(t.app, admin);
    const created = await asAdmin.organisation.createElection({ body: { title: 'Closed by code' } });
    expect(created.status).toBe(201);
    const id = bodyOf(created, 201).data.id!;
    await t.ctx.database.db.update(election).set({ closedAt: new Date() }).where(eq(election.id, id));
    const edit = (language: string) =>
      asAdmin.organisation.updateElectionById({
        params: { id },
        body: { results_visibility: 'after_close' },
        extraHeaders: lang(language),
      });
    const sw = await edit('sw');
    expect(sw.status).toBe(409);
    expect(sw.body).toEqual({
      message: 'Uchaguzi umefungwa; ratiba yake, mwonekano wa matokeo na wanaostahili kupiga kura haviwezi kubadilishwa tena',
    });
    // English is the spec's wording, word for word.
    expect((await edit('en')).body).toEqual({
      message: 'The election is closed; its schedule, results visibility and electorate can no longer change',
    });
    const position = await asAdmin.setup.createPosition({
      query: { election_id: id },
      body: { name: 'Mweka Hazina' },
      extraHeaders: lang('sw'),
    });
    expect(position.status).toBe(409);
    expect(position.body).toEqual({ message: 'Uchaguzi umefungwa; maandalizi yake hayawezi kubadilishwa tena' });
  });

  it('answers a refusal whose values are a list in Kiswahili, each part and the joining word too (issue 38)', async () => {
    const asAdmin = apiClient(t.app, admin);
    const branch = bodyOf(await asAdmin.setup.createBranch({ body: { name: 'Voi' } }), 201).data;
    await createMember(t.ctx, { branch: 'Voi' });
    expect((await asAdmin.setup.createPosition({ body: { name: 'Voi Delegate', branch_id: branch.id } })).status).toBe(201);
    const remove = (language: string) => asAdmin.setup.deleteBranch({ params: { id: branch.id }, extraHeaders: lang(language) });
    const sw = await remove('sw');
    expect(sw.status).toBe(409);
    expect(sw.body).toEqual({ message: 'Voi inatumiwa na mwanachama 1 na nafasi 1, kwa hivyo haiwezi kufutwa' });
    // English is the wording it always had: no comma before "and".
    expect((await remove('en')).body).toEqual({ message: 'Voi is used by 1 member and 1 position, so it cannot be deleted' });
    // A text the English matcher never knew (it was written in the code): now by code, so Kiswahili.
    const me = await createStaff(t.ctx, { role: 'admin' });
    const self = await apiClient(t.app, await tokenFor(t.ctx, 'admin', me.id)).staff.deleteStaff({
      params: { id: me.id },
      extraHeaders: lang('sw'),
    });
    expect(self.status).toBe(409);
    expect(bodyOf(self, 409).message).toBe('Huwezi kujiondoa mwenyewe');
  });

  it("answers a member's field refusals in Kiswahili, by code beside the contract's texts (issue 38)", async () => {
    const taken = await createMember(t.ctx);
    const add = (language: string) =>
      apiClient(t.app, admin).members.createMember({
        body: { member_no: taken.memberNo, name: 'Wanjiku Kamau', phone: '0712 345 678', branch: 'No Such Branch' },
        extraHeaders: lang(language),
      });
    const sw = await add('sw');
    expect(sw.status).toBe(422);
    expect(bodyOf(sw, 422).errors).toEqual({
      branch: ['Tawi lililochaguliwa halipo'],
      member_no: ['Nambari ya uanachama tayari imechukuliwa'],
    });
    expect(bodyOf(await add('en'), 422).errors).toEqual({
      branch: ['The selected branch does not exist'],
      member_no: ['The member number has already been taken'],
    });
  });

  it('answers a rate limit and a receipt check in Kiswahili; no header means English', async () => {
    const member = await createMember(t.ctx);
    const browser = browserClient(await openBrowser(t.app));
    expect((await browser.auth.verifyPhone({ body: { unique_id: member.memberNo, consent: true } })).status).toBe(200);
    const again = await browser.auth.verifyPhone({ body: { unique_id: member.memberNo, consent: true }, extraHeaders: lang('sw') });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(again.body).toEqual({
      message: 'Msimbo ulitumwa chini ya dakika moja iliyopita, tafadhali subiri kabla ya kuomba mwingine',
    });

    const anon = apiClient(t.app);
    const receipt = await anon.elections.getReceipt({ params: { vvpat: 'VP-0000-0000-0000' }, extraHeaders: lang('sw') });
    expect(receipt.status).toBe(404);
    expect(receipt.body).toEqual({ message: 'Hakuna kura yenye nambari hii ya risiti' });
    const plain = await anon.elections.getReceipt({ params: { vvpat: 'VP-0000-0000-0000' } });
    expect(plain.body).toEqual({ message: 'No ballot has this receipt code' });
    const unauthenticated = await anon.auth.validateVoter({ extraHeaders: lang('sw') });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.body).toEqual({ message: 'Hujaingia' });
  });
});

describe("texts sent to a member go out in the member's language", () => {
  it('texts the sign-in code in Kiswahili to a sw member, in English otherwise, whatever the browser asks', async () => {
    const swahili = await createMember(t.ctx, { language: 'sw' });
    const english = await createMember(t.ctx, { language: null });
    const browser = browserClient(await openBrowser(t.app));
    const signIn = (memberNo: string, language: string) =>
      browser.auth.verifyPhone({ body: { unique_id: memberNo, consent: true }, extraHeaders: lang(language) });
    expect((await signIn(swahili.memberNo, 'en')).status).toBe(200);
    expect((await signIn(english.memberNo, 'sw')).status).toBe(200);
    const toSwahili = sms.messages.filter((m) => m.to === swahili.phone).at(-1)!.message;
    const toEnglish = sms.messages.filter((m) => m.to === english.phone).at(-1)!.message;
    const swCode = sms.codeFor(swahili.phone);
    const enCode = sms.codeFor(english.phone);
    expect(toSwahili).toBe(`${swCode} ni msimbo wako wa kuingia Kura. Unakwisha baada ya dakika 5. Usimpe mtu yeyote.`);
    expect(toEnglish).toBe(`${enCode} is your Kura sign-in code. It expires in 5 minutes. Do not share it.`);
  });

  it('texts the sign-up code in Kiswahili to a sw member', async () => {
    const member = await createMember(t.ctx, { memberNo: '8642', phone: '0733000864', language: 'sw' });
    const browser = browserClient(await openBrowser(t.app));
    const credential = await google.idToken({ email: 'mwanachama.google@gmail.com', sub: 'google-sub-sw' });
    const started = await browser.auth.signup({ body: { pfNumber: member.memberNo, phone: member.phone, credential } });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const code = sms.codeFor(member.phone);
    expect(sms.messages.filter((m) => m.to === member.phone).at(-1)!.message).toBe(
      `${code} ni msimbo wako wa Kura wa kuunganisha akaunti ya Google na uanachama wako. Unakwisha baada ya dakika 5. Kama hukujisajili, usimpe mtu yeyote.`,
    );
  });

  it('tells a sw member of a contact change in Kiswahili, by SMS and by e-mail', async () => {
    const member = await createMember(t.ctx, { language: 'sw', email: 'mwanachama@example.org', phone: '0722000111' });
    const res = await apiClient(t.app, admin).members.updateMember({
      params: { id: member.id },
      body: { name: member.name, phone: '0722000222', email: 'mpya@example.org', county: 'Nairobi', member_no: member.memberNo },
    });
    expect(res.status).toBe(200);
    await waitFor(
      () => sms.messages.some((m) => m.to === '0722000111') && smtp.messages.some((m) => m.to.includes('mwanachama@example.org')),
      10_000,
      'contact change notices',
    );
    const text = sms.messages.find((m) => m.to === '0722000111')!.message;
    expect(text).toBe(
      'Mawasiliano yako ya Chama ya Ushirika yamebadilishwa: nambari ya simu na barua pepe uliyotumiwa ujumbe huu hazitumiki tena kwenye akaunti yako. Misimbo ya kuingia sasa itatumwa kwa mpya. Kama hukuomba mabadiliko haya, wasiliana na Chama ya Ushirika mara moja.',
    );
    const mail = smtp.messages.find((m) => m.to.includes('mwanachama@example.org'))!;
    expect(mail.raw).toContain('Subject: Mawasiliano yako ya Chama ya Ushirika yamebadilishwa');
  });

  it("puts a reminder e-mail's subject in each member's language", async () => {
    const swahili = await createMember(t.ctx, { language: 'sw', email: 'kumbuka.sw@example.org' });
    const english = await createMember(t.ctx, { email: 'remind.en@example.org' });
    await t.ctx.database.db.update(election).set({ title: 'Uchaguzi 2026' }).where(eq(election.id, CURRENT_ELECTION));
    const res = await apiClient(t.app, admin).reminders.createReminder({ body: { channel: 'email', message: 'Habari {name}' } });
    expect(res.status).toBe(202);
    const mailTo = (email: string) => smtp.messages.find((m) => m.to.includes(email));
    await waitFor(() => !!mailTo(swahili.email) && !!mailTo(english.email), 15_000, 'reminders');
    expect(mailTo(swahili.email)!.raw).toContain('Subject: Kikumbusho: Uchaguzi 2026\r\n');
    expect(mailTo(english.email)!.raw).toContain('Subject: Reminder: Uchaguzi 2026\r\n');
  });
});
