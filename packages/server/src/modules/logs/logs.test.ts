import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { recordActivity, type ActivityEntry } from '../../lib/activity-log';
import type { LogSearchQuery } from '@kura/contract';
import { apiClient, bodyOf, untyped } from '../../../test/client';
import { createMember, createPosition, createStaff, tokenFor } from '../../../test/factories';
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

type Query = z.input<typeof LogSearchQuery>;
/** token null: no session. */
const list = (query: Omit<Query, 'name'> = {}, token: string | null = admin) =>
  apiClient(t.app, token ?? undefined).logs.listLogs({ query });
const search = (query: Query, token: string | null = admin) => apiClient(t.app, token ?? undefined).logs.searchLogs({ query });
const names = (res: Awaited<ReturnType<typeof search>>) => bodyOf(res, 200).data.data.map((e) => e.name);

describe('logs', () => {
  it('answers {data: paginator of LogEntry}, newest first', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    const body = bodyOf(res, 200);
    expect(body.data).toMatchObject({ current_page: 1, last_page: 2, per_page: 10, total: 14 });
    expect(names(res).slice(0, 3)).toEqual(['alice cooper', 'Bob Otieno', 'Alice Wanjiru']);
    expect(body.data.data[0]).toEqual({
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
    expect(body.data.data[1]!.user_id).toBe(8);
    const stamps = body.data.data.map((e) => Date.parse(e.created_at));
    expect(stamps).toEqual([...stamps].sort((a, b) => b - a));
  });

  it('pages, with an empty page past the end', async () => {
    const second = await list({ page: 2 });
    expect(bodyOf(second, 200).data.data).toHaveLength(4);
    expect(names(second)).toContain('Filler 0');
    const past = await list({ page: 5 });
    expect(past.status).toBe(200);
    expect(bodyOf(past, 200).data).toMatchObject({ data: [], current_page: 5, last_page: 2, total: 14 });
    expect((await list({ per_page: 500 })).status).toBe(422);
  });

  it('filters by each field alone, case-insensitively', async () => {
    expect(names(await search({ name: 'ALICE' }))).toEqual(['alice cooper', 'Alice Wanjiru']);
    expect(names(await search({ activity: 'vote' }))).toEqual(['Bob Otieno']);
    expect(names(await search({ user_id: '7' }))).toEqual(['alice cooper', 'Alice Wanjiru']);
    expect(names(await search({ data: 'member no' }))).toEqual(['alice cooper']);
    expect(names(await search({ ip_address: '192.168' }))).toEqual(['alice cooper']);
    expect(names(await search({ status: 'FAILED' }))).toEqual(['Bob Otieno']);
  });

  it('combines filters and treats wildcards literally', async () => {
    expect(names(await search({ name: 'alice', status: 'success' }))).toEqual(['Alice Wanjiru']);
    expect(names(await search({ name: 'alice', user_id: '7', ip_address: '10.0', activity: 'login', data: 'email' }))).toEqual([
      'Alice Wanjiru',
    ]);
    expect(names(await search({ name: 'bob', user_id: '7' }))).toEqual([]);
    expect(names(await search({ data: '100%' }))).toEqual(['alice cooper']);
    expect(bodyOf(await search({ name: '%' }), 200).data.total).toBe(0);
    expect(bodyOf(await search({ user_id: 'abc' }), 200).data).toMatchObject({ data: [], total: 0, last_page: 1 });
    const filtered = bodyOf(await search({ activity: 'code', per_page: 5, page: 3 }), 200);
    expect(filtered.data).toMatchObject({ current_page: 3, last_page: 3, total: 11 });
    expect(filtered.data.data).toHaveLength(1);
  });

  it('finds an admin change made through the API, with the admin, IP and status', async () => {
    const p = await createPosition(t.ctx);
    const m = await createMember(t.ctx);
    const res = await apiClient(t.app, admin).members.assignPositions({ body: { member_no: m.memberNo, position_ids: [p.id] } });
    expect(res.status).toBe(200);
    const found = await search({ activity: 'positions assigned', name: 'logs admin', data: m.memberNo });
    expect(bodyOf(found, 200).data.data).toEqual([
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
    const both = await search({ user_id: String(id) });
    expect(
      bodyOf(both, 200)
        .data.data.map((e) => e.user_type)
        .sort(),
    ).toEqual(['admin', 'agent', 'voter']);
    expect(names(await search({ user_id: String(id), user_type: 'voter' }))).toEqual(['Same Id Voter']);
    expect(names(await search({ user_id: String(id), user_type: 'admin' }))).toEqual(['Same Id Admin']);
    expect(names(await search({ user_id: String(id), user_type: 'staff' })).sort()).toEqual(['Same Id Admin', 'Same Id Agent']);
    // An empty user_type, as a cleared filter sends it, is no filter.
    expect(names(await search({ user_id: String(id), user_type: untyped('') })).length).toBe(3);
    expect((await search({ user_type: untyped('robot') })).status).toBe(422);
  });

  it('records the user type of a real voter sign-out', async () => {
    const voter = await createMember(t.ctx, { name: 'Signed Out Voter' });
    const voterToken = await tokenFor(t.ctx, 'voter', voter.id);
    expect((await apiClient(t.app, voterToken).auth.logout()).status).toBe(204);
    const found = await search({ user_id: String(voter.id), user_type: 'voter', activity: 'sign-out' });
    expect(bodyOf(found, 200).data.data).toEqual([
      expect.objectContaining({ name: 'Signed Out Voter', user_id: voter.id, user_type: 'voter' }),
    ]);
    const asStaff = await search({ user_id: String(voter.id), user_type: 'staff', activity: 'sign-out', name: 'signed out voter' });
    expect(bodyOf(asStaff, 200).data.data).toEqual([]);
  });

  it('is for admins only', async () => {
    const calls = {
      logs: (token: string | null) => list({}, token),
      'search/logs': (token: string | null) => search({ name: 'a' }, token),
    };
    for (const [route, call] of Object.entries(calls)) {
      expect((await call(null)).status, route).toBe(401);
      for (const role of ['voter', 'agent'] as const) expect((await call(await tokenFor(t.ctx, role))).status, route).toBe(403);
    }
  });
});
