import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultGroup } from '@kura/contract';
import { apiClient, bodyOf, type ApiClient } from '../../../test/client';
import { createCandidate, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createVoter, vote } from '../../../test/voting/election';
import type { BallotsContext } from '../ballots';
import { TallySnapshot } from './tally';

/**
 * Live counts equal a recount of the box at every moment, also for votes that arrive while the
 * snapshot is being built or rebuilt (docs/architecture.md "Realtime"). A build is held open
 * deterministically: the snapshot under test reads through a database whose read transaction,
 * once committed, waits for the test before the snapshot goes on. Votes cast meanwhile commit
 * after the read's database snapshot, so they reach the tally as the deltas a build must add
 * itself; a ranked ballot's later preferences must not count.
 */
let t: TestApp;
let admin: string;
let ranked: number;
let plurality: number;
let approval: number;
let motion: number;
/** A ranked position added after the first build (the snapshot under test learns it from a resync). */
let vice: number | undefined;
const c: Record<string, number> = {};
/** What the box holds: every ballot cast, in its voter's order. */
const box: Record<number, number | number[]>[] = [];

const create = async (body: Parameters<ApiClient['setup']['createPosition']>[0]['body']) => {
  const res = await apiClient(t.app, admin).setup.createPosition({ body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return bodyOf(res, 201).data[0]!.id;
};

/** Casts each ballot as a new voter, all at once, and records it in `box`. */
const cast = async (ballots: Record<number, number | number[]>[]) => {
  const responses = await Promise.all(
    ballots.map(async (choices) => {
      const { token } = await createVoter(t.ctx);
      return vote(t.app, token, choices as never);
    }),
  );
  for (const res of responses) expect(res.status, JSON.stringify(res.body)).toBe(201);
  box.push(...ballots);
};

/** A recount of `box` by the live rule: a ranked ballot's first preference, every other mark. */
function recount(): Map<number, Map<number, number>> {
  const counts = new Map<number, Map<number, number>>();
  for (const ballot of box) {
    for (const [position, choice] of Object.entries(ballot)) {
      const marks = Array.isArray(choice) ? choice : [choice];
      const counted = [ranked, vice].includes(Number(position)) ? marks.slice(0, 1) : marks;
      const byCandidate = counts.get(Number(position)) ?? new Map<number, number>();
      counts.set(Number(position), byCandidate);
      for (const id of counted) byCandidate.set(id, (byCandidate.get(id) ?? 0) + 1);
    }
  }
  return counts;
}

const live = (results: ResultGroup[]) =>
  new Map(results.map((g) => [g.position_id, new Map(g.values.filter((v) => v.count > 0).map((v) => [v.candidate_id, v.count]))]));

/** The snapshot's counts equal the recount of the box, and a snapshot built afresh agrees. */
async function expectExact(snapshot: TallySnapshot) {
  const expected = recount();
  const shown = live(snapshot.results());
  for (const position of [ranked, plurality, approval, motion, ...(vice ? [vice] : [])]) {
    expect(Object.fromEntries(shown.get(position) ?? []), `position ${position}`).toEqual(Object.fromEntries(expected.get(position) ?? []));
  }
  const fresh = new TallySnapshot(t.ctx, 1);
  await fresh.whenReady();
  expect(snapshot.results()).toEqual(fresh.results());
  // Ballots and voters (member counters follow the register, re-read on their own clock).
  const voting = async (s: TallySnapshot) => (({ votesCasted, membersVoted }) => ({ votesCasted, membersVoted }))(await s.statistics());
  expect(await voting(snapshot)).toEqual(await voting(fresh));
}

/**
 * A snapshot of election 1 fed by this process's votes, whose reads hold when `hold()` was called:
 * `held` resolves once a read transaction committed and waits, `release()` lets it go on.
 */
function heldSnapshot() {
  let gate: { reached: () => void; wait: Promise<void>; release: () => void } | undefined;
  const db = t.ctx.database.db;
  const transaction: typeof db.transaction = async (...args) => {
    const read = await db.transaction(...args);
    const current = gate;
    if (current) {
      gate = undefined;
      current.reached();
      await current.wait;
    }
    return read;
  };
  const ctx: BallotsContext = {
    ...t.ctx,
    database: { ...t.ctx.database, db: Object.assign(Object.create(db) as typeof db, { transaction }) },
  };
  const snapshot = new TallySnapshot(ctx, 1);
  const unsubscribe = t.ctx.events.subscribe({ 'votes.cast': (v) => snapshot.applyVote(v) });
  const hold = () => {
    let reached!: () => void;
    let release!: () => void;
    const held = new Promise<void>((r) => (reached = r));
    const wait = new Promise<void>((r) => (release = r));
    gate = { reached, wait, release };
    return { held, release };
  };
  return { snapshot, hold, unsubscribe };
}

beforeAll(async () => {
  t = await createTestApp({ seedReference: false, env: { MIX_INTERVAL_MS: '3600000' } });
  admin = await tokenFor(t.ctx, 'admin');
  ranked = await create({ name: 'Chair', method: 'ranked' });
  plurality = await create({ name: 'Secretary' });
  approval = await create({ name: 'Committee', seats: 2, method: 'approval' });
  motion = await create({ name: 'Motion', kind: 'motion' });
  for (const name of ['Njoki', 'Otieno', 'Wanjiru']) c[name] = (await createCandidate(t.ctx, [ranked], { name })).id;
  for (const name of ['Sila', 'Tom']) c[name] = (await createCandidate(t.ctx, [plurality], { name })).id;
  for (const name of ['Pia', 'Quentin', 'Rosa']) c[name] = (await createCandidate(t.ctx, [approval], { name })).id;
  const options = await t.ctx.database.sql<
    { id: number; name: string }[]
  >`select id, name from motion_options where position_id = ${motion}`;
  for (const o of options) c[o.name] = o.id;
  await t.ctx.voting.tallyOf(1).refreshStructure();
  expect((await apiClient(t.app, admin).elections.toggleElection({ body: { status: true } })).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

/** Ballots whose ranked entries put Njoki first and Otieno, Wanjiru after: later preferences that must not count. */
const ballots = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    [ranked]: i % 2 ? [c.Njoki!, c.Otieno!, c.Wanjiru!] : [c.Wanjiru!, c.Njoki!],
    [plurality]: i % 3 ? c.Sila! : c.Tom!,
    [approval]: i % 2 ? [c.Pia!, c.Rosa!] : [c.Quentin!],
    [motion]: i % 4 ? c.Yes! : c.Abstain!,
    ...(vice ? { [vice]: i % 2 ? [c.Zawadi!, c.Amani!] : [c.Amani!, c.Zawadi!] } : {}),
  }));

describe('live counts while a snapshot is built', () => {
  let snapshot: TallySnapshot;
  let hold: ReturnType<typeof heldSnapshot>['hold'];
  let unsubscribe: () => void;
  beforeAll(() => {
    ({ snapshot, hold, unsubscribe } = heldSnapshot());
  });
  afterAll(() => unsubscribe());

  it('counts votes cast during the first build as the box does (a ranked ballot by its first preference)', async () => {
    await cast(ballots(4));
    const { held, release } = hold();
    snapshot.start();
    await held;
    // The build has read the box; these commit after its snapshot and reach it as deltas.
    await cast(ballots(10));
    release();
    await snapshot.whenReady();
    await expectExact(snapshot);
  });

  it('stays exact vote by vote after the build', async () => {
    for (const ballot of ballots(3)) {
      await cast([ballot]);
      await expectExact(snapshot);
    }
  });

  it('counts votes cast during a resync as the box does, for a ranked position new since the last build too', async () => {
    vice = await create({ name: 'Vice chair', method: 'ranked' });
    for (const name of ['Zawadi', 'Amani']) c[name] = (await createCandidate(t.ctx, [vice], { name })).id;
    const { held, release } = hold();
    const resync = snapshot.resync();
    await held;
    await cast(ballots(7));
    release();
    await resync;
    await expectExact(snapshot);
    await cast(ballots(2));
    await expectExact(snapshot);
  });
});
