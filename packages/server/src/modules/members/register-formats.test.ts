import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_MEMBER_NO_MESSAGE,
  IDENTIFIER_FORMAT_MESSAGE,
  MEMBER_NO_PATTERN_INVALID,
  PHONE_FORMAT_MESSAGE,
  inEnglish,
} from '@kura/contract';
import { electionRoll, members, nominations, nominationSupporters, participation, sessions } from '../../db/schema';
import { CURRENT_ELECTION } from '../elections';
import { apiClient, bodyOf, browserClient, multipart, type ApiClient } from '../../../test/client';
import { openBrowser } from '../../../test/auth/browser';
import { startSmsSink, type SmsSink } from '../../../test/auth/sms-sink';
import { createCandidate, createMember, createPosition, createStaff, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { MEMBER_IN_NOMINATION, MEMBER_ON_FROZEN_ROLL, MEMBER_STANDS, MEMBER_VOTED } from './delete-member';

/**
 * The register accepts ordinary data (docs/api.md "Running it on your own"): member numbers under
 * the organisation's pattern, optional e-mails, phones in every Kenyan spelling stored in E.164,
 * one member added or removed, and the import's CSV template.
 */
let t: TestApp;
let sms: SmsSink;
let adminToken: string;
let admin: ApiClient;
let voter: ApiClient;

beforeAll(async () => {
  sms = await startSmsSink();
  t = await createTestApp({ env: { SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: sms.url } });
  const staff = await createStaff(t.ctx, { role: 'admin' });
  adminToken = await tokenFor(t.ctx, 'admin', staff.id);
  admin = apiClient(t.app, adminToken);
  voter = apiClient(t.app, await tokenFor(t.ctx, 'voter'));
});
afterAll(async () => {
  await t?.close();
  await sms?.close();
});

const upload = (csv: string) =>
  admin.members.importMembers({ query: {}, body: multipart({ file: { file: csv, filename: 'members.csv' } }) });
const stored = async (nos: string[]) =>
  Object.fromEntries(
    (await t.ctx.database.db.select().from(members).where(inArray(members.memberNo, nos))).map((m) => [
      m.memberNo,
      { phone: m.phone, email: m.email },
    ]),
  );
const setPattern = (member_no_pattern: string | null) => admin.organisation.updateOrganisation({ body: { member_no_pattern } });

describe('members import: ordinary data', () => {
  it('takes member numbers like UFC-001, no e-mail, and phones in every Kenyan spelling, stored in E.164', async () => {
    const csv = [
      'member_no,name,email,phone,branch',
      'UFC-001,Jane Wanjiru,, +254 722 345 002,Nairobi',
      'UFC-002,John Otieno,,254712345004,Nairobi',
      'UFC-003,Mary Akinyi,mary@example.org,0712-345-005,Nairobi',
      'UFC/004,Peter Kamau,,0712 345 001,Nairobi',
      'UFC.005,Ann Njeri,,0712.345.006,Nairobi',
      'UFC-006,Paul Mwangi,,0110 345 007,Nairobi',
    ].join('\n');
    const res = await upload(csv);
    expect(bodyOf(res, 200)).toEqual({ created: 6, updated: 0, errors: [] });
    expect(await stored(['UFC-001', 'UFC-002', 'UFC-003', 'UFC/004', 'UFC.005', 'UFC-006'])).toEqual({
      'UFC-001': { phone: '+254722345002', email: null },
      'UFC-002': { phone: '+254712345004', email: null },
      'UFC-003': { phone: '+254712345005', email: 'mary@example.org' },
      'UFC/004': { phone: '+254712345001', email: null },
      'UFC.005': { phone: '+254712345006', email: null },
      'UFC-006': { phone: '+254110345007', email: null },
    });
    // Listed with an empty e-mail and the E.164 phone.
    const listed = bodyOf(await admin.members.searchMembers({ query: { query: 'UFC-001' } }), 200).data;
    expect(listed[0]).toMatchObject({ member_no: 'UFC-001', email: '', phone: '+254722345002' });
  });

  it('takes a file without an email column; a re-import in another spelling changes nothing', async () => {
    const first = await upload(['member_no,name,phone,branch', 'NOE-1,No Email,0733 111 222,Nairobi'].join('\n'));
    expect(bodyOf(first, 200)).toEqual({ created: 1, updated: 0, errors: [] });
    const again = await upload(['member_no,name,phone,branch', 'NOE-1,No Email,+254-733-111-222,Nairobi'].join('\n'));
    expect(bodyOf(again, 200)).toEqual({ created: 0, updated: 1, errors: [] });
    expect(await stored(['NOE-1'])).toEqual({ 'NOE-1': { phone: '+254733111222', email: null } });
  });

  it('refuses a bad phone or member number as a line error naming the line and column, importing nothing', async () => {
    const csv = [
      'member_no,name,email,phone,branch',
      'BAD-1,Good Line,,0712 345 678,Nairobi',
      'BAD-2,Landline,,020 123 4567,Nairobi',
      'BAD 3,Space In Number,,0712 345 679,Nairobi',
      'BAD-4,Short Phone,,0712,Nairobi',
      'BAD-5,Bad Email,not-an-email,0712 345 670,Nairobi',
    ].join('\n');
    const body = bodyOf(await upload(csv), 200);
    expect(body.created).toBe(0);
    expect(body.errors).toEqual([
      { line: 3, message: `phone: ${inEnglish(PHONE_FORMAT_MESSAGE)}` },
      { line: 4, message: `member_no: ${inEnglish(DEFAULT_MEMBER_NO_MESSAGE)}` },
      { line: 5, message: `phone: ${inEnglish(PHONE_FORMAT_MESSAGE)}` },
      { line: 6, message: 'email: Enter a valid email address' },
    ]);
    expect(await stored(['BAD-1'])).toEqual({});
  });
});

describe('member_no_pattern', () => {
  it('is null by default, set and cleared by the organisation update; an invalid expression is refused naming the field', async () => {
    expect(bodyOf(await admin.organisation.getOrganisation(), 200).data.member_no_pattern).toBeNull();
    const bad = await setPattern('CMAKE(\\d+');
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ errors: { member_no_pattern: [inEnglish(MEMBER_NO_PATTERN_INVALID)] } });
    expect(bodyOf(await setPattern('\\d+|CMAKE\\d+/\\d+'), 200).data.member_no_pattern).toBe('\\d+|CMAKE\\d+/\\d+');
    expect(bodyOf(await admin.organisation.getOrganisation(), 200).data.member_no_pattern).toBe('\\d+|CMAKE\\d+/\\d+');
    try {
      // The import, POST members and the edit follow it; a number kept as it is stays editable.
      const imported = bodyOf(
        await upload(
          ['member_no,name,phone,branch', 'PAT-1,Pattern Miss,0712 000 111,Nairobi', '7001,Pattern Hit,0712 000 112,Nairobi'].join('\n'),
        ),
        200,
      );
      expect(imported.errors).toEqual([
        { line: 2, message: "member_no: The member number does not follow the organisation's format (\\d+|CMAKE\\d+/\\d+)" },
      ]);
      const created = await admin.members.createMember({
        body: { member_no: 'PAT-2', name: 'Pat', phone: '0712000113', branch: 'Nairobi' },
      });
      expect(created.status).toBe(422);
      expect(created.body).toMatchObject({ errors: { member_no: [expect.stringContaining("organisation's format")] } });
      expect(
        (await admin.members.createMember({ body: { member_no: 'CMAKE12/34', name: 'Pat', phone: '0712000113', branch: 'Nairobi' } }))
          .status,
      ).toBe(201);
      const old = await createMember(t.ctx, { memberNo: 'OLD-1' });
      const keep = await admin.members.updateMember({
        params: { id: old.id },
        body: { name: 'Kept', phone: old.phone, county: 'Nairobi', member_no: 'OLD-1' },
      });
      expect(keep.status).toBe(200);
      const change = await admin.members.updateMember({
        params: { id: old.id },
        body: { name: 'Kept', phone: old.phone, county: 'Nairobi', member_no: 'OLD-2' },
      });
      expect(change.status).toBe(422);
      // Sign-in takes what the pattern accepts, an e-mail or a phone; anything else gets the spec's message.
      const browser = browserClient(await openBrowser(t.app));
      const refused = await browser.auth.verifyPhone({ body: { unique_id: 'UFC-001', consent: true } });
      expect(refused.status).toBe(422);
      expect(bodyOf(refused, 422).errors).toEqual({ unique_id: [inEnglish(IDENTIFIER_FORMAT_MESSAGE)] });
      expect((await browser.auth.verifyPhone({ body: { unique_id: '99999999', consent: true } })).status).toBe(404);
    } finally {
      expect(bodyOf(await setPattern(''), 200).data.member_no_pattern).toBeNull();
    }
    // Back to the default: UFC-001 is a member number again, and its code goes to the E.164 phone.
    const member = await createMember(t.ctx, { memberNo: 'SIGN-1', phone: '+254712999001' });
    const browser = browserClient(await openBrowser(t.app));
    const sent = await browser.auth.verifyPhone({ body: { unique_id: 'SIGN-1', consent: true } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sms.codeFor(member.phone)).toMatch(/^\d{6}$/);
  });
});

describe('POST members', () => {
  it('adds one member under the import rules: 201 with the E.164 phone and no e-mail', async () => {
    const res = await admin.members.createMember({
      body: { member_no: 'ADD-1', name: 'Added One', phone: '0712-345-111', branch: 'Nairobi', language: 'sw' },
    });
    expect(res.status).toBe(201);
    expect(bodyOf(res, 201).data).toMatchObject({
      member_no: 'ADD-1',
      name: 'Added One',
      phone: '+254712345111',
      email: '',
      county: 'Nairobi',
      language: 'sw',
      psk_position_ids: [],
    });
    const withEmail = await admin.members.createMember({
      body: { member_no: 'ADD-2', name: 'Added Two', phone: '254712345112', email: 'Two@Example.org', branch: 'Nairobi' },
    });
    expect(bodyOf(withEmail, 201).data).toMatchObject({ email: 'two@example.org', phone: '+254712345112', language: null });
  });

  it('refuses a bad phone, member number, branch, a taken number or e-mail with 422 naming the field', async () => {
    const bad = await admin.members.createMember({ body: { member_no: 'A B', name: 'X', phone: '0712', branch: 'Atlantis' } });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ errors: { phone: [inEnglish(PHONE_FORMAT_MESSAGE)] } });
    const format = await admin.members.createMember({ body: { member_no: 'A B', name: 'X', phone: '0712345113', branch: 'Atlantis' } });
    expect(format.body).toMatchObject({
      errors: { member_no: [inEnglish(DEFAULT_MEMBER_NO_MESSAGE)], branch: ['The selected branch does not exist'] },
    });
    const taken = await admin.members.createMember({
      body: { member_no: 'ADD-1', name: 'X', phone: '0712345114', email: 'two@example.org', branch: 'Nairobi' },
    });
    expect(taken.body).toMatchObject({
      errors: { member_no: ['The member number has already been taken'], email: ['The email has already been taken'] },
    });
    expect(
      (await voter.members.createMember({ body: { member_no: 'V-1', name: 'X', phone: '0712345115', branch: 'Nairobi' } })).status,
    ).toBe(403);
  });
});

describe('DELETE members/{id}', () => {
  it('removes a member who left no trace (204) and ends their sessions; 404 for an unknown one', async () => {
    const m = await createMember(t.ctx);
    await tokenFor(t.ctx, 'voter', m.id);
    const res = await admin.members.deleteMember({ params: { id: m.id } });
    expect(res.status).toBe(204);
    expect(await t.ctx.database.db.select().from(members).where(eq(members.id, m.id))).toEqual([]);
    expect(await t.ctx.database.db.select().from(sessions).where(eq(sessions.subjectId, m.id))).toEqual([]);
    expect((await admin.members.deleteMember({ params: { id: m.id } })).status).toBe(404);
  });

  it('answers 409 with the reason once the member voted, stands, or is on a frozen roll', async () => {
    const position = await createPosition(t.ctx);
    const voted = await createMember(t.ctx);
    await t.ctx.database.db.insert(participation).values({ memberId: voted.id, positionId: position.id, receiptEnc: 'sealed' });
    const stands = await createCandidate(t.ctx, [position.id]);
    const onRoll = await createMember(t.ctx);
    await t.ctx.database.db
      .insert(electionRoll)
      .values({ electionId: CURRENT_ELECTION, memberId: onRoll.id, branchId: onRoll.branchId, memberNo: onRoll.memberNo, branch: 'any' });
    // Named in a nomination, even a withdrawn one: the nominee and a seconder (the evidence pack lists them).
    const nominee = await createMember(t.ctx, { onRoll: false });
    const seconder = await createMember(t.ctx, { onRoll: false });
    const [nomination] = await t.ctx.database.db
      .insert(nominations)
      .values({ electionId: CURRENT_ELECTION, positionId: position.id, nomineeId: nominee.id, createdBy: nominee.id, status: 'withdrawn' })
      .returning({ id: nominations.id });
    await t.ctx.database.db
      .insert(nominationSupporters)
      .values({ nominationId: nomination!.id, memberId: seconder.id, role: 'seconder', sort: 0 });
    for (const [m, message] of [
      [voted, MEMBER_VOTED],
      [stands, MEMBER_STANDS],
      [onRoll, MEMBER_ON_FROZEN_ROLL],
      [nominee, MEMBER_IN_NOMINATION],
      [seconder, MEMBER_IN_NOMINATION],
    ] as const) {
      const res = await admin.members.deleteMember({ params: { id: m.id } });
      expect(res.status).toBe(409);
      expect((res.body as { message: string }).message).toBe(message);
      expect(await t.ctx.database.db.select({ id: members.id }).from(members).where(eq(members.id, m.id))).toHaveLength(1);
    }
  });
});

describe('GET members/import/template', () => {
  it('answers a CSV with the header and two example lines, which the import takes as it is', async () => {
    const res = await apiClient(t.app, adminToken).members.getImportTemplate();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const template = bodyOf(res, 200);
    const lines = template.trim().split('\r\n');
    expect(lines[0]).toBe('member_no,name,email,phone,branch,language');
    expect(lines).toHaveLength(3);
    // The template's member numbers may exist already (imported above): they are updated then.
    const imported = bodyOf(await upload(template), 200);
    expect(imported.errors).toEqual([]);
    expect(imported.created + imported.updated).toBe(2);
    expect((await apiClient(t.app).members.getImportTemplate()).status).toBe(401);
  });
});
