import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createCandidate, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createVoter, setVoting, vote } from '../../../test/voting/election';
import { rotatedFor } from './ballots.service';

/**
 * Rotating a ranked position's candidates per voter (docs/api.md "Rotating the candidates' order"):
 * the set-up field (ranked only, 422 otherwise, kept by a copy) and the ballot that lists a rotating
 * position's candidates in each voter's own order, the same on every load, the count unchanged.
 */
let t: TestApp;
let admin: string;
type Created = { id: number; name: string; method: string | null; rotate_candidates?: boolean };
let rotating: Created;
let plain: Created;
const NAMES = ['Amina A', 'Baraka B', 'Chege C', 'Daudi D', 'Eshe E', 'Faraji F'];
let byName: Record<string, number>;

const api = (method: 'get' | 'post' | 'patch' | 'delete', path: string) => request(t.app)[method](`/api/v1${path}`).set(bearer(admin));
const createPosition = async (body: Record<string, unknown>) => {
  const res = await api('post', '/positions').send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data[0] as Created;
};
type Group = { position_id: number; candidates: { id: number; name: string }[] };
const ballotOf = async (token: string, positionId: number) => {
  const res = await request(t.app).get('/api/v1/psk/candidates/v2').set(bearer(token));
  expect(res.status).toBe(200);
  return (res.body.data as Group[]).find((g) => g.position_id === positionId)!.candidates.map((c) => c.name);
};

beforeAll(async () => {
  t = await createTestApp({ seedReference: false, env: { MIX_INTERVAL_MS: '3600000', MIX_MIN_BATCH: '1' } });
  admin = await tokenFor(t.ctx, 'admin');
  rotating = await createPosition({ name: 'Chair', method: 'ranked', rotate_candidates: true });
  plain = await createPosition({ name: 'Secretary', method: 'ranked' });
  byName = {};
  // Added out of name order: the usual ballot lists them by name whatever the order they came in.
  for (const name of [...NAMES].reverse()) byName[name] = (await createCandidate(t.ctx, [rotating.id, plain.id], { name })).id;
  await t.ctx.voting.tallyOf(1).refreshStructure();
});
afterAll(async () => {
  await t?.close();
});

describe('the rotate_candidates setting', () => {
  it('is false unless asked for, and a ranked position takes it', () => {
    expect(rotating).toMatchObject({ method: 'ranked', rotate_candidates: true });
    expect(plain).toMatchObject({ method: 'ranked', rotate_candidates: false });
  });

  it('is refused (422, naming the field) on a plurality, approval or motion position, created or edited', async () => {
    for (const body of [
      { name: 'P1', rotate_candidates: true },
      { name: 'P2', method: 'plurality', rotate_candidates: true },
      { name: 'P3', method: 'approval', rotate_candidates: true },
      { name: 'P4', kind: 'motion', rotate_candidates: true },
    ]) {
      const res = await api('post', '/positions').send(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors.rotate_candidates, JSON.stringify(res.body)).toEqual(["Only a ranked position's candidates can be rotated"]);
    }
    const plurality = await createPosition({ name: 'Treasurer', rotate_candidates: false });
    expect(plurality).toMatchObject({ method: 'plurality', rotate_candidates: false });
    const edit = await api('patch', `/positions/${plurality.id}`).send({ rotate_candidates: true });
    expect(edit.status).toBe(422);
    expect(Object.keys(edit.body.errors)).toEqual(['rotate_candidates']);
    // The method after the change counts: ranked and rotating in one edit is fine, the other way round is not.
    const both = await api('patch', `/positions/${plurality.id}`).send({ method: 'ranked', rotate_candidates: true });
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    expect(both.body.data).toMatchObject({ method: 'ranked', rotate_candidates: true });
    const away = await api('patch', `/positions/${plurality.id}`).send({ method: 'approval', rotate_candidates: true });
    expect(away.status).toBe(422);
    expect(away.body.errors.rotate_candidates).toBeDefined();
    // Changing the method away from ranked turns it off.
    const off = await api('patch', `/positions/${plurality.id}`).send({ method: 'plurality' });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.data).toMatchObject({ method: 'plurality', rotate_candidates: false });
    const motion = await createPosition({ name: 'Adopt the report', kind: 'motion' });
    expect((await api('patch', `/positions/${motion.id}`).send({ rotate_candidates: true })).status).toBe(422);
    expect((await api('delete', `/positions/${plurality.id}`)).status).toBe(204);
    expect((await api('delete', `/positions/${motion.id}`)).status).toBe(204);
  });

  it('shows in the positions list and can be turned on and off again', async () => {
    const list = (await request(t.app).get('/api/v1/psk/positions')).body.data as Created[];
    expect(list.find((p) => p.id === rotating.id)?.rotate_candidates).toBe(true);
    expect(list.find((p) => p.id === plain.id)?.rotate_candidates).toBe(false);
    const on = await api('patch', `/positions/${plain.id}`).send({ rotate_candidates: true });
    expect(on.body.data).toMatchObject({ rotate_candidates: true });
    const off = await api('patch', `/positions/${plain.id}`).send({ rotate_candidates: false });
    expect(off.body.data).toMatchObject({ rotate_candidates: false });
  });
});

describe('the ballot of a rotating position', () => {
  it("lists the candidates in each voter's own order, the same on every load; a non-rotating position keeps name order", async () => {
    const first = await createVoter(t.ctx);
    const mine = await ballotOf(first.token, rotating.id);
    // Every candidate, once, in the order the member's id and the position's id give.
    expect([...mine].sort()).toEqual(NAMES);
    const expected = rotatedFor(
      first.member.id,
      rotating.id,
      NAMES.map((name) => ({ id: byName[name]!, name })),
    ).map((c) => c.name);
    expect(mine).toEqual(expected);
    // Reloads give the same order.
    expect(await ballotOf(first.token, rotating.id)).toEqual(mine);
    expect(await ballotOf(first.token, rotating.id)).toEqual(mine);
    // Another voter: a different order (the chance of two equal shuffles of six is 1 in 720, so
    // a third voter is tried before the test would call the orders unrotated).
    let other: string[] = mine;
    let otherId = 0;
    for (let i = 0; i < 3 && other.join() === mine.join(); i++) {
      const v = await createVoter(t.ctx);
      otherId = v.member.id;
      other = await ballotOf(v.token, rotating.id);
    }
    expect(otherId).not.toBe(first.member.id);
    expect(other).not.toEqual(mine);
    expect([...other].sort()).toEqual(NAMES);
    // Not merely name order for both (the rotation is real).
    expect([mine, other].some((o) => o.join() !== NAMES.join())).toBe(true);
    // The position beside it that does not rotate: name order for everyone.
    expect(await ballotOf(first.token, plain.id)).toEqual(NAMES);
    expect(await ballotOf((await createVoter(t.ctx)).token, plain.id)).toEqual(NAMES);
  });

  it('never changes what is counted: a ranking in the shown order counts its first choice; staff and results keep the usual order', async () => {
    await setVoting(t.ctx, true);
    const { token } = await createVoter(t.ctx);
    const shown = await ballotOf(token, rotating.id);
    const res = await vote(t.app, token, { [rotating.id]: shown.map((n) => byName[n]!) } as never);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const results = (await request(t.app).get('/api/v1/psk/results')).body.data.data as {
      position_id: number;
      values: { candidate_id: number; name: string; count: number }[];
    }[];
    const chair = results.find((g) => g.position_id === rotating.id)!;
    expect(chair.values.find((v) => v.candidate_id === byName[shown[0]!])?.count).toBe(1);
    expect(chair.values.filter((v) => v.candidate_id !== byName[shown[0]!]).every((v) => v.count === 0)).toBe(true);
    // Results list the rotating position's candidates as they list the other's.
    const secretary = results.find((g) => g.position_id === plain.id)!;
    expect(chair.values.map((v) => v.name)).toEqual(secretary.values.map((v) => v.name));
    // The staff's candidate list keeps its order (by member id: here the order they were added in).
    const staff = await api('get', '/psk/candidates');
    expect(staff.status).toBe(200);
    const names = (staff.body.data.data.candidates as { name: string }[]).map((c) => c.name).filter((n) => NAMES.includes(n));
    expect(names).toEqual([...NAMES].reverse());
    await setVoting(t.ctx, false);
  });
});

describe('a copy of the election', () => {
  it('keeps the setting', async () => {
    const copy = await api('post', '/elections/1/copy').send({ title: 'Next year', candidates: true });
    expect(copy.status, JSON.stringify(copy.body)).toBe(201);
    const positions = (await request(t.app).get(`/api/v1/psk/positions?election_id=${copy.body.data.id}`)).body.data as Created[];
    expect(positions.find((p) => p.name === 'Chair')).toMatchObject({ method: 'ranked', rotate_candidates: true });
    expect(positions.find((p) => p.name === 'Secretary')).toMatchObject({ method: 'ranked', rotate_candidates: false });
  });
});
