import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONTACT_CHANGE_AFTER_VOTE } from '@kura/contract';
import { activityLogs, election, members, organisation } from '../../src/db/schema';
import { CURRENT_ELECTION } from '../../src/modules/elections';
import { maskEmail, maskPhone } from '../../src/lib/masking';
import { openBrowser } from '../auth/browser';
import { apiClient, bodyOf, browserClient, importRegisterCsv, multipart } from '../client';
import { startSmsSink, type SmsSink } from '../auth/sms-sink';
import { startSmtpCapture, type SmtpCapture } from '../auth/smtp-capture';
import { COMMANDS } from '../../src/cli/commands';
import { createMember, tokenFor } from '../factories';
import { createTestApp, type TestApp } from '../harness';
import { createElection, createVoter, setVoting, vote, type Election } from '../voting/election';

/**
 * A CSV re-import (or an admin edit) that changes a member's phone or email redirects their next
 * sign-in code. Every such change is logged with masked old and new values and the member is told
 * on the old channel; while voting is open, a member who voted keeps their contact details unless
 * the admin confirms the change explicitly (409 on the edit, a line error on the import).
 */

let t: TestApp;
let sms: SmsSink;
let smtp: SmtpCapture;
let e: Election;
let admin: string;
const ORG = 'Example Cooperative';

beforeAll(async () => {
  [sms, smtp] = await Promise.all([startSmsSink(), startSmtpCapture()]);
  t = await createTestApp({ env: { SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: sms.url, SMTP_URL: smtp.url } });
  await t.ctx.database.db.update(organisation).set({ name: ORG });
  e = await createElection(t.ctx);
  admin = await tokenFor(t.ctx, 'admin');
});
afterAll(async () => {
  await t?.close();
  await sms?.close();
  await smtp?.close();
});

type Row = typeof members.$inferSelect;
const line = (m: Row, change: Partial<Row> = {}) => {
  const r = { ...m, ...change };
  return `${r.memberNo},${r.name},${r.email},${r.phone},Nairobi`;
};
const importCsv = (lines: string[], confirm = false) => importRegisterCsv(apiClient(t.app, admin), lines, confirm);
const edit = (m: Row, change: Partial<Row>, extra: { confirm_contact_change?: boolean } = {}) => {
  const r = { ...m, ...change };
  return apiClient(t.app, admin).members.updateMember({
    params: { id: m.id },
    body: { name: r.name, phone: r.phone, email: r.email, member_no: r.memberNo, county: 'Nairobi', ...extra },
  });
};
const stored = async (id: number) => (await t.ctx.database.db.select().from(members).where(eq(members.id, id)))[0]!;
const contactLog = async (id: number) =>
  t.ctx.database.db
    .select()
    .from(activityLogs)
    .where(and(eq(activityLogs.activity, 'Member contact changed'), eq(activityLogs.userId, id), eq(activityLogs.userType, 'voter')))
    .orderBy(desc(activityLogs.id));
let phones = 0;
const freshPhone = () => `+254799${String(++phones).padStart(6, '0')}`;

describe('a contact change is logged and the member told on the old channel', () => {
  it('re-import changing the phone of a member who signed in: masked log row, notice to the OLD number', async () => {
    const member = await createMember(t.ctx, { phone: freshPhone() });
    const browser = browserClient(await openBrowser(t.app));
    expect((await browser.auth.verifyPhone({ body: { unique_id: member.memberNo, consent: true } })).status).toBe(200);
    const signIn = await browser.auth.verifySms({ body: { token: sms.codeFor(member.phone) } });
    expect(signIn.status, JSON.stringify(signIn.body)).toBe(200);

    const newPhone = freshPhone();
    const res = await importCsv([line(member, { phone: newPhone })]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ created: 0, updated: 1, errors: [] });
    expect((await stored(member.id)).phone).toBe(newPhone);

    const [row, ...more] = await contactLog(member.id);
    expect(more).toEqual([]);
    expect(row!.status).toBe('success');
    expect(row!.data).toContain(member.memberNo);
    expect(row!.data).toContain(maskPhone(member.phone));
    expect(row!.data).toContain(maskPhone(newPhone));
    expect(row!.data).not.toContain(member.phone);
    expect(row!.data).not.toContain(newPhone);
    expect(row!.data).not.toContain('email');

    await vi.waitFor(() => expect(sms.messages.some((m) => m.to === member.phone && m.message.includes('contact details'))).toBe(true));
    const notice = sms.messages.find((m) => m.to === member.phone && m.message.includes('contact details'))!;
    expect(notice.message).toContain(ORG);
    expect(notice.message).not.toContain(newPhone);
    expect(sms.messages.some((m) => m.to === newPhone)).toBe(false);
  });

  it('an edit changing the email: masked log row, notice to the OLD address; unchanged contacts log nothing', async () => {
    const member = await createMember(t.ctx, { email: `old-${phones}@example.org`, phone: freshPhone() });
    const newEmail = `new-${phones}@example.net`;
    const res = await edit(member, { email: newEmail });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [row] = await contactLog(member.id);
    expect(row!.data).toContain(maskEmail(member.email));
    expect(row!.data).toContain(maskEmail(newEmail));
    expect(row!.data).not.toContain(member.email);
    expect(row!.data).not.toContain(newEmail);
    expect(row!.data).not.toContain('phone');
    await vi.waitFor(() => expect(smtp.messages.some((m) => m.to.includes(member.email))).toBe(true));
    expect(smtp.messages.find((m) => m.to.includes(member.email))!.raw).toContain(ORG);
    expect(smtp.messages.some((m) => m.to.includes(newEmail))).toBe(false);

    const rename = await edit({ ...member, email: newEmail }, { name: 'Renamed Only' });
    expect(rename.status).toBe(200);
    expect(await contactLog(member.id)).toHaveLength(1);
  });

  it('a failed notice does not fail the import, and the change is still logged', async () => {
    const member = await createMember(t.ctx, { phone: freshPhone() });
    const before = sms.messages.length;
    sms.failNext(503, 5);
    const res = await importCsv([line(member, { phone: freshPhone() })]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(bodyOf(res, 200).updated).toBe(1);
    expect(await contactLog(member.id)).toHaveLength(1);
    await vi.waitFor(() => expect(t.logs.some((l) => l.includes('contact change notice not delivered'))).toBe(true));
    expect(sms.messages.length).toBe(before);
    sms.failNext(200, 0);
  });
});

describe('while voting is open, a member who voted keeps their contact details unless the admin confirms', () => {
  beforeAll(async () => {
    await setVoting(t.ctx, true);
  });

  it('edit: 409 naming the rule, nothing changed, nothing sent; with confirm_contact_change it goes through and is logged', async () => {
    const { member, token } = await createVoter(t.ctx);
    expect((await vote(t.app, token, { [e.chair.id]: e.alice.id })).status).toBe(201);
    const sent = sms.messages.length;
    const newPhone = freshPhone();
    const res = await edit(member, { phone: newPhone });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(bodyOf(res, 409).issue).toBe(CONTACT_CHANGE_AFTER_VOTE);
    expect((await stored(member.id)).phone).toBe(member.phone);
    expect(await contactLog(member.id)).toEqual([]);
    const declined = await edit(member, { phone: newPhone }, { confirm_contact_change: false });
    expect(declined.status).toBe(409);

    // Other fields still change without a confirmation.
    expect((await edit(member, { name: 'Voted Member Renamed' })).status).toBe(200);

    const confirmed = await edit(member, { phone: newPhone }, { confirm_contact_change: true });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect((await stored(member.id)).phone).toBe(newPhone);
    const [row] = await contactLog(member.id);
    expect(row!.data).toContain(maskPhone(newPhone));
    expect(row!.data).toMatch(/confirmed/);
    await vi.waitFor(() => expect(sms.messages.slice(sent).some((m) => m.to === member.phone)).toBe(true));
  });

  it('import: a line error, nothing imported; with confirm_contact_changes it goes through and is logged', async () => {
    const { member, token } = await createVoter(t.ctx);
    const other = await createMember(t.ctx, { phone: freshPhone() });
    expect((await vote(t.app, token, { [e.nairobi.id]: e.erin.id })).status).toBe(201);
    const newPhone = freshPhone();
    const lines = [line(other, { name: 'Other Renamed' }), line(member, { phone: newPhone })];
    const res = await importCsv(lines);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(bodyOf(res, 200).created + bodyOf(res, 200).updated).toBe(0);
    expect(bodyOf(res, 200).errors).toEqual([
      { line: 3, message: expect.stringContaining(member.memberNo), issue: CONTACT_CHANGE_AFTER_VOTE },
    ]);
    expect((await stored(member.id)).phone).toBe(member.phone);
    expect((await stored(other.id)).name).toBe(other.name);
    expect(await contactLog(member.id)).toEqual([]);

    const confirmed = await importCsv(lines, true);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toMatchObject({ updated: 2, errors: [] });
    expect((await stored(member.id)).phone).toBe(newPhone);
    const [row] = await contactLog(member.id);
    expect(row!.data).toContain(maskPhone(member.phone));
    expect(row!.data).toMatch(/confirmed/);
  });

  it('CLI members:import: the same line error, and --confirm-contact-changes; stopping waits for the notice', async () => {
    const { member, token } = await createVoter(t.ctx);
    expect((await vote(t.app, token, { [e.chair.id]: e.alice.id })).status).toBe(201);
    const newPhone = freshPhone();
    const file = join(t.dataDir, 'contact-change.csv');
    writeFileSync(file, `member_no,name,email,phone,branch\n${line(member, { phone: newPhone })}\n`);
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const said = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect(await COMMANDS['members:import']!.run(t.ctx, [file])).toBe(1);
      expect(quiet.mock.calls.flat().join('\n')).toContain(CONTACT_CHANGE_AFTER_VOTE);
      expect((await stored(member.id)).phone).toBe(member.phone);
      expect(await COMMANDS['members:import']!.run(t.ctx, [file, '--confirm-contact-changes'])).toBe(0);
    } finally {
      quiet.mockRestore();
      said.mockRestore();
    }
    expect((await stored(member.id)).phone).toBe(newPhone);
    await t.ctx.notices.stop();
    expect(sms.messages.some((m) => m.to === member.phone && m.message.includes('contact details'))).toBe(true);
  });

  it('a paused election counts as open; a member who did not vote may change without confirming', async () => {
    await setVoting(t.ctx, false);
    await t.ctx.database.db.update(election).set({ openedAt: new Date() }).where(eq(election.id, CURRENT_ELECTION));
    try {
      const { member, token } = await createVoter(t.ctx);
      await setVoting(t.ctx, true);
      expect((await vote(t.app, token, { [e.chair.id]: e.alice.id })).status).toBe(201);
      await setVoting(t.ctx, false);
      const res = await edit(member, { email: `paused-${phones}@example.org` });
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      const fresh = await createMember(t.ctx, { phone: freshPhone() });
      expect((await importCsv([line(fresh, { phone: freshPhone() })])).body).toMatchObject({ updated: 1, errors: [] });
    } finally {
      await setVoting(t.ctx, true);
    }
  });

  it('the candidate edit cannot change a voted member’s contact details either', async () => {
    const { member, token } = await createVoter(t.ctx);
    expect((await vote(t.app, token, { [e.chair.id]: e.alice.id })).status).toBe(201);
    const res = await apiClient(t.app, admin).candidates.updateCandidate({
      params: { id: member.id },
      body: multipart({ name: member.name, phone: freshPhone(), email: member.email ?? undefined, county: 'Nairobi' }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(bodyOf(res, 409).issue).toBe(CONTACT_CHANGE_AFTER_VOTE);
    expect((await stored(member.id)).phone).toBe(member.phone);
  });
});
