import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatePositionBody } from '@kura/contract';
import { apiClient, bodyOf, type ApiClient } from '../../../test/client';
import { createCandidate, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createVoter, setVoting, vote } from '../../../test/voting/election';
import { rotatedFor } from './ballots.service';

/**
 * Rotating a ranked position's candidates per voter (docs/api.md "Rotating the candidates' order"):
 * the set-up field (ranked only, 422 otherwise, kept by a copy) and the ballot that lists a rotating
 * position's candidates in each voter's own order, the same on every load, the count unchanged.
 */
let t: TestApp;
let admin: ApiClient;
let anon: ApiClient;
type Created = { id: number; name: string; method: string | null; rotate_candidates?: boolean };
let rotating: Created;
let plain: Created;
const NAMES = ['Amina A', 'Baraka B', 'Chege C', 'Daudi D', 'Eshe E', 'Faraji F'];
let byName: Record<string, number>;

const createPosition = async (body: CreatePositionBody) => {
  const res = await admin.setup.createPosition({ body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return bodyOf(res, 201).data[0] as Created;
};
type Group = { position_id: number; candidates: { id: number; name: string }[] };
const ballotOf = async (token: string, positionId: number) => {
  const res = await apiClient(t.app, token).ballots.getBallot();
  expect(res.status).toBe(200);
  return (bodyOf(res, 200).data as Group[]).find((g) => g.position_id === positionId)!.candidates.map((c) => c.name);
};

beforeAll(async () => {
  t = await createTestApp({ seedReference: false, env: { MIX_INTERVAL_MS: '3600000', MIX_MIN_BATCH: '1' } });
  admin = apiClient(t.app, await tokenFor(t.ctx, 'admin'));
  anon = apiClient(t.app);
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
    ] satisfies CreatePositionBody[]) {
      const res = await admin.setup.createPosition({ body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(bodyOf(res, 422).errors?.rotate_candidates, JSON.stringify(res.body)).toEqual([
        "Only a ranked position's candidates can be rotated",
      ]);
    }
    const plurality = await createPosition({ name: 'Treasurer', rotate_candidates: false });
    expect(plurality).toMatchObject({ method: 'plurality', rotate_candidates: false });
    const edit = await admin.setup.updatePosition({ params: { id: plurality.id }, body: { rotate_candidates: true } });
    expect(edit.status).toBe(422);
    expect(Object.keys(bodyOf(edit, 422).errors ?? {})).toEqual(['rotate_candidates']);
    // The method after the change counts: ranked and rotating in one edit is fine, the other way round is not.
    const both = await admin.setup.updatePosition({ params: { id: plurality.id }, body: { method: 'ranked', rotate_candidates: true } });
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    expect(bodyOf(both, 200).data).toMatchObject({ method: 'ranked', rotate_candidates: true });
    const away = await admin.setup.updatePosition({ params: { id: plurality.id }, body: { method: 'approval', rotate_candidates: true } });
    expect(away.status).toBe(422);
    expect(bodyOf(away, 422).errors?.rotate_candidates).toBeDefined();
    // Changing the method away from ranked turns it off.
    const off = await admin.setup.updatePosition({ params: { id: plurality.id }, body: { method: 'plurality' } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(bodyOf(off, 200).data).toMatchObject({ method: 'plurality', rotate_candidates: false });
    const motion = await createPosition({ name: 'Adopt the report', kind: 'motion' });
    expect((await admin.setup.updatePosition({ params: { id: motion.id }, body: { rotate_candidates: true } })).status).toBe(422);
    expect((await admin.setup.deletePosition({ params: { id: plurality.id } })).status).toBe(204);
    expect((await admin.setup.deletePosition({ params: { id: motion.id } })).status).toBe(204);
  });

  it('shows in the positions list and can be turned on and off again', async () => {
    const list = bodyOf(await anon.members.listPositions(), 200).data as Created[];
    expect(list.find((p) => p.id === rotating.id)?.rotate_candidates).toBe(true);
    expect(list.find((p) => p.id === plain.id)?.rotate_candidates).toBe(false);
    const on = await admin.setup.updatePosition({ params: { id: plain.id }, body: { rotate_candidates: true } });
    expect(bodyOf(on, 200).data).toMatchObject({ rotate_candidates: true });
    const off = await admin.setup.updatePosition({ params: { id: plain.id }, body: { rotate_candidates: false } });
    expect(bodyOf(off, 200).data).toMatchObject({ rotate_candidates: false });
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
    const results = bodyOf(await anon.elections.getResults(), 200).data.data;
    const chair = results.find((g) => g.position_id === rotating.id)!;
    expect(chair.values.find((v) => v.candidate_id === byName[shown[0]!])?.count).toBe(1);
    expect(chair.values.filter((v) => v.candidate_id !== byName[shown[0]!]).every((v) => v.count === 0)).toBe(true);
    // Results list the rotating position's candidates as they list the other's.
    const secretary = results.find((g) => g.position_id === plain.id)!;
    expect(chair.values.map((v) => v.name)).toEqual(secretary.values.map((v) => v.name));
    // The staff's candidate list keeps its order (by member id: here the order they were added in).
    const staff = await admin.candidates.listCandidates();
    expect(staff.status).toBe(200);
    const names = bodyOf(staff, 200)
      .data.data.candidates.map((c) => c.name)
      .filter((n) => NAMES.includes(n));
    expect(names).toEqual([...NAMES].reverse());
    await setVoting(t.ctx, false);
  });
});

describe('a copy of the election', () => {
  it('keeps the setting', async () => {
    const copy = await admin.organisation.copyElection({ params: { id: 1 }, body: { title: 'Next year', candidates: true } });
    expect(copy.status, JSON.stringify(copy.body)).toBe(201);
    const copied = bodyOf(copy, 201).data.id!;
    const positions = bodyOf(await anon.members.listPositions({ query: { election_id: copied } }), 200).data as Created[];
    expect(positions.find((p) => p.name === 'Chair')).toMatchObject({ method: 'ranked', rotate_candidates: true });
    expect(positions.find((p) => p.name === 'Secretary')).toMatchObject({ method: 'ranked', rotate_candidates: false });
  });
});
