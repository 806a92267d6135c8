import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, bodyOf, untyped, type ApiClient } from '../../../test/client';
import { createCandidate, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createVoter, setVoting, vote, votingRows } from '../../../test/voting/election';
import { verifyAudit } from '../declaration';
import { mixQueuedBallots } from './mixer';

/**
 * Motions, approval and ranked positions on the vote path (docs/api.md "Many elections, motions
 * and ranked counts"): each method's ballot shape, refused otherwise (422, nothing recorded), one
 * ballot and one receipt per position, and the live results each shows.
 */
let t: TestApp;
let admin: ApiClient;
type Created = { id: number; kind: string; method: string | null; threshold: string | null; quorum_percent: number | null; seats: number };
let motion: Created;
let approval: Created;
let ranked: Created;
let a: { id: number }[];
let r: { id: number }[];

const createPosition = async (body: Parameters<ApiClient['setup']['createPosition']>[0]['body']): Promise<Created> => {
  const res = await admin.setup.createPosition({ body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return bodyOf(res, 201).data[0]!;
};

beforeAll(async () => {
  t = await createTestApp({ seedReference: false, env: { MIX_INTERVAL_MS: '3600000', MIX_MIN_BATCH: '1' } });
  admin = apiClient(t.app, await tokenFor(t.ctx, 'admin'));
  motion = await createPosition({ name: 'Adopt the budget', kind: 'motion', threshold: 'two_thirds', quorum_percent: 40 });
  approval = await createPosition({ name: 'Committee', seats: 2, method: 'approval' });
  ranked = await createPosition({ name: 'Chair', method: 'ranked' });
  a = [];
  for (const name of ['Pia P', 'Quentin Q', 'Rosa R']) a.push(await createCandidate(t.ctx, [approval.id], { name }));
  r = [];
  for (const name of ['Xavi X', 'Yara Y', 'Zola Z']) r.push(await createCandidate(t.ctx, [ranked.id], { name }));
  await t.ctx.voting.tallyOf(1).refreshStructure();
  await setVoting(t.ctx, true);
});
afterAll(async () => {
  await t?.close();
});

type Group = {
  position_id: number;
  kind: string;
  method: string | null;
  threshold: string | null;
  quorum_percent: number | null;
  seats: number;
  candidates: { id: number; name: string; photo: string | null }[];
};
const ballot = async (token: string): Promise<Group[]> => bodyOf(await apiClient(t.app, token).ballots.getBallot(), 200).data;
const options = async () => {
  const { token } = await createVoter(t.ctx);
  const m = (await ballot(token)).find((g) => g.position_id === motion.id)!;
  return Object.fromEntries(m.candidates.map((c) => [c.name, c.id])) as Record<'Yes' | 'No' | 'Abstain', number>;
};
const results = async () =>
  bodyOf(await apiClient(t.app).elections.getResults(), 200).data.data as {
    position_id: number;
    kind?: string;
    method?: string;
    first_preferences_only?: boolean;
    values: { candidate_id: number; name: string; count: number }[];
  }[];

describe('set-up of motions and methods', () => {
  it('creates a motion with its threshold and quorum, and a method per candidates position', () => {
    expect(motion).toMatchObject({ kind: 'motion', method: null, threshold: 'two_thirds', quorum_percent: 40, seats: 1 });
    expect(approval).toMatchObject({ kind: 'candidates', method: 'approval', threshold: null, quorum_percent: null, seats: 2 });
    expect(ranked).toMatchObject({ kind: 'candidates', method: 'ranked', threshold: null });
  });

  it('refuses a method on a motion, a threshold or quorum on a candidates position, and seats on a motion (422)', async () => {
    const bad = [
      [{ name: 'M1', kind: 'motion', method: 'ranked' }, 'method'],
      [{ name: 'M2', kind: 'motion', seats: 2 }, 'seats'],
      [{ name: 'C1', threshold: 'majority' }, 'threshold'],
      [{ name: 'C2', quorum_percent: 50 }, 'quorum_percent'],
      [{ name: 'C3', method: 'borda' }, 'method'],
      [{ name: 'M3', kind: 'motion', quorum_percent: 0 }, 'quorum_percent'],
      [{ name: 'M4', kind: 'motion', quorum_percent: 101 }, 'quorum_percent'],
    ] as const;
    for (const [body, field] of bad) {
      const res = await admin.setup.createPosition({ body: untyped(body) });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(bodyOf(res, 422).errors ?? {}), JSON.stringify(body)).toContain(field);
    }
    const onMotion = await admin.setup.updatePosition({ params: { id: motion.id }, body: { method: 'approval' } });
    expect(onMotion.status).toBe(422);
    const onCandidates = await admin.setup.updatePosition({ params: { id: ranked.id }, body: { threshold: 'majority' } });
    expect(onCandidates.status).toBe(422);
  });

  it('edits a motion threshold and quorum before votes', async () => {
    const m = await createPosition({ name: 'Edit me', kind: 'motion' });
    expect(m).toMatchObject({ threshold: 'majority', quorum_percent: null });
    const res = await admin.setup.updatePosition({ params: { id: m.id }, body: { threshold: 'three_quarters', quorum_percent: 25 } });
    expect(res.status).toBe(200);
    expect(bodyOf(res, 200).data).toMatchObject({ kind: 'motion', threshold: 'three_quarters', quorum_percent: 25 });
    expect((await admin.setup.deletePosition({ params: { id: m.id } })).status).toBe(204);
  });

  it('a motion takes no candidates (422)', async () => {
    const res = await admin.members.assignPositions({
      body: { member_no: (await createVoter(t.ctx)).member.memberNo, position_ids: [motion.id] },
    });
    expect(res.status).toBe(422);
    expect(bodyOf(res, 422).errors?.position_ids?.[0]).toMatch(/is a motion, which take no candidates/);
  });

  it('the ballot shows each position with its kind, method and a motion with Yes, No and Abstain', async () => {
    const { token } = await createVoter(t.ctx);
    const groups = await ballot(token);
    const m = groups.find((g) => g.position_id === motion.id)!;
    expect(m).toMatchObject({ kind: 'motion', method: null, threshold: 'two_thirds', quorum_percent: 40, seats: 1 });
    expect(m.candidates.map((c) => [c.name, c.photo])).toEqual([
      ['Yes', null],
      ['No', null],
      ['Abstain', null],
    ]);
    expect(groups.find((g) => g.position_id === approval.id)).toMatchObject({
      kind: 'candidates',
      method: 'approval',
      seats: 2,
      threshold: null,
      quorum_percent: null,
    });
    expect(groups.find((g) => g.position_id === ranked.id)).toMatchObject({ kind: 'candidates', method: 'ranked' });
  });
});

describe('ballot shapes per method', () => {
  it('refuses each bad shape with 422 and records nothing, all-or-nothing with the rest of the ballot', async () => {
    const o = await options();
    const { token } = await createVoter(t.ctx);
    const before = await votingRows(t.ctx);
    const field = (id: number) => `candidates.${id}`;
    const cases: [Record<number, number | number[]>, number, RegExp][] = [
      // motion: exactly one option
      [{ [motion.id]: [o.Yes, o.No] }, motion.id, /^Choose one of Yes, No or Abstain for /],
      [{ [motion.id]: 999_999 }, motion.id, /^The selected option is not one of Yes, No or Abstain/],
      // approval: distinct standing candidates
      [{ [approval.id]: [a[0]!.id, a[0]!.id] }, approval.id, /^Choose each candidate for .* at most once$/],
      [{ [approval.id]: [a[0]!.id, r[0]!.id] }, approval.id, /^The selected candidate is not standing for /],
      // ranked: distinct standing candidates
      [{ [ranked.id]: [r[0]!.id, r[1]!.id, r[0]!.id] }, ranked.id, /^Choose each candidate for .* at most once$/],
      [{ [ranked.id]: [r[0]!.id, o.Yes] }, ranked.id, /^The selected candidate is not standing for /],
      // a good motion choice with a bad ranking: nothing of either
      [{ [motion.id]: o.Yes, [ranked.id]: [r[1]!.id, r[1]!.id] }, ranked.id, /at most once$/],
    ];
    for (const [choices, position, message] of cases) {
      const res = await vote(t.app, token, choices as never);
      expect(res.status, JSON.stringify(choices)).toBe(422);
      expect(bodyOf(res, 422).errors?.[field(position)]?.[0], JSON.stringify(res.body)).toMatch(message);
    }
    expect((await vote(t.app, token, { [ranked.id]: [] } as never)).status).toBe(422);
    expect(await votingRows(t.ctx)).toEqual(before);
  });

  it('takes every method’s shape: approval of all candidates beyond the seats, a full ranking, one motion option', async () => {
    const o = await options();
    const { token } = await createVoter(t.ctx);
    const before = await votingRows(t.ctx);
    const res = await vote(t.app, token, {
      [motion.id]: o.No,
      [approval.id]: a.map((c) => c.id),
      [ranked.id]: [r[2]!.id, r[0]!.id, r[1]!.id],
    } as never);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(bodyOf(res, 201).receipts).toHaveLength(3);
    const after = await votingRows(t.ctx);
    expect(after.participation - before.participation).toBe(3);
    // One sealed queue row per position's ballot: a ranking travels as one record.
    expect(after.queue - before.queue).toBe(3);
    // A ranking of one is a ranking too.
    const short = await createVoter(t.ctx);
    expect((await vote(t.app, short.token, { [ranked.id]: [r[1]!.id] } as never)).status).toBe(201);
  });

  it('20 concurrent rankings from one member record exactly one ballot', async () => {
    const { token } = await createVoter(t.ctx);
    const before = await votingRows(t.ctx);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => vote(t.app, token, { [ranked.id]: i % 2 ? [r[0]!.id, r[1]!.id] : [r[2]!.id] } as never)),
    );
    const statuses = answers.map((x) => x.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const after = await votingRows(t.ctx);
    expect(after.participation - before.participation).toBe(1);
    expect(after.queue - before.queue).toBe(1);
  });
});

describe('live results', () => {
  it('a ranked position shows first preferences only, flagged; a motion its three counts; queued and mixed alike', async () => {
    const o = await options();
    const check = async () => {
      const groups = await results();
      const rk = groups.find((g) => g.position_id === ranked.id)!;
      expect(rk).toMatchObject({ kind: 'candidates', method: 'ranked', first_preferences_only: true });
      const m = groups.find((g) => g.position_id === motion.id)!;
      expect(m.kind).toBe('motion');
      return { rk, m };
    };
    const base = await check();
    const firstOf = (g: typeof base.rk, id: number) => g.values.find((v) => v.candidate_id === id)?.count ?? 0;
    const optionCount = (g: typeof base.m, name: string) => g.values.find((v) => v.name === name)!.count;
    const v = await createVoter(t.ctx);
    expect((await vote(t.app, v.token, { [ranked.id]: [r[0]!.id, r[1]!.id, r[2]!.id], [motion.id]: o.Abstain } as never)).status).toBe(201);
    const live = await check();
    expect(firstOf(live.rk, r[0]!.id) - firstOf(base.rk, r[0]!.id)).toBe(1);
    expect(firstOf(live.rk, r[1]!.id)).toBe(firstOf(base.rk, r[1]!.id));
    expect(firstOf(live.rk, r[2]!.id)).toBe(firstOf(base.rk, r[2]!.id));
    expect(live.m.values.map((x) => x.name)).toEqual(['Yes', 'No', 'Abstain']);
    expect(optionCount(live.m, 'Abstain') - optionCount(base.m, 'Abstain')).toBe(1);
    // The same after a resync from the queue, and after mixing (ranks stored, first preferences counted).
    await t.ctx.voting.tallyOf(1).resync();
    expect((await check()).rk.values).toEqual(live.rk.values);
    await mixQueuedBallots(t.ctx);
    await t.ctx.voting.tallyOf(1).resync();
    expect((await check()).rk.values).toEqual(live.rk.values);
    expect((await check()).m.values).toEqual(live.m.values);
    const [row] = await t.ctx.database.sql<{ ranked: number; unranked: number }[]>`
      select count(*) filter (where position_id = ${ranked.id} and rank > 0)::int as ranked,
             count(*) filter (where position_id <> ${ranked.id} and rank > 0)::int as unranked from ballots`;
    expect(row!.ranked).toBeGreaterThan(0);
    expect(row!.unranked).toBe(0);
    expect((await admin.elections.toggleElection({ body: { status: true } })).status).toBe(200);
    expect((await verifyAudit(t.ctx, 1)).problems).toEqual([]);
  });
});
