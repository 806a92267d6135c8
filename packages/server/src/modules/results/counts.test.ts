import { countBlt, parseBlt } from '@kura/count';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, bodyOf, type ApiClient } from '../../../test/client';
import { createCandidate, createMember, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createVoter, vote } from '../../../test/voting/election';
import { verifyAudit } from '../declaration';

/**
 * The declared result of motions, approval and ranked positions, through the real vote path and
 * the close (docs/api.md "Many elections, motions and ranked counts"): thresholds at their
 * boundaries, the quorum over the roll with abstentions counting towards it only, approval ties
 * across the last seat, an STV count whose winner is not the first-preference leader, the BLT
 * export recounting to the declared result, and the audit catching a ranking altered after close.
 */
let t: TestApp;
let admin: ApiClient;
type Motion = { id: number; o: Record<'Yes' | 'No' | 'Abstain', number> };
const motions: Record<string, Motion> = {};
let approval: number;
let ranked: number;
let rankedMulti: number;
let rankedTie: number;
const c: Record<string, number> = {};
let final: { data: Record<string, unknown>[] };
let roll = 0;

const create = async (body: Parameters<ApiClient['setup']['createPosition']>[0]['body']) => {
  const res = await admin.setup.createPosition({ body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return bodyOf(res, 201).data[0]!.id;
};
/** The BLT of a ranked position's ballots (text/plain), or its refusal. */
const ballotsOf = (app: TestApp['app'], positionId: number) =>
  apiClient(app).lifecycle.getRankedBallots({ query: { position_id: positionId } });

/** Voters, each casting the choices given (position → option/candidate(s)). */
const cast = async (ballots: Record<number, number | number[]>[]) => {
  for (const choices of ballots) {
    const { token } = await createVoter(t.ctx);
    const res = await vote(t.app, token, choices as never);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
};
const rep = <T>(n: number, v: T): T[] => Array.from({ length: n }, () => v);

beforeAll(async () => {
  t = await createTestApp({ seedReference: false, env: { MIX_INTERVAL_MS: '3600000' } });
  admin = apiClient(t.app, await tokenFor(t.ctx, 'admin'));
  const specs: [string, { threshold?: 'majority' | 'two_thirds' | 'three_quarters'; quorum_percent?: number }][] = [
    ['twoThirdsAt', { threshold: 'two_thirds' }],
    ['twoThirdsBelow', { threshold: 'two_thirds' }],
    ['majorityHalf', { threshold: 'majority' }],
    ['threeQuarters', { threshold: 'three_quarters' }],
    ['quorumMet', { quorum_percent: 50 }],
    ['quorumMissed', { quorum_percent: 50 }],
  ];
  for (const [key, extra] of specs) {
    const id = await create({ name: `Motion ${key}`, kind: 'motion', ...extra });
    const rows = await t.ctx.database.sql<
      { id: number; name: 'Yes' | 'No' | 'Abstain' }[]
    >`select id, name from motion_options where position_id = ${id}`;
    motions[key] = { id, o: Object.fromEntries(rows.map((r) => [r.name, r.id])) as Motion['o'] };
  }
  approval = await create({ name: 'Committee', seats: 2, method: 'approval' });
  ranked = await create({ name: 'Chair', method: 'ranked' });
  rankedMulti = await create({ name: 'Board', seats: 2, method: 'ranked' });
  rankedTie = await create({ name: 'Treasurer', method: 'ranked' });
  for (const name of ['Pia', 'Quentin', 'Rosa', 'Sam']) c[name] = (await createCandidate(t.ctx, [approval], { name })).id;
  for (const name of ['Ada', 'Ben', 'Cleo']) c[name] = (await createCandidate(t.ctx, [ranked], { name })).id;
  for (const name of ['Dee', 'Eli', 'Fay', 'Gus']) c[name] = (await createCandidate(t.ctx, [rankedMulti], { name })).id;
  for (const name of ['Hal', 'Ivy', 'Jo']) c[name] = (await createCandidate(t.ctx, [rankedTie], { name })).id;
  await t.ctx.voting.tallyOf(1).refreshStructure();
  expect((await admin.elections.toggleElection({ body: { status: true } })).status).toBe(200);

  const m = motions;
  const on = (key: string, option: 'Yes' | 'No' | 'Abstain') => ({ [m[key]!.id]: m[key]!.o[option] });
  // Motions: each voter's ballot names only the motions they vote on.
  await cast([...rep(2, on('twoThirdsAt', 'Yes')), on('twoThirdsAt', 'No')]); // 2 : 1 passes two_thirds
  await cast([...rep(13, on('twoThirdsBelow', 'Yes')), ...rep(7, on('twoThirdsBelow', 'No'))]); // 65 : 35 does not
  await cast([on('majorityHalf', 'Yes'), on('majorityHalf', 'No'), on('majorityHalf', 'Abstain')]); // 1 : 1 fails
  await cast([...rep(3, on('threeQuarters', 'Yes')), on('threeQuarters', 'No'), ...rep(5, on('threeQuarters', 'Abstain'))]); // 3 : 1 passes
  // Approval, 2 seats: Pia 3, Quentin 2, Rosa 2, Sam 0: Quentin and Rosa tie across the last seat.
  await cast([{ [approval]: [c.Pia!, c.Quentin!] }, { [approval]: [c.Pia!, c.Rosa!] }, { [approval]: [c.Pia!, c.Quentin!, c.Rosa!] }]);
  // Ranked, one seat: Ada leads on first preferences (4), but Cleo's papers go to Ben (3 + 2 = 5).
  await cast([...rep(4, { [ranked]: [c.Ada!] }), ...rep(3, { [ranked]: [c.Ben!, c.Cleo!] }), ...rep(2, { [ranked]: [c.Cleo!, c.Ben!] })]);
  // Ranked, two seats: Dee's surplus moves on to Eli and Fay at a fractional transfer value.
  await cast([
    ...rep(5, { [rankedMulti]: [c.Dee!, c.Eli!] }),
    ...rep(2, { [rankedMulti]: [c.Dee!, c.Fay!] }),
    ...rep(2, { [rankedMulti]: [c.Fay!] }),
    ...rep(2, { [rankedMulti]: [c.Gus!, c.Fay!] }),
    { [rankedMulti]: [c.Eli!, c.Gus!] },
  ]);
  // Ranked, one seat, a tie at every stage: Jo is excluded, then Hal and Ivy stand equal (2 : 2)
  // with no earlier stage to tell them apart, so the lot decides who is excluded.
  await cast([...rep(2, { [rankedTie]: [c.Hal!] }), ...rep(2, { [rankedTie]: [c.Ivy!] }), { [rankedTie]: [c.Jo!] }]);
  // Quorum motions last, over a roll counted now (voters added after the count would change it).
  const before = (await t.ctx.database.sql<{ n: number }[]>`select count(*)::int as n from members`)[0]!.n;
  // A roll of `before` + 10 members: 50% needs half of them to vote.
  const needed = Math.ceil((before + 10) / 2);
  // quorumMet: one Yes and abstentions up to the quorum exactly; quorumMissed: one short.
  const met = [on('quorumMet', 'Yes'), ...rep(needed - 1, on('quorumMet', 'Abstain'))];
  const missed = [on('quorumMissed', 'Yes'), ...rep(needed - 2, on('quorumMissed', 'Abstain'))];
  // Each voter is a new member: cast both lists with the same voters, ten of them new, the rest existing members.
  const extra = Math.max(met.length, missed.length);
  expect(extra).toBeGreaterThan(10);
  const existing = await t.ctx.database.sql<{ id: number }[]>`select id from members order by id limit ${extra - 10}`;
  const voters = existing.map((r) => r.id);
  for (let i = 0; i < 10; i++) voters.push((await createMember(t.ctx)).id);
  for (let i = 0; i < extra; i++) {
    const token = await tokenFor(t.ctx, 'voter', voters[i]!);
    const choices = { ...(met[i] ?? {}), ...(missed[i] ?? {}) };
    const res = await vote(t.app, token, choices);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  roll = (await t.ctx.database.sql<{ n: number }[]>`select count(*)::int as n from members`)[0]!.n;
  expect(roll).toBe(before + 10);

  expect((await admin.lifecycle.closeElection()).status).toBe(200);
  const res = await apiClient(t.app).lifecycle.getFinalResults();
  expect(res.status).toBe(200);
  final = res.body as typeof final;
  // About 120 votes through the real path, then the close: longer than the default hook time on a busy machine.
}, 300_000);
afterAll(async () => {
  await t?.close();
});

const result = (id: number) => final.data.find((d) => d.position_id === id) as Record<string, unknown>;

describe('motions', () => {
  it('passes at each threshold exactly at the boundary and not below', () => {
    expect(result(motions.twoThirdsAt!.id)).toMatchObject({
      kind: 'motion',
      yes: 2,
      no: 1,
      abstain: 0,
      threshold: 'two_thirds',
      passed: true,
    });
    expect(result(motions.twoThirdsBelow!.id)).toMatchObject({ yes: 13, no: 7, threshold: 'two_thirds', passed: false });
    expect(result(motions.majorityHalf!.id)).toMatchObject({ yes: 1, no: 1, abstain: 1, threshold: 'majority', passed: false });
    expect(result(motions.threeQuarters!.id)).toMatchObject({ yes: 3, no: 1, abstain: 5, threshold: 'three_quarters', passed: true });
    expect(result(motions.twoThirdsAt!.id)).toMatchObject({ quorum_percent: null, quorum_met: true, roll: null });
  });

  it('takes the quorum over the roll, abstentions counting towards it and nowhere else', () => {
    const met = result(motions.quorumMet!.id);
    const missed = result(motions.quorumMissed!.id);
    expect(met).toMatchObject({ yes: 1, no: 0, quorum_percent: 50, quorum_met: true, passed: true, roll });
    expect((met.yes as number) + (met.abstain as number)).toBe(Math.ceil(roll / 2));
    expect(missed).toMatchObject({ yes: 1, no: 0, quorum_percent: 50, quorum_met: false, passed: false });
    expect((missed.yes as number) + (missed.abstain as number)).toBe(Math.ceil(roll / 2) - 1);
  });
});

describe('approval', () => {
  it('elects the highest counts and marks a tie across the last seat', () => {
    const r = result(approval) as { method: string; values: { name: string; count: number; elected: boolean; tied: boolean }[] };
    expect(r.method).toBe('approval');
    expect(r.values.map((v) => [v.name, v.count, v.elected, v.tied])).toEqual([
      ['Pia', 3, true, false],
      ['Quentin', 2, false, true],
      ['Rosa', 2, false, true],
      ['Sam', 0, false, false],
    ]);
  });
});

type Ranked = {
  kind: string;
  method: string;
  seats: number;
  ballots: number;
  quota: string;
  values: { candidate_id: number; name: string; first_preferences: number; votes: string; elected: boolean }[];
  rounds: {
    round: number;
    action: string;
    candidate_ids: number[];
    votes: Record<string, string>;
    tie?: { by: string; chosen: number; drawn_from?: number[]; seed?: string };
  }[];
};

describe('ranked positions', () => {
  it('counts by STV: the winner differs from the first-preference leader', () => {
    const r = result(ranked) as Ranked;
    expect(r).toMatchObject({ kind: 'candidates', method: 'ranked', seats: 1, ballots: 9, quota: '5.00000' });
    const by = Object.fromEntries(r.values.map((v) => [v.name, v]));
    expect(by.Ada).toMatchObject({ first_preferences: 4, elected: false });
    expect(by.Ben).toMatchObject({ first_preferences: 3, elected: true, votes: '5.00000' });
    expect(r.rounds.some((x) => x.action === 'exclude' && x.candidate_ids[0] === c.Cleo)).toBe(true);
    // Rounds name candidates by their ids in this election.
    expect(Object.keys(r.rounds[0]!.votes).map(Number).sort()).toEqual([c.Ada, c.Ben, c.Cleo].sort());
  });

  it('counts several seats with fractional transfers', () => {
    const r = result(rankedMulti) as Ranked;
    expect(r).toMatchObject({ seats: 2, ballots: 12, quota: '5.00000' });
    expect(
      r.values
        .filter((v) => v.elected)
        .map((v) => v.name)
        .sort(),
    ).toEqual(['Dee', 'Fay']);
    expect(r.rounds.some((x) => x.action === 'transfer')).toBe(true);
  });

  it('publishes the ballots as BLT, which recounts to the declared result', async () => {
    for (const id of [ranked, rankedMulti, rankedTie]) {
      const res = await ballotsOf(t.app, id);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      // Named after the election and the position, so files of several elections can sit side by side.
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="[a-z0-9]+(-[a-z0-9]+)*\.blt"$/);
      expect(res.headers.get('content-disposition')).not.toContain('position-');
      const declared = result(id) as Ranked;
      const text = bodyOf(res, 200);
      const blt = parseBlt(text);
      expect(blt.ballots.reduce((n, b) => n + b.count, 0)).toBe(declared.ballots);
      // No receipt, voter or time: only rankings of candidate numbers.
      expect(text).not.toMatch(/VP-/);
      const { count } = countBlt(text, { seed: (final as unknown as { commitment: { hash: string } }).commitment.hash });
      expect(count.quota).toBe(declared.quota);
      expect(count.elected.map((e) => [e.name, e.votes])).toEqual(
        declared.values
          .filter((v) => v.elected)
          .sort((x, y) => x.candidate_id - y.candidate_id)
          .map((v) => [v.name, v.votes]),
      );
      expect(count.rounds.length).toBe(declared.rounds.length);
      // The same lot: the recount's ties name the same candidates (by number, in id order).
      const numberOf = new Map(
        declared.values
          .map((v) => v.candidate_id)
          .sort((x, y) => x - y)
          .map((cid, k) => [cid, k + 1]),
      );
      expect(count.rounds.map((x) => x.tie && { by: x.tie.by, chosen: x.tie.chosen })).toEqual(
        declared.rounds.map((x) => x.tie && { by: x.tie.by, chosen: numberOf.get(x.tie.chosen) }),
      );
    }
  });

  it('records a tie broken by lot in the rounds, with the candidates by id and the final commitment as seed', () => {
    const r = result(rankedTie) as Ranked;
    expect(r).toMatchObject({ seats: 1, ballots: 5, quota: '3.00000' });
    const lot = r.rounds.find((x) => x.tie?.by === 'lot');
    expect(lot, JSON.stringify(r.rounds)).toBeDefined();
    expect(lot!.action).toBe('exclude');
    expect([...lot!.tie!.drawn_from!].sort()).toEqual([c.Hal, c.Ivy].sort());
    expect([c.Hal, c.Ivy]).toContain(lot!.tie!.chosen);
    expect(lot!.candidate_ids).toEqual([lot!.tie!.chosen]);
    expect(lot!.tie!.seed).toBe((final as unknown as { commitment: { hash: string } }).commitment.hash);
    // The other of the two is elected.
    const winner = r.values.find((v) => v.elected)!;
    expect([c.Hal, c.Ivy].filter((id) => id !== lot!.tie!.chosen)).toEqual([winner.candidate_id]);
  });

  it('answers 404 for a position that is not ranked', async () => {
    expect((await ballotsOf(t.app, approval)).status).toBe(404);
    expect((await ballotsOf(t.app, motions.twoThirdsAt!.id)).status).toBe(404);
    expect((await ballotsOf(t.app, 999999)).status).toBe(404);
  });
});

describe('the CSV export', () => {
  it('names each position’s method; a ranked position’s elected column is the STV count, a motion’s rows its options', async () => {
    const res = await admin.elections.exportResults({ query: { format: 'csv' } });
    expect(res.status).toBe(200);
    const lines = bodyOf(res, 200).trim().split('\r\n');
    expect(lines[0]!.endsWith(',elected,tied,method')).toBe(true);
    const row = (positionId: number, name: string) => lines.find((l) => l.startsWith(`${positionId},`) && l.includes(`"${name}"`));
    // Ada leads on first preferences (4) but is not elected; Ben (3) is.
    expect(row(ranked, 'Ada')).toMatch(/,4,9,no,no,ranked$/);
    expect(row(ranked, 'Ben')).toMatch(/,3,9,yes,no,ranked$/);
    expect(row(approval, 'Quentin')).toMatch(/,2,7,no,yes,approval$/);
    expect(row(motions.twoThirdsAt!.id, 'Yes')).toMatch(/,2,3,,,motion$/);
  });
});

describe('the audit and rankings', () => {
  it('passes on the stored ballots and catches a ranking whose order was altered', async () => {
    expect((await verifyAudit(t.ctx, 1)).problems).toEqual([]);
    // Swap the first and second preference of one ranked ballot.
    const [victim] = await t.ctx.database.sql<{ receipt: string }[]>`
      select receipt from ballots where position_id = ${ranked} and rank = 2 limit 1`;
    await t.ctx.database.db.execute(sql`
      update ballots set rank = 3 - rank where receipt = ${victim!.receipt} and rank in (1, 2)`);
    const report = await verifyAudit(t.ctx, 1);
    expect(report.ok).toBe(false);
    expect(report.problems.join('\n')).toMatch(/do not match the newest commitment/);
    // A ranking that no longer ranks 1, 2, … each once is named as such.
    const [other] = await t.ctx.database.sql<{ receipt: string }[]>`
      select receipt from ballots where position_id = ${rankedMulti} and rank = 2 limit 1`;
    await t.ctx.database.db.execute(sql`update ballots set rank = 1 where receipt = ${other!.receipt} and rank = 2`);
    expect((await verifyAudit(t.ctx, 1)).problems.join('\n')).toMatch(
      /1 ranked ballot\(s\) do not rank their candidates 1, 2, 3, … each once/,
    );
  });
});

describe('before close', () => {
  it('refuses the BLT export (403)', async () => {
    const t2 = await createTestApp({ seedReference: false });
    try {
      const token = await tokenFor(t2.ctx, 'admin');
      const res = await apiClient(t2.app, token).setup.createPosition({ body: { name: 'Chair', method: 'ranked' } });
      const id = bodyOf(res, 201).data[0]!.id;
      const refused = await ballotsOf(t2.app, id);
      expect(refused.status).toBe(403);
      expect(bodyOf(refused, 403).message).toBe('The result is declared when the election closes');
    } finally {
      await t2.close();
    }
  });
});
