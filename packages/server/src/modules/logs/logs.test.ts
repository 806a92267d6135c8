import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordActivity, type ActivityEntry } from '../../lib/activity-log';
import { bearer, createMember, createPosition, createStaff, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
let admin: string;

const ENTRIES: ActivityEntry[] = [
  {
    name: 'Alice Wanjiru',
    activity: 'Admin login',
    userId: 7,
    userType: 'admin',
    data: 'email alice@example.org',
    ip: '10.0.0.1',
    status: 'success',
  },
  { name: 'Bob Otieno', activity: 'Vote cast', userId: 8, userType: 'voter', data: null, ip: '10.0.0.2', status: 'failed' },
  {
    name: 'alice cooper',
    activity: 'Member updated',
    userId: 7,
    userType: 'admin',
    data: 'member no 1001 (100%)',
    ip: '192.168.1.5',
    status: 'denied',
  },
];

beforeAll(async () => {
  t = await createTestApp();
  // Moving the clock between rows gives each a distinct created_at, so "newest first" is testable.
  for (let i = 0; i < 11; i++) {
    await recordActivity(t.ctx, { name: `Filler ${i}`, activity: 'Code check', userId: null, ip: '172.16.0.9', status: 'success' });
    t.clock.advance(1000);
  }
  for (const e of ENTRIES) {
    await recordActivity(t.ctx, e);
    t.clock.advance(1000);
  }
  const staff = await createStaff(t.ctx, { role: 'admin', name: 'Logs Admin' });
  admin = await tokenFor(t.ctx, 'admin', staff.id);
});
afterAll(async () => {
  await t?.close();
});

const get = (path: string, token = admin) => request(t.app).get(`/api/v1${path}`).set(bearer(token));
const names = (res: request.Response) => res.body.data.data.map((e: { name: string }) => e.name);

describe('logs', () => {
  it('answers {data: paginator of LogEntry}, newest first', async () => {
    const res = await get('/logs');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ current_page: 1, last_page: 2, per_page: 10, total: 14 });
    expect(names(res).slice(0, 3)).toEqual(['alice cooper', 'Bob Otieno', 'Alice Wanjiru']);
    expect(res.body.data.data[0]).toEqual({
      id: expect.any(Number),
      name: 'alice cooper',
      activity: 'Member updated',
      user_id: 7,
      user_type: 'admin',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updated_at: expect.any(String),
      ip_address: '192.168.1.5',
      status: 'denied',
    });
    expect(res.body.data.data[1].user_id).toBe(8);
    const stamps = res.body.data.data.map((e: { created_at: string }) => Date.parse(e.created_at));
    expect(stamps).toEqual([...stamps].sort((a, b) => b - a));
  });

  it('pages, with an empty page past the end', async () => {
    const second = await get('/logs?page=2');
    expect(second.body.data.data).toHaveLength(4);
    expect(names(second)).toContain('Filler 0');
    const past = await get('/logs?page=5');
    expect(past.status).toBe(200);
    expect(past.body.data).toMatchObject({ data: [], current_page: 5, last_page: 2, total: 14 });
    expect((await get('/logs?per_page=500')).status).toBe(422);
  });

  it('filters by each field alone, case-insensitively', async () => {
    expect(names(await get('/search/logs?name=ALICE'))).toEqual(['alice cooper', 'Alice Wanjiru']);
    expect(names(await get('/search/logs?activity=vote'))).toEqual(['Bob Otieno']);
    expect(names(await get('/search/logs?user_id=7'))).toEqual(['alice cooper', 'Alice Wanjiru']);
    expect(names(await get('/search/logs?data=member%20no'))).toEqual(['alice cooper']);
    expect(names(await get('/search/logs?ip_address=192.168'))).toEqual(['alice cooper']);
    expect(names(await get('/search/logs?status=FAILED'))).toEqual(['Bob Otieno']);
  });

  it('combines filters and treats wildcards literally', async () => {
    expect(names(await get('/search/logs?name=alice&status=success'))).toEqual(['Alice Wanjiru']);
    expect(names(await get('/search/logs?name=alice&user_id=7&ip_address=10.0&activity=login&data=email'))).toEqual(['Alice Wanjiru']);
    expect(names(await get('/search/logs?name=bob&user_id=7'))).toEqual([]);
    expect(names(await get(`/search/logs?data=${encodeURIComponent('100%')}`))).toEqual(['alice cooper']);
    expect((await get(`/search/logs?name=${encodeURIComponent('%')}`)).body.data.total).toBe(0);
    expect((await get('/search/logs?user_id=abc')).body.data).toMatchObject({ data: [], total: 0, last_page: 1 });
    const filtered = await get('/search/logs?activity=code&per_page=5&page=3');
    expect(filtered.body.data).toMatchObject({ current_page: 3, last_page: 3, total: 11 });
    expect(filtered.body.data.data).toHaveLength(1);
  });

  it('finds an admin change made through the API, with the admin, IP and status', async () => {
    const p = await createPosition(t.ctx);
    const m = await createMember(t.ctx);
    const res = await request(t.app)
      .post('/api/v1/assign/psk/position')
      .set(bearer(admin))
      .send({ member_no: m.memberNo, position_ids: [p.id] });
    expect(res.status).toBe(200);
    const found = await get(`/search/logs?activity=positions%20assigned&name=logs%20admin&data=${m.memberNo}`);
    expect(found.body.data.data).toEqual([
      expect.objectContaining({
        name: 'Logs Admin',
        user_type: 'admin',
        status: 'success',
        ip_address: expect.stringContaining('127.0.0.1'),
      }),
    ]);
  });

  it('tells a member and a staff member with the same id apart (user_type)', async () => {
    // Members and staff number their ids separately: the same user_id names two people.
    const member = await createMember(t.ctx, { name: 'Same Id Voter' });
    const sameIdAdmin = await createStaff(t.ctx, { role: 'admin', name: 'Same Id Admin' });
    const sameIdAgent = await createStaff(t.ctx, { role: 'agent', name: 'Same Id Agent' });
    const id = 900_000 + (member.id % 1000);
    await recordActivity(t.ctx, { name: 'Same Id Voter', activity: 'Overlap check', userId: id, userType: 'voter', status: 'success' });
    await recordActivity(t.ctx, { name: 'Same Id Admin', activity: 'Overlap check', userId: id, userType: 'admin', status: 'success' });
    await recordActivity(t.ctx, { name: 'Same Id Agent', activity: 'Overlap check', userId: id, userType: 'agent', status: 'success' });
    expect(sameIdAdmin.id).toEqual(expect.any(Number));
    expect(sameIdAgent.id).toEqual(expect.any(Number));
    const both = await get(`/search/logs?user_id=${id}`);
    expect(both.body.data.data.map((e: { user_type: string }) => e.user_type).sort()).toEqual(['admin', 'agent', 'voter']);
    expect(names(await get(`/search/logs?user_id=${id}&user_type=voter`))).toEqual(['Same Id Voter']);
    expect(names(await get(`/search/logs?user_id=${id}&user_type=admin`))).toEqual(['Same Id Admin']);
    expect(names(await get(`/search/logs?user_id=${id}&user_type=staff`)).sort()).toEqual(['Same Id Admin', 'Same Id Agent']);
    expect(names(await get(`/search/logs?user_id=${id}&user_type=`)).length).toBe(3);
    expect((await get('/search/logs?user_type=robot')).status).toBe(422);
  });

  it('records the user type of a real voter sign-out', async () => {
    const voter = await createMember(t.ctx, { name: 'Signed Out Voter' });
    const voterToken = await tokenFor(t.ctx, 'voter', voter.id);
    expect((await request(t.app).post('/api/v1/logout').set(bearer(voterToken))).status).toBe(204);
    const found = await get(`/search/logs?user_id=${voter.id}&user_type=voter&activity=sign-out`);
    expect(found.body.data.data).toEqual([expect.objectContaining({ name: 'Signed Out Voter', user_id: voter.id, user_type: 'voter' })]);
    const asStaff = await get(`/search/logs?user_id=${voter.id}&user_type=staff&activity=sign-out&name=signed%20out%20voter`);
    expect(asStaff.body.data.data).toEqual([]);
  });

  it('is for admins only', async () => {
    for (const path of ['/logs', '/search/logs?name=a']) {
      expect((await request(t.app).get(`/api/v1${path}`)).status).toBe(401);
      for (const role of ['voter', 'agent'] as const) expect((await get(path, await tokenFor(t.ctx, role))).status).toBe(403);
    }
  });
});
