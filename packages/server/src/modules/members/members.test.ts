import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE_FORMAT_MESSAGE, inEnglish } from '@kura/contract';
import { COMMANDS } from '../../cli/commands';
import { activityLogs, candidacies, items, members, organisation, participation } from '../../db/schema';
import { apiClient, bodyOf, multipart, untyped, type ApiClient } from '../../../test/client';
import { bearer, createCandidate, createMember, createPosition, createStaff, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
let adminToken: string;
let adminName: string;
let admin: ApiClient;
let voter: ApiClient;
let agent: ApiClient;
let anon: ApiClient;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_DETAILS_PER_HOUR: '6' } });
  const staff = await createStaff(t.ctx, { role: 'admin', name: 'Alice Admin' });
  adminName = staff.name;
  const tokens = await Promise.all([tokenFor(t.ctx, 'admin', staff.id), tokenFor(t.ctx, 'voter'), tokenFor(t.ctx, 'agent')]);
  adminToken = tokens[0];
  [admin, voter, agent] = tokens.map((token) => apiClient(t.app, token)) as [ApiClient, ApiClient, ApiClient];
  anon = apiClient(t.app);
});
afterAll(async () => {
  await t?.close();
});

/** The member edit of `id` with the given body, as the admin. */
const edit = (id: number, body: Parameters<ApiClient['members']['updateMember']>[0]['body']) =>
  admin.members.updateMember({ params: { id }, body });
const assign = (body: Parameters<ApiClient['members']['assignPositions']>[0]['body']) => admin.members.assignPositions({ body });
const search = (query: NonNullable<Parameters<ApiClient['members']['searchMembers']>[0]>['query']) =>
  admin.members.searchMembers({ query });

const logsFor = (activity: string) => t.ctx.database.db.select().from(activityLogs).where(eq(activityLogs.activity, activity));

describe('access', () => {
  const adminRoutes: [string, (api: ApiClient) => Promise<{ status: number; body: unknown }>][] = [
    ['listMembers', (api) => api.members.listMembers()],
    ['searchMembers', (api) => api.members.searchMembers({ query: { query: 'x' } })],
    ['updateMember', (api) => api.members.updateMember({ params: { id: 1 }, body: untyped({}) })],
    ['assignPositions', (api) => api.members.assignPositions({ body: untyped({}) })],
    ['importMembers', (api) => api.members.importMembers({ query: {}, body: untyped({}) })],
    ['listBranches', (api) => api.members.listBranches()],
    ['listCandidatePositions', (api) => api.members.listCandidatePositions()],
  ];

  it('answers 401 without a token and 403 for a voter or agent on every admin route', async () => {
    for (const [route, call] of adminRoutes) {
      const unsigned = await call(anon);
      expect(unsigned.status, route).toBe(401);
      for (const api of [voter, agent]) {
        const res = await call(api);
        expect(res.status, route).toBe(403);
        expect((res.body as { message: string }).message).toEqual(expect.any(String));
      }
    }
  });

  it('serves the public positions list to anyone', async () => {
    const res = await anon.members.listPositions();
    expect(res.status).toBe(200);
    const { data } = bodyOf(res, 200);
    expect(data[0]).toMatchObject({ id: expect.any(Number), name: 'Chairperson', level: 'National' });
    expect(data.some((p) => p.level === 'Nairobi')).toBe(true);
  });
});

describe('reference data', () => {
  it('lists branches as {data: {data: Branch[]}} sorted by name', async () => {
    const res = await admin.members.listBranches();
    expect(res.status).toBe(200);
    const names = bodyOf(res, 200).data.data.map((b) => b.name);
    expect(names).toContain('Nairobi');
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));
  });

  it('lists candidate positions as {data: {data: Position[]}}, national first', async () => {
    const res = await admin.members.listCandidatePositions();
    expect(res.status).toBe(200);
    expect(
      bodyOf(res, 200)
        .data.data.slice(0, 5)
        .map((p) => p.level),
    ).toEqual(Array(5).fill('National'));
  });
});

describe('listing and search', () => {
  let alpha: Awaited<ReturnType<typeof createMember>>;
  beforeAll(async () => {
    alpha = await createMember(t.ctx, {
      memberNo: '777001',
      name: 'Zebedee Alpha',
      email: 'zeb.alpha@search.test',
      phone: '0799000111',
      branch: 'Kisumu',
    });
    await createMember(t.ctx, {
      memberNo: '777002',
      name: 'Zebedee Beta',
      email: 'beta_100%@search.test',
      phone: '0799000222',
      branch: 'Nakuru',
    });
    await createMember(t.ctx, {
      memberNo: '777003',
      name: 'Gamma Person',
      email: 'gamma@search.test',
      phone: '0799000333',
      branch: 'Kisumu',
    });
    for (let i = 0; i < 9; i++) await createMember(t.ctx, { branch: 'Mombasa' });
  });

  it('answers a paginator with the Member shape', async () => {
    const res = await admin.members.listMembers();
    expect(res.status).toBe(200);
    const body = bodyOf(res, 200);
    expect(body).toMatchObject({ current_page: 1, per_page: 10, total: expect.any(Number), last_page: expect.any(Number) });
    expect(body.data).toHaveLength(10);
    expect(body.data[0]).toEqual({
      attributes: {},
      id: expect.any(Number),
      member_no: expect.any(String),
      name: expect.any(String),
      email: expect.any(String),
      phone: expect.any(String),
      county: expect.any(String),
      psk_position_ids: expect.any(Array),
      language: null,
    });
    expect(body.last_page).toBe(Math.ceil(body.total / 10));
  });

  it('honours per_page, answers an empty page past the end and rejects bad bounds', async () => {
    const all = bodyOf(await admin.members.listMembers({ query: { per_page: 100 } }), 200);
    const total = all.total;
    const res = await admin.members.listMembers({ query: { page: 2, per_page: 5 } });
    expect(res.body).toMatchObject({ current_page: 2, per_page: 5, last_page: Math.ceil(total / 5) });
    expect(bodyOf(res, 200).data[0]!.id).toBe(all.data[5]!.id);
    const past = await admin.members.listMembers({ query: { page: 999 } });
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ data: [], current_page: 999, total });
    for (const bad of [{ page: 0 }, { page: -1 }, { page: 'abc' }, { per_page: 0 }, { per_page: 101 }]) {
      expect((await admin.members.listMembers({ query: untyped(bad) })).status, JSON.stringify(bad)).toBe(422);
    }
  });

  it('has last_page 1 when nothing matches', async () => {
    const res = await search({ query: 'no-such-member-anywhere' });
    expect(res.body).toEqual({ data: [], current_page: 1, last_page: 1, per_page: 10, total: 0 });
  });

  const nos = (res: Awaited<ReturnType<typeof search>>) =>
    bodyOf(res, 200)
      .data.map((m) => m.member_no)
      .sort();
  const total = async (res: ReturnType<typeof search>) => bodyOf(await res, 200).total;

  it('searches the general query over member no, name, email and phone, case-insensitively', async () => {
    expect(nos(await search({ query: '777001' }))).toEqual(['777001']);
    expect(nos(await search({ query: 'zebedee' }))).toEqual(['777001', '777002']);
    expect(nos(await search({ query: 'GAMMA@SEARCH' }))).toEqual(['777003']);
    expect(nos(await search({ query: '0799000222' }))).toEqual(['777002']);
  });

  it('treats LIKE wildcards in a query literally', async () => {
    expect(nos(await search({ query: '100%' }))).toEqual(['777002']);
    expect(nos(await search({ query: 'beta_' }))).toEqual(['777002']);
    expect(await total(search({ query: '%' }))).toBe(1);
    expect(await total(search({ query: '_' }))).toBe(1);
  });

  it('filters by county (name or id), phone and email, alone and combined', async () => {
    expect(nos(await search({ county: 'kisumu' }))).toEqual(['777001', '777003']);
    const kisumuId = bodyOf(await admin.members.listBranches(), 200).data.data.find((b) => b.name === 'Kisumu')!.id;
    expect(nos(await search({ county: String(kisumuId) }))).toEqual(['777001', '777003']);
    expect(nos(await search({ phone: '0799000333' }))).toEqual(['777003']);
    expect(nos(await search({ email: 'zeb.alpha' }))).toEqual(['777001']);
    expect(nos(await search({ query: 'zebedee', county: 'Kisumu' }))).toEqual(['777001']);
    expect(nos(await search({ county: 'Kisumu', phone: '0799000' }))).toEqual(['777001', '777003']);
    expect(nos(await search({ county: 'Kisumu', email: 'gamma', phone: '333', query: 'person' }))).toEqual(['777003']);
    expect(nos(await search({ county: 'Nakuru', email: 'gamma' }))).toEqual([]);
    // Empty filters are ignored, like an untouched form field.
    expect(await total(search({ query: '', county: '', phone: '', email: '' }))).toBe(bodyOf(await admin.members.listMembers(), 200).total);
  });

  it('paginates search results', async () => {
    const res = await search({ county: 'Mombasa', per_page: 4, page: 3 });
    expect(res.body).toMatchObject({ current_page: 3, last_page: 3, total: 9 });
    expect(bodyOf(res, 200).data).toHaveLength(1);
  });

  it('shows position ids on the member', async () => {
    const p = await createPosition(t.ctx);
    await t.ctx.database.db.insert(candidacies).values({ memberId: alpha.id, positionId: p.id });
    const res = await search({ query: '777001' });
    expect(bodyOf(res, 200).data[0]!.psk_position_ids).toEqual([p.id]);
  });
});

describe('edit member', () => {
  it('updates the member, by branch name or id, and answers {data: Member}', async () => {
    const m = await createMember(t.ctx, { branch: 'Nairobi' });
    const changed = { name: 'Renamed Person', phone: '0711222333', email: 'Renamed@Example.org', county: 'mombasa', member_no: '880001' };
    const res = await edit(m.id, changed);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        id: m.id,
        attributes: {},
        member_no: '880001',
        name: 'Renamed Person',
        email: 'renamed@example.org',
        // Stored and answered in E.164.
        phone: '+254711222333',
        county: 'Mombasa',
        psk_position_ids: [],
        language: null,
      },
    });
    const branchesRes = await admin.members.listBranches();
    const kisumu = bodyOf(branchesRes, 200).data.data.find((b) => b.name === 'Kisumu')!;
    const byId = await edit(m.id, { ...changed, county: kisumu.id });
    expect(bodyOf(byId, 200).data.county).toBe('Kisumu');
    const [log] = await logsFor('Member updated');
    expect(log).toMatchObject({ name: adminName, status: 'success', ipAddress: expect.stringContaining('127.0.0.1') });
  });

  it("sets the member's language, keeps it when the edit leaves it out, and clears it with null or empty", async () => {
    const m = await createMember(t.ctx);
    const body = { name: m.name, phone: m.phone, email: m.email, county: 'Nairobi', member_no: m.memberNo };
    expect(bodyOf(await edit(m.id, { ...body, language: ' SW ' }), 200).data.language).toBe('sw');
    expect(bodyOf(await edit(m.id, body), 200).data.language).toBe('sw');
    expect(bodyOf(await edit(m.id, { ...body, language: '' }), 200).data.language).toBeNull();
    expect(bodyOf(await edit(m.id, { ...body, language: 'en' }), 200).data.language).toBe('en');
    expect(bodyOf(await edit(m.id, { ...body, language: null }), 200).data.language).toBeNull();
    const unknown = await edit(m.id, { ...body, language: 'fr' });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({
      message: 'The language must be one of en, sw',
      errors: { language: ['The language must be one of en, sw'] },
    });
  });

  it('validates with the contract rules, one message per field', async () => {
    const m = await createMember(t.ctx);
    const res = await edit(m.id, {
      name: '',
      phone: '07123',
      email: 'not-an-email',
      county: 'Nairobi',
      member_no: 'abc',
    });
    expect(res.status).toBe(422);
    expect(bodyOf(res, 422).errors).toMatchObject({
      name: ['The name field is required'],
      phone: [inEnglish(PHONE_FORMAT_MESSAGE)],
      email: ['Enter a valid email address'],
    });
  });

  it('refuses a taken member number or email with 422 field errors, and an unknown branch', async () => {
    const other = await createMember(t.ctx, { memberNo: '880100', email: 'taken@example.org' });
    const m = await createMember(t.ctx);
    const body = { name: m.name, phone: m.phone, email: 'TAKEN@example.org', county: 'Nairobi', member_no: '880100' };
    const res = await edit(m.id, body);
    expect(res.status).toBe(422);
    expect(bodyOf(res, 422).errors).toEqual({
      member_no: ['The member number has already been taken'],
      email: ['The email has already been taken'],
    });
    const unknown = await edit(m.id, { ...body, email: m.email, member_no: m.memberNo, county: 'Atlantis' });
    expect(unknown.status).toBe(422);
    expect(bodyOf(unknown, 422).errors).toEqual({ county: ['The selected county is invalid'] });
    // Keeping one's own number and email is not a clash.
    const same = await edit(other.id, {
      name: 'Other',
      phone: other.phone,
      email: other.email,
      county: 'Nairobi',
      member_no: other.memberNo,
    });
    expect(same.status).toBe(200);
    const failed = (await logsFor('Member updated')).filter((l) => l.status === 'failed');
    expect(failed.length).toBeGreaterThanOrEqual(2);
  });

  it('answers 404 for an unknown member and 422 for a bad id', async () => {
    const body = { name: 'X', phone: '0711222333', email: 'x404@example.org', county: 'Nairobi', member_no: '880404' };
    expect((await edit(99999999, body)).status).toBe(404);
    expect((await edit(untyped('abc'), body)).status).toBe(422);
  });
});

describe('assign positions', () => {
  it('replaces the set, makes the member a candidate, and can empty it', async () => {
    const [a, b, c] = await Promise.all([createPosition(t.ctx), createPosition(t.ctx), createPosition(t.ctx)]);
    const m = await createMember(t.ctx);
    const first = await assign({ member_no: m.memberNo, position_ids: [a!.id, b!.id] });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ message: 'Position assigned successfully' });
    const candidates = await admin.candidates.listCandidates();
    expect(
      bodyOf(candidates, 200)
        .data.data.candidates.find((x) => x.id === m.id)!
        .positions.map((p) => p.id)
        .sort(),
    ).toEqual([a!.id, b!.id].sort());
    await assign({ member_no: m.memberNo, position_ids: [c!.id, b!.id, c!.id] });
    const rows = await t.ctx.database.db.select().from(candidacies).where(eq(candidacies.memberId, m.id));
    expect(rows.map((r) => r.positionId).sort()).toEqual([b!.id, c!.id].sort());
    await assign({ member_no: m.memberNo, position_ids: [] });
    expect(await t.ctx.database.db.select().from(candidacies).where(eq(candidacies.memberId, m.id))).toEqual([]);
    const after = await admin.candidates.listCandidates();
    expect(bodyOf(after, 200).data.data.candidates.some((x) => x.id === m.id)).toBe(false);
    const logs = await logsFor('Positions assigned');
    expect(logs.filter((l) => l.status === 'success' && l.data?.includes(m.memberNo))).toHaveLength(3);
  });

  it('refuses unknown positions with 422 and an unknown member with 404, changing nothing', async () => {
    const a = await createPosition(t.ctx);
    const m = await createCandidate(t.ctx, [a.id]);
    const res = await assign({ member_no: m.memberNo, position_ids: [999999] });
    expect(res.status).toBe(422);
    expect(bodyOf(res, 422).errors!.position_ids![0]).toMatch(/999999/);
    expect((await t.ctx.database.db.select().from(candidacies).where(eq(candidacies.memberId, m.id))).map((r) => r.positionId)).toEqual([
      a.id,
    ]);
    expect((await assign({ member_no: '55555555', position_ids: [a.id] })).status).toBe(404);
    expect((await assign(untyped({ member_no: m.memberNo, position_ids: ['x'] }))).status).toBe(422);
    expect((await assign(untyped({ member_no: m.memberNo }))).status).toBe(422);
  });

  it('refuses with 409 to add or remove a candidate of a position that already has votes', async () => {
    const voted = await createPosition(t.ctx);
    const fresh = await createPosition(t.ctx);
    const standing = await createCandidate(t.ctx, [voted.id]);
    const voter1 = await createMember(t.ctx);
    await t.ctx.database.db.insert(participation).values({ memberId: voter1.id, positionId: voted.id, receiptEnc: 'sealed' });
    const newcomer = await createMember(t.ctx);

    const add = await assign({ member_no: newcomer.memberNo, position_ids: [voted.id] });
    expect(add.status).toBe(409);
    const remove = await assign({ member_no: standing.memberNo, position_ids: [fresh.id] });
    expect(remove.status).toBe(409);
    // Leaving the voted position alone while adding another is fine.
    const keep = await assign({ member_no: standing.memberNo, position_ids: [voted.id, fresh.id] });
    expect(keep.status).toBe(200);
    // A conflict, not a permission refusal: logged as a failed change.
    const refused = await t.ctx.database.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.activity, 'Positions assigned'), eq(activityLogs.status, 'failed')));
    expect(refused.filter((r) => r.data?.includes('its candidates can no longer be changed')).length).toBe(2);
    expect((await t.ctx.database.db.select().from(candidacies).where(eq(candidacies.memberId, newcomer.id))).length).toBe(0);
  });
});

describe('details lookup (public, rate limited)', () => {
  it('answers masked details by member number or email, 404 otherwise, then 429 with Retry-After', async () => {
    await createMember(t.ctx, { memberNo: '990001', email: 'jane.doe@example.org', phone: '0712345689', branch: 'Kiambu' });
    // The support email is the one the admin set on the election.
    await t.ctx.database.db.update(organisation).set({ supportEmail: 'help@society.example' });
    const details = (member_no: string) => anon.members.getMemberDetails({ body: { member_no } });
    const byNo = await details('990001');
    expect(byNo.status).toBe(200);
    // A stranger sees the last two phone digits only and no branch.
    expect(byNo.body).toEqual({ phone: '********89', email: 'j***@example.org', branch: '', support_email: 'help@society.example' });
    const byEmail = await details(' Jane.Doe@Example.org ');
    expect(bodyOf(byEmail, 200).phone).toBe('********89');
    const missing = await details('12121212');
    expect(missing.status).toBe(404);
    expect(bodyOf(missing, 404).message).toMatch(/No member found/);
    const empty = await details('');
    expect(empty.status).toBe(422);
    expect(bodyOf(empty, 422).errors!.member_no).toEqual(['Enter your member number or email']);
    // The limit is 6 per hour here: two more pass, the next is refused.
    for (let i = 0; i < 2; i++) expect((await details('990001')).status).toBe(200);
    const limited = await details('990001');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: expect.any(String) });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('members changed event', () => {
  it('is raised after an edit so caches refresh', async () => {
    const m = await createMember(t.ctx);
    let raised = 0;
    const onChange = () => raised++;
    t.ctx.events.on('members.changed', onChange);
    await edit(m.id, { name: 'Evented', phone: m.phone, email: m.email, county: 'Nairobi', member_no: m.memberNo });
    t.ctx.events.off('members.changed', onChange);
    expect(raised).toBe(1);
    const [row] = await t.ctx.database.db.select().from(members).where(eq(members.id, m.id));
    expect(row!.name).toBe('Evented');
  });
});

describe('members import (CSV)', () => {
  const upload = (csv: string | Buffer) =>
    admin.members.importMembers({ query: {}, body: multipart({ file: { file: csv, filename: 'members.csv' } }) });
  const errorsOf = async (res: ReturnType<typeof upload>) => bodyOf(await res, 200).errors;
  const memberNos = async (nos: string[]) =>
    (await t.ctx.database.db.select({ no: members.memberNo, name: members.name }).from(members).where(inArray(members.memberNo, nos))).sort(
      (a, b) => a.no.localeCompare(b.no),
    );

  it('creates members, then a re-import updates them by member number', async () => {
    const csv =
      'member_no,name,email,phone,branch\n660001,"Doe, Jane",jane.import@example.org,0711000001,Nairobi\n660002,John Import,John.Import@example.org,0711000002,kisumu\n';
    const first = await upload(csv);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ created: 2, updated: 0, errors: [] });
    expect(await memberNos(['660001', '660002'])).toEqual([
      { no: '660001', name: 'Doe, Jane' },
      { no: '660002', name: 'John Import' },
    ]);
    const again = await upload(csv.replace('John Import', 'John Renamed'));
    expect(again.body).toEqual({ created: 0, updated: 2, errors: [] });
    expect((await memberNos(['660002']))[0]!.name).toBe('John Renamed');
    const logs = await logsFor('Members imported');
    expect(logs.map((l) => [l.status, l.data, l.name])).toEqual([
      ['success', 'created 2, updated 0', adminName],
      ['success', 'created 0, updated 2', adminName],
    ]);
  });

  it('takes an optional language column: a shipped code or empty; without the column, languages stay', async () => {
    const languageOf = async (no: string) =>
      (await t.ctx.database.db.select({ language: members.language }).from(members).where(eq(members.memberNo, no)))[0]?.language;
    const csv = [
      'member_no,name,email,phone,branch,language',
      '661001,Lang Sw,lang.sw@example.org,0711001001,Nairobi,sw',
      '661002,Lang Empty,lang.empty@example.org,0711001002,Nairobi,',
      '661003,Lang En,lang.en@example.org,0711001003,Nairobi, EN ',
    ].join('\n');
    expect(bodyOf(await upload(csv), 200)).toEqual({ created: 3, updated: 0, errors: [] });
    expect([await languageOf('661001'), await languageOf('661002'), await languageOf('661003')]).toEqual(['sw', null, 'en']);
    // A file without the column keeps each member's language.
    const without = 'member_no,name,email,phone,branch\n661001,Lang Sw,lang.sw@example.org,0711001001,Nairobi\n';
    expect(bodyOf(await upload(without), 200)).toEqual({ created: 0, updated: 1, errors: [] });
    expect(await languageOf('661001')).toBe('sw');
    // An empty cell puts the member back on the organisation's default.
    expect(bodyOf(await upload(`${without.trim()},\n`.replace('branch\n', 'branch,language\n')), 200).updated).toBe(1);
    expect(await languageOf('661001')).toBeNull();
  });

  it('refuses an unknown language code as a line error naming the line, importing nothing', async () => {
    const csv = [
      'member_no,name,email,phone,branch,language',
      '661101,Ok Line,ok.lang@example.org,0711001101,Nairobi,sw',
      '661102,Bad Lang,bad.lang@example.org,0711001102,Nairobi,fr',
    ].join('\n');
    const res = bodyOf(await upload(csv), 200);
    expect(res).toEqual({ created: 0, updated: 0, errors: [{ line: 3, message: 'language: The language must be one of en, sw' }] });
    expect(await memberNos(['661101', '661102'])).toEqual([]);
  });

  it('rolls back the whole file when any line is bad, listing each bad line', async () => {
    await createMember(t.ctx, { memberNo: '660900', email: 'owner@example.org' });
    const csv = [
      'Member_No , Name,Email,Phone,Branch',
      '660101,Good One,good1@example.org,0711000101,Nairobi',
      '660102,Bad Phone,bad@example.org,0711,Nairobi',
      '',
      '660103,Good Two,good2@example.org,0711000103,Atlantis',
      '660101,Dup Number,good3@example.org,0711000104,Nairobi',
      '660105,Steals Email,owner@example.org,0711000105,Nairobi',
      '660106,Good Three,good6@example.org,0711000106,Nairobi',
    ].join('\r\n');
    const res = await upload(csv);
    expect(res.status).toBe(200);
    const body = bodyOf(res, 200);
    expect(body.created).toBe(0);
    expect(body.updated).toBe(0);
    expect(body.errors).toEqual([
      { line: 3, message: `phone: ${inEnglish(PHONE_FORMAT_MESSAGE)}` },
      { line: 5, message: 'branch: Unknown branch "Atlantis" (create it on the Set-up page, or import with "create unknown branches")' },
      { line: 6, message: 'member_no: 660101 already appears on line 2' },
      { line: 7, message: 'email: owner@example.org already belongs to member 660900' },
    ]);
    expect(await memberNos(['660101', '660106'])).toEqual([]);
    const failed = (await logsFor('Members imported')).filter((l) => l.status === 'failed').at(-1);
    expect(failed!.data).toMatch(/4 lines rejected/);
  });

  it('reports a bad header, an empty file and broken CSV on a line', async () => {
    expect(await errorsOf(upload('number,name\n1,x\n'))).toEqual([
      { line: 1, message: 'The header must name the columns member_no,name,phone,branch; missing member_no, phone, branch' },
    ]);
    expect(await errorsOf(upload(''))).toEqual([{ line: 1, message: 'The file is empty' }]);
    expect(await errorsOf(upload('member_no,name,email,phone,branch\n'))).toEqual([{ line: 2, message: 'The file has no member lines' }]);
    const broken = await errorsOf(upload('member_no,name,email,phone,branch\n660201,"Unclosed,a@example.org,0711000201,Nairobi\n'));
    expect(broken[0]).toMatchObject({ line: 2, message: expect.stringMatching(/not valid CSV/) });
  });

  it('refuses a file that is not UTF-8, naming the line; a UTF-8 BOM is fine', async () => {
    const send = upload;
    const header = Buffer.from('member_no,name,email,phone,branch\n660401,Ana Ok,ana.ok@example.org,0711000401,Nairobi\n');
    // Latin-1 'é' (0xE9) on line 3, as a spreadsheet's "CSV (Windows)" export writes it.
    const latin1 = Buffer.concat([
      header,
      Buffer.from('660402,Ren'),
      Buffer.from([0xe9]),
      Buffer.from(',rene@example.org,0711000402,Nairobi\n'),
    ]);
    const res = await send(latin1);
    expect(res.status).toBe(200);
    expect(bodyOf(res, 200).created).toBe(0);
    expect(bodyOf(res, 200).errors).toEqual([
      { line: 3, message: 'The file is not UTF-8 text; save it as "CSV UTF-8" and import it again' },
    ]);
    expect(await memberNos(['660401', '660402'])).toEqual([]);
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), header, Buffer.from('660402,René,rene@example.org,0711000402,Nairobi\n')]);
    const ok = await send(bom);
    expect(ok.body).toMatchObject({ created: 2, errors: [] });
    expect(await memberNos(['660401', '660402'])).toEqual([
      { no: '660401', name: 'Ana Ok' },
      { no: '660402', name: 'René' },
    ]);
  });

  it('needs a file, as multipart', async () => {
    const none = await admin.members.importMembers({ query: {}, body: multipart({ x: '1' }) });
    expect(none.status).toBe(422);
    expect((bodyOf(none, 422) as { errors: Record<string, string[]> }).errors.file).toEqual(['Choose a CSV file to import']);
    // JSON where the route takes multipart (raw HTTP: the client always sends multipart here).
    const json = await request(t.app).post('/api/v1/members/import').set(bearer(adminToken)).send({ file: 'member_no,name' });
    expect(json.status).toBe(415);
  });

  it('runs from the CLI as members:import <csv>', async () => {
    const file = join(t.dataDir, 'cli-import.csv');
    writeFileSync(file, 'member_no,name,email,phone,branch\n660301,Cli Person,cli.person@example.org,0711000301,Nakuru\n');
    const out: string[] = [];
    const log = console.log;
    console.log = (line: string) => out.push(line);
    try {
      expect(await COMMANDS['members:import']!.run(t.ctx, [file])).toBe(0);
    } finally {
      console.log = log;
    }
    expect(out.join('\n')).toMatch(/1 created, 0 updated/);
    expect(await memberNos(['660301'])).toEqual([{ no: '660301', name: 'Cli Person' }]);
  });

  it('reads a relative path from the folder `pnpm cli` was run in (KURA_CLI_CWD), not packages/server', async () => {
    mkdirSync(join(t.dataDir, 'from-here'), { recursive: true });
    writeFileSync(
      join(t.dataDir, 'from-here', 'relative.csv'),
      'member_no,name,email,phone,branch\n660302,Relative Path,,0711000302,Nakuru\n',
    );
    const saved = { cwd: process.env.KURA_CLI_CWD, log: console.log };
    process.env.KURA_CLI_CWD = join(t.dataDir, 'from-here');
    console.log = () => {};
    try {
      expect(await COMMANDS['members:import']!.run(t.ctx, ['relative.csv'])).toBe(0);
    } finally {
      console.log = saved.log;
      if (saved.cwd === undefined) delete process.env.KURA_CLI_CWD;
      else process.env.KURA_CLI_CWD = saved.cwd;
    }
    expect(await memberNos(['660302'])).toEqual([{ no: '660302', name: 'Relative Path' }]);
  });
});

describe('items', () => {
  it('lists the voting items for voters only', async () => {
    await t.ctx.database.db.insert(items).values([
      { title: 'AGM venue', description: 'Where the AGM is held.' },
      { title: 'CPD theme', description: 'Next year.' },
    ]);
    const res = await voter.ballots.listItems();
    expect(res.status).toBe(200);
    expect(bodyOf(res, 200).data).toEqual([
      { id: expect.any(Number), title: 'AGM venue', description: 'Where the AGM is held.' },
      { id: expect.any(Number), title: 'CPD theme', description: 'Next year.' },
    ]);
    expect((await admin.ballots.listItems()).status).toBe(403);
    expect((await anon.ballots.listItems()).status).toBe(401);
  });
});
