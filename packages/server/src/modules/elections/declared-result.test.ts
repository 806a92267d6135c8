import { eq } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { branches } from '../../db/schema';
import { bearer, createMember, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createElection, createVoter, vote, type Election } from '../../../test/voting/election';

/**
 * The declared result cannot change after close (SECURITY.md "Results visibility"): every edit that
 * would change what `psk/results/final` or its page shows (a candidate's name, member number, photo
 * or positions, a position, a branch that names branch positions, the organisation) answers 409,
 * and the declaration reads the same afterwards.
 */

/** A valid 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const CLOSED = /^The election is closed; .+ can no longer change/;

let t: TestApp;
let e: Election;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  e = await createElection(t.ctx);
  admin = await tokenFor(t.ctx, 'admin');
  expect((await request(t.app).post('/api/v1/toggle').set(bearer(admin)).send({ status: true })).status).toBe(200);
  expect((await vote(t.app, (await createVoter(t.ctx)).token, { [e.chair.id]: e.alice.id })).status).toBe(201);
  expect((await request(t.app).post('/api/v1/election/close').set(bearer(admin))).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

const declaration = async () => {
  const res = await request(t.app).get('/api/v1/psk/results/final');
  expect(res.status).toBe(200);
  return res.body.data;
};

function candidateForm(id: number, fields: Record<string, string | string[]>) {
  const req = request(t.app).post(`/api/v1/edit/candidate/${id}`).set(bearer(admin));
  for (const [key, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) req.field(key, v);
  return req;
}

const aliceFields = (over: Record<string, string | string[]> = {}) => ({
  name: e.alice.name,
  phone: e.alice.phone,
  email: e.alice.email,
  county: 'Nairobi',
  'position_ids[]': [String(e.chair.id)],
  ...over,
});

const expectRefused = (res: request.Response, label: string) => {
  expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(409);
  expect(res.body.message, label).toMatch(CLOSED);
};

describe('after close, the declared result cannot change', () => {
  it('refuses renaming an elected candidate, by the candidate edit, the member edit and a CSV re-import', async () => {
    const before = await declaration();
    expect(before.find((p: { position_id: number }) => p.position_id === e.chair.id).values[0]).toMatchObject({
      name: e.alice.name,
      elected: true,
    });
    expectRefused(await candidateForm(e.alice.id, aliceFields({ name: 'Someone Else' })), 'candidate edit rename');
    expectRefused(
      await request(t.app)
        .post(`/api/v1/edit/psk/member/${e.alice.id}`)
        .set(bearer(admin))
        .send({ name: 'Someone Else', phone: e.alice.phone, email: e.alice.email, county: 'Nairobi', member_no: e.alice.memberNo }),
      'member edit rename',
    );
    expectRefused(
      await request(t.app)
        .post(`/api/v1/edit/psk/member/${e.alice.id}`)
        .set(bearer(admin))
        .send({ name: e.alice.name, phone: e.alice.phone, email: e.alice.email, county: 'Nairobi', member_no: '99999999' }),
      'member edit of the member number',
    );
    const csv = `member_no,name,email,phone,branch\n${e.alice.memberNo},Someone Else,${e.alice.email},${e.alice.phone},Nairobi\n`;
    expectRefused(
      await request(t.app).post('/api/v1/members/import').set(bearer(admin)).attach('file', Buffer.from(csv), 'members.csv'),
      'CSV re-import rename',
    );
    expect(await declaration()).toEqual(before);
  });

  it("refuses a candidate's new photo and a change of the positions they stand for", async () => {
    const before = await declaration();
    expectRefused(await candidateForm(e.alice.id, aliceFields()).attach('image', PNG, 'p.png'), 'candidate photo');
    expectRefused(await candidateForm(e.brian.id, { ...aliceFields(), name: e.brian.name, 'position_ids[]': [] }), 'candidate withdrawn');
    expectRefused(
      await request(t.app)
        .post('/api/v1/assign/psk/position')
        .set(bearer(admin))
        .send({ member_no: (await createMember(t.ctx)).memberNo, position_ids: [e.treasurer.id] }),
      'a new candidate assigned',
    );
    expect(await declaration()).toEqual(before);
  });

  it('refuses position, branch and organisation edits', async () => {
    const before = await declaration();
    const api = (method: 'post' | 'patch' | 'delete' | 'put', path: string) => request(t.app)[method](`/api/v1${path}`).set(bearer(admin));
    expectRefused(await api('patch', `/positions/${e.treasurer.id}`).send({ name: 'Renamed' }), 'position rename');
    expectRefused(await api('delete', `/positions/${e.treasurer.id}`), 'position delete');
    expectRefused(await api('post', '/positions').send({ name: 'Late Position' }), 'position create');
    const [nairobi] = await t.ctx.database.db.select().from(branches).where(eq(branches.name, 'Nairobi'));
    expect(nairobi).toBeDefined();
    expectRefused(await api('patch', `/branches/${nairobi!.id}`).send({ name: 'Nairobi City' }), 'branch rename');
    expectRefused(await api('put', '/election').send({ organisation: 'Another Organisation' }), 'organisation');
    expect(await declaration()).toEqual(before);
  });

  it('still lets an admin correct what the declaration does not show', async () => {
    const other = await createMember(t.ctx, { branch: 'Nairobi' });
    const res = await request(t.app)
      .post(`/api/v1/edit/psk/member/${other.id}`)
      .set(bearer(admin))
      .send({ name: 'Corrected Name', phone: other.phone, email: other.email, county: 'Nairobi', member_no: other.memberNo });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
