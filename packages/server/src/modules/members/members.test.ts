import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../cli/commands';
import { activityLogs, candidacies, election, items, members, participation } from '../../db/schema';
import { bearer, createCandidate, createMember, createPosition, createStaff, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
let admin: string;
let adminName: string;
let voter: string;
let agent: string;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_DETAILS_PER_HOUR: '6' } });
  const staff = await createStaff(t.ctx, { role: 'admin', name: 'Alice Admin' });
  adminName = staff.name;
  [admin, voter, agent] = await Promise.all([tokenFor(t.ctx, 'admin', staff.id), tokenFor(t.ctx, 'voter'), tokenFor(t.ctx, 'agent')]);
});
afterAll(async () => {
  await t?.close();
});

const get = (path: string, token = admin) => request(t.app).get(`/api/v1${path}`).set(bearer(token));
const post = (path: string, body: object, token = admin) => request(t.app).post(`/api/v1${path}`).set(bearer(token)).send(body);

const logsFor = (activity: string) => t.ctx.database.db.select().from(activityLogs).where(eq(activityLogs.activity, activity));

describe('access', () => {
  const adminRoutes: [string, string][] = [
    ['get', '/members'],
    ['get', '/search/member?query=x'],
    ['post', '/edit/psk/member/1'],
    ['post', '/assign/psk/position'],
    ['post', '/members/import'],
    ['get', '/branches'],
    ['get', '/psk/candidate/positions'],
  ];

  it('answers 401 without a token and 403 for a voter or agent on every admin route', async () => {
    for (const [method, path] of adminRoutes) {
      const anon = await request(t.app)[method as 'get'](`/api/v1${path}`);
      expect(anon.status, `${method} ${path}`).toBe(401);
      for (const token of [voter, agent]) {
        const res = await request(t.app)[method as 'get'](`/api/v1${path}`).set(bearer(token));
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.message).toEqual(expect.any(String));
      }
    }
  });

  it('serves the public positions list to anyone', async () => {
    const res = await request(t.app).get('/api/psk/positions');
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({ id: expect.any(Number), name: 'Chairperson', level: 'National' });
    expect(res.body.data.some((p: { level: string }) => p.level === 'Nairobi')).toBe(true);
  });
});

describe('reference data', () => {
  it('lists branches as {data: {data: Branch[]}} sorted by name', async () => {
    const res = await get('/branches');
    expect(res.status).toBe(200);
    const names = res.body.data.data.map((b: { name: string }) => b.name);
    expect(names).toContain('Nairobi');
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));
  });

  it('lists candidate positions as {data: {data: Position[]}}, national first', async () => {
    const res = await get('/psk/candidate/positions');
    expect(res.status).toBe(200);
    expect(res.body.data.data.slice(0, 5).map((p: { level: string }) => p.level)).toEqual(Array(5).fill('National'));
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
    const res = await get('/members');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ current_page: 1, per_page: 10, total: expect.any(Number), last_page: expect.any(Number) });
    expect(res.body.data).toHaveLength(10);
    expect(res.body.data[0]).toEqual({
      id: expect.any(Number),
      member_no: expect.any(String),
      name: expect.any(String),
      email: expect.any(String),
      phone: expect.any(String),
      county: expect.any(String),
      psk_position_ids: expect.any(Array),
    });
    expect(res.body.last_page).toBe(Math.ceil(res.body.total / 10));
  });

  it('honours per_page, answers an empty page past the end and rejects bad bounds', async () => {
    const all = await get('/members?per_page=100');
    const total = all.body.total as number;
    const res = await get('/members?page=2&per_page=5');
    expect(res.body).toMatchObject({ current_page: 2, per_page: 5, last_page: Math.ceil(total / 5) });
    expect(res.body.data[0].id).toBe(all.body.data[5].id);
    const past = await get('/members?page=999');
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ data: [], current_page: 999, total });
    for (const bad of ['page=0', 'page=-1', 'page=abc', 'per_page=0', 'per_page=101']) {
      expect((await get(`/members?${bad}`)).status, bad).toBe(422);
    }
  });

  it('has last_page 1 when nothing matches', async () => {
    const res = await get('/search/member?query=no-such-member-anywhere');
    expect(res.body).toEqual({ data: [], current_page: 1, last_page: 1, per_page: 10, total: 0 });
  });

  const nos = (res: request.Response) => res.body.data.map((m: { member_no: string }) => m.member_no).sort();

  it('searches the general query over member no, name, email and phone, case-insensitively', async () => {
    expect(nos(await get('/search/member?query=777001'))).toEqual(['777001']);
    expect(nos(await get('/search/member?query=zebedee'))).toEqual(['777001', '777002']);
    expect(nos(await get('/search/member?query=GAMMA@SEARCH'))).toEqual(['777003']);
    expect(nos(await get('/search/member?query=0799000222'))).toEqual(['777002']);
  });

  it('treats LIKE wildcards in a query literally', async () => {
    expect(nos(await get(`/search/member?query=${encodeURIComponent('100%')}`))).toEqual(['777002']);
    expect(nos(await get(`/search/member?query=${encodeURIComponent('beta_')}`))).toEqual(['777002']);
    expect((await get(`/search/member?query=${encodeURIComponent('%')}`)).body.total).toBe(1);
    expect((await get(`/search/member?query=${encodeURIComponent('_')}`)).body.total).toBe(1);
  });

  it('filters by county (name or id), phone and email, alone and combined', async () => {
    expect(nos(await get('/search/member?county=kisumu'))).toEqual(['777001', '777003']);
    const kisumuId = (await get('/branches')).body.data.data.find((b: { name: string }) => b.name === 'Kisumu').id;
    expect(nos(await get(`/search/member?county=${kisumuId}`))).toEqual(['777001', '777003']);
    expect(nos(await get('/search/member?phone=0799000333'))).toEqual(['777003']);
    expect(nos(await get('/search/member?email=zeb.alpha'))).toEqual(['777001']);
    expect(nos(await get('/search/member?query=zebedee&county=Kisumu'))).toEqual(['777001']);
    expect(nos(await get('/search/member?county=Kisumu&phone=0799000'))).toEqual(['777001', '777003']);
    expect(nos(await get('/search/member?county=Kisumu&email=gamma&phone=333&query=person'))).toEqual(['777003']);
    expect(nos(await get('/search/member?county=Nakuru&email=gamma'))).toEqual([]);
    // Empty filters are ignored, like an untouched form field.
    expect((await get('/search/member?query=&county=&phone=&email=')).body.total).toBe((await get('/members')).body.total);
  });

  it('paginates search results', async () => {
    const res = await get('/search/member?county=Mombasa&per_page=4&page=3');
    expect(res.body).toMatchObject({ current_page: 3, last_page: 3, total: 9 });
    expect(res.body.data).toHaveLength(1);
  });

  it('shows position ids on the member', async () => {
    const p = await createPosition(t.ctx);
    await t.ctx.database.db.insert(candidacies).values({ memberId: alpha.id, positionId: p.id });
    const res = await get('/search/member?query=777001');
    expect(res.body.data[0].psk_position_ids).toEqual([p.id]);
  });
});

describe('edit member', () => {
  it('updates the member, by branch name or id, and answers {data: Member}', async () => {
    const m = await createMember(t.ctx, { branch: 'Nairobi' });
    const changed = { name: 'Renamed Person', phone: '0711222333', email: 'Renamed@Example.org', county: 'mombasa', member_no: '880001' };
    const res = await post(`/edit/psk/member/${m.id}`, changed);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        id: m.id,
        member_no: '880001',
        name: 'Renamed Person',
        email: 'renamed@example.org',
        phone: '0711222333',
        county: 'Mombasa',
        psk_position_ids: [],
      },
    });
    const branchesRes = await get('/branches');
    const kisumu = branchesRes.body.data.data.find((b: { name: string }) => b.name === 'Kisumu');
    const byId = await post(`/edit/psk/member/${m.id}`, { ...changed, county: kisumu.id });
    expect(byId.body.data.county).toBe('Kisumu');
    const [log] = await logsFor('Member updated');
    expect(log).toMatchObject({ name: adminName, status: 'success', ipAddress: expect.stringContaining('127.0.0.1') });
  });

  it('validates with the contract rules, one message per field', async () => {
    const m = await createMember(t.ctx);
    const res = await post(`/edit/psk/member/${m.id}`, {
      name: '',
      phone: '07123',
      email: 'not-an-email',
      county: 'Nairobi',
      member_no: 'abc',
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toMatchObject({
      name: ['The name field is required'],
      phone: ['Must be at least 10 characters long'],
      email: ['Enter a valid email address'],
      member_no: ['Should only contain digits or follow CMAKE##/## format'],
    });
  });

  it('refuses a taken member number or email with 422 field errors, and an unknown branch', async () => {
    const other = await createMember(t.ctx, { memberNo: '880100', email: 'taken@example.org' });
    const m = await createMember(t.ctx);
    const body = { name: m.name, phone: m.phone, email: 'TAKEN@example.org', county: 'Nairobi', member_no: '880100' };
    const res = await post(`/edit/psk/member/${m.id}`, body);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      member_no: ['The member number has already been taken'],
      email: ['The email has already been taken'],
    });
    const unknown = await post(`/edit/psk/member/${m.id}`, { ...body, email: m.email, member_no: m.memberNo, county: 'Atlantis' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ county: ['The selected county is invalid'] });
    // Keeping one's own number and email is not a clash.
    const same = await post(`/edit/psk/member/${other.id}`, {
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
    expect((await post('/edit/psk/member/99999999', body)).status).toBe(404);
    expect((await post('/edit/psk/member/abc', body)).status).toBe(422);
  });
});

describe('assign positions', () => {
  it('replaces the set, makes the member a candidate, and can empty it', async () => {
    const [a, b, c] = await Promise.all([createPosition(t.ctx), createPosition(t.ctx), createPosition(t.ctx)]);
    const m = await createMember(t.ctx);
    const first = await post('/assign/psk/position', { member_no: m.memberNo, position_ids: [a!.id, b!.id] });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ message: 'Position assigned successfully' });
    const candidates = await get('/psk/candidates');
    expect(
      candidates.body.data.data.candidates
        .find((x: { id: number }) => x.id === m.id)
        .positions.map((p: { id: number }) => p.id)
        .sort(),
    ).toEqual([a!.id, b!.id].sort());
    await post('/assign/psk/position', { member_no: m.memberNo, position_ids: [c!.id, b!.id, c!.id] });
    const rows = await t.ctx.database.db.select().from(candidacies).where(eq(candidacies.memberId, m.id));
    expect(rows.map((r) => r.positionId).sort()).toEqual([b!.id, c!.id].sort());
    await post('/assign/psk/position', { member_no: m.memberNo, position_ids: [] });
    expect(await t.ctx.database.db.select().from(candidacies).where(eq(candidacies.memberId, m.id))).toEqual([]);
    const after = await get('/psk/candidates');
    expect(after.body.data.data.candidates.some((x: { id: number }) => x.id === m.id)).toBe(false);
    const logs = await logsFor('Positions assigned');
    expect(logs.filter((l) => l.status === 'success' && l.data?.includes(m.memberNo))).toHaveLength(3);
  });

  it('refuses unknown positions with 422 and an unknown member with 404, changing nothing', async () => {
    const a = await createPosition(t.ctx);
    const m = await createCandidate(t.ctx, [a.id]);
    const res = await post('/assign/psk/position', { member_no: m.memberNo, position_ids: [999999] });
    expect(res.status).toBe(422);
    expect(res.body.errors.position_ids[0]).toMatch(/999999/);
    expect((await t.ctx.database.db.select().from(candidacies).where(eq(candidacies.memberId, m.id))).map((r) => r.positionId)).toEqual([
      a.id,
    ]);
    expect((await post('/assign/psk/position', { member_no: '55555555', position_ids: [a.id] })).status).toBe(404);
    expect((await post('/assign/psk/position', { member_no: m.memberNo, position_ids: ['x'] })).status).toBe(422);
    expect((await post('/assign/psk/position', { member_no: m.memberNo })).status).toBe(422);
  });

  it('refuses with 409 to add or remove a candidate of a position that already has votes', async () => {
    const voted = await createPosition(t.ctx);
    const fresh = await createPosition(t.ctx);
    const standing = await createCandidate(t.ctx, [voted.id]);
    const voter1 = await createMember(t.ctx);
    await t.ctx.database.db.insert(participation).values({ memberId: voter1.id, positionId: voted.id, receiptEnc: 'sealed' });
    const newcomer = await createMember(t.ctx);

    const add = await post('/assign/psk/position', { member_no: newcomer.memberNo, position_ids: [voted.id] });
    expect(add.status).toBe(409);
    const remove = await post('/assign/psk/position', { member_no: standing.memberNo, position_ids: [fresh.id] });
    expect(remove.status).toBe(409);
    // Leaving the voted position alone while adding another is fine.
    const keep = await post('/assign/psk/position', { member_no: standing.memberNo, position_ids: [voted.id, fresh.id] });
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
    await t.ctx.database.db.update(election).set({ supportEmail: 'help@society.example' });
    const byNo = await request(t.app).post('/api/details').send({ member_no: '990001' });
    expect(byNo.status).toBe(200);
    // A stranger sees the last two phone digits only and no branch.
    expect(byNo.body).toEqual({ phone: '********89', email: 'j***@example.org', branch: '', support_email: 'help@society.example' });
    const byEmail = await request(t.app).post('/api/details').send({ member_no: ' Jane.Doe@Example.org ' });
    expect(byEmail.body.phone).toBe('********89');
    const missing = await request(t.app).post('/api/details').send({ member_no: '12121212' });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/No member found/);
    const empty = await request(t.app).post('/api/details').send({ member_no: '' });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.member_no).toEqual(['Enter your member number or email']);
    // The limit is 6 per hour here: two more pass, the next is refused.
    for (let i = 0; i < 2; i++) expect((await request(t.app).post('/api/details').send({ member_no: '990001' })).status).toBe(200);
    const limited = await request(t.app).post('/api/details').send({ member_no: '990001' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: expect.any(String) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('members changed event', () => {
  it('is raised after an edit so caches refresh', async () => {
    const m = await createMember(t.ctx);
    let raised = 0;
    const onChange = () => raised++;
    t.ctx.events.on('members.changed', onChange);
    await post(`/edit/psk/member/${m.id}`, { name: 'Evented', phone: m.phone, email: m.email, county: 'Nairobi', member_no: m.memberNo });
    t.ctx.events.off('members.changed', onChange);
    expect(raised).toBe(1);
    const [row] = await t.ctx.database.db.select().from(members).where(eq(members.id, m.id));
    expect(row!.name).toBe('Evented');
  });
});

describe('members import (CSV)', () => {
  const upload = (csv: string, token = admin) =>
    request(t.app).post('/api/v1/members/import').set(bearer(token)).attach('file', Buffer.from(csv), 'members.csv');
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
    expect(res.body.created).toBe(0);
    expect(res.body.updated).toBe(0);
    expect(res.body.errors).toEqual([
      { line: 3, message: 'phone: Must be at least 10 characters long' },
      { line: 5, message: 'branch: Unknown branch "Atlantis" (create it on the Set-up page, or import with "create unknown branches")' },
      { line: 6, message: 'member_no: 660101 already appears on line 2' },
      { line: 7, message: 'email: owner@example.org already belongs to member 660900' },
    ]);
    expect(await memberNos(['660101', '660106'])).toEqual([]);
    const [failed] = (await logsFor('Members imported')).filter((l) => l.status === 'failed');
    expect(failed!.data).toMatch(/4 lines rejected/);
  });

  it('reports a bad header, an empty file and broken CSV on a line', async () => {
    expect((await upload('number,name\n1,x\n')).body.errors).toEqual([
      { line: 1, message: 'The header must name the columns member_no,name,email,phone,branch; missing member_no, email, phone, branch' },
    ]);
    expect((await upload('')).body.errors).toEqual([{ line: 1, message: 'The file is empty' }]);
    expect((await upload('member_no,name,email,phone,branch\n')).body.errors).toEqual([
      { line: 2, message: 'The file has no member lines' },
    ]);
    const broken = await upload('member_no,name,email,phone,branch\n660201,"Unclosed,a@example.org,0711000201,Nairobi\n');
    expect(broken.body.errors[0]).toMatchObject({ line: 2, message: expect.stringMatching(/not valid CSV/) });
  });

  it('refuses a file that is not UTF-8, naming the line; a UTF-8 BOM is fine', async () => {
    const send = (bytes: Buffer) => request(t.app).post('/api/v1/members/import').set(bearer(admin)).attach('file', bytes, 'members.csv');
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
    expect(res.body.created).toBe(0);
    expect(res.body.errors).toEqual([{ line: 3, message: 'The file is not UTF-8 text; save it as "CSV UTF-8" and import it again' }]);
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
    const none = await request(t.app).post('/api/v1/members/import').set(bearer(admin)).field('x', '1');
    expect(none.status).toBe(422);
    expect(none.body.errors.file).toEqual(['Choose a CSV file to import']);
    const json = await post('/members/import', { file: 'member_no,name' });
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
});

describe('items', () => {
  it('lists the voting items for voters only', async () => {
    await t.ctx.database.db.insert(items).values([
      { title: 'AGM venue', description: 'Where the AGM is held.' },
      { title: 'CPD theme', description: 'Next year.' },
    ]);
    const res = await get('/items', voter);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { id: expect.any(Number), title: 'AGM venue', description: 'Where the AGM is held.' },
      { id: expect.any(Number), title: 'CPD theme', description: 'Next year.' },
    ]);
    expect((await get('/items', admin)).status).toBe(403);
    expect((await request(t.app).get('/api/v1/items')).status).toBe(401);
  });
});
