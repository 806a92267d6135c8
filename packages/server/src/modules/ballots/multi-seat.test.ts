import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { positions } from '../../db/schema';
import { apiClient, bodyOf } from '../../../test/client';
import { createCandidate, createPosition, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createVoter, setVoting, vote, votingRows } from '../../../test/voting/election';
import { verifyAudit } from '../declaration';
import { remixAtClose } from './mixer';

/** A 3-seat national board and a one-seat treasurer: 1..seats distinct candidates per ballot. */
let t: TestApp;
let board: { id: number };
let treasurer: { id: number };
let b: { id: number }[];
let tr: { id: number }[];
beforeAll(async () => {
  t = await createTestApp({ seedReference: false, env: { MIX_INTERVAL_MS: '3600000', MIX_MIN_BATCH: '1' } });
  board = await createPosition(t.ctx, { name: 'Board Member' });
  await t.ctx.database.db.update(positions).set({ seats: 3, sortOrder: -2 }).where(eq(positions.id, board.id));
  treasurer = await createPosition(t.ctx, { name: 'Treasurer' });
  await t.ctx.database.db.update(positions).set({ sortOrder: -1 }).where(eq(positions.id, treasurer.id));
  b = [];
  for (const name of ['Achieng A', 'Barasa B', 'Chebet C', 'Daudi D']) b.push(await createCandidate(t.ctx, [board.id], { name }));
  tr = [await createCandidate(t.ctx, [treasurer.id], { name: 'Tresa T' }), await createCandidate(t.ctx, [treasurer.id], { name: 'Umi U' })];
  await t.ctx.voting.tallyOf(1).refreshStructure();
  await setVoting(t.ctx, true);
});
afterAll(async () => {
  await t?.close();
});

const results = async () => bodyOf(await apiClient(t.app).elections.getResults(), 200).data.data;
const agentStatistics = async () => bodyOf(await apiClient(t.app, await tokenFor(t.ctx, 'agent')).elections.getAgentStatistics(), 200).data;
const myVotes = async (token: string) => bodyOf(await apiClient(t.app, token).vvpat.getMyVvpat(), 200).data.votes;
const receipt = (vvpat: string) => apiClient(t.app).elections.getReceipt({ params: { vvpat } });
const countOf = (groups: Awaited<ReturnType<typeof results>>, positionId: number, candidateId: number) =>
  groups.find((g) => g.position_id === positionId)?.values.find((v) => v.candidate_id === candidateId)?.count ?? 0;

describe('several seats per position', () => {
  it('the ballot says how many seats', async () => {
    const { token } = await createVoter(t.ctx);
    const ballot = bodyOf(await apiClient(t.app, token).ballots.getBallot(), 200).data;
    expect(ballot.map((g) => [g.position_id, g.seats])).toEqual([
      [board.id, 3],
      [treasurer.id, 1],
    ]);
  });

  it('takes 1..seats distinct candidates: one receipt per position, counted for each candidate', async () => {
    const before = await votingRows(t.ctx);
    const full = await createVoter(t.ctx);
    const res = await vote(t.app, full.token, { [board.id]: [b[0]!.id, b[1]!.id, b[2]!.id], [treasurer.id]: tr[0]!.id } as never);
    expect(res.status).toBe(201);
    expect(
      bodyOf(res, 201)
        .receipts.map((r) => r.position_id)
        .sort(),
    ).toEqual([board.id, treasurer.id].sort());
    const two = await createVoter(t.ctx);
    expect((await vote(t.app, two.token, { [board.id]: [b[0]!.id, b[3]!.id] } as never)).status).toBe(201);
    const one = await createVoter(t.ctx);
    expect((await vote(t.app, one.token, { [board.id]: b[0]!.id })).status).toBe(201);
    const after = await votingRows(t.ctx);
    expect(after.participation - before.participation).toBe(4);
    expect(after.queue - before.queue).toBe(4); // one sealed row per position's ballot

    const groups = await results();
    expect([b[0], b[1], b[2], b[3]].map((c) => countOf(groups, board.id, c!.id))).toEqual([3, 1, 1, 1]);
    expect(countOf(groups, treasurer.id, tr[0]!.id)).toBe(1);
    const stats = await agentStatistics();
    expect(stats).toMatchObject({ votesCasted: 4, membersVoted: 3 });

    // The voter's own receipts: the board receipt shows each of the three candidates.
    const mine = await myVotes(full.token);
    const boardReceipt = bodyOf(res, 201).receipts.find((r) => r.position_id === board.id)!.vvpat;
    expect(
      mine
        .filter((r) => r.vvpat === boardReceipt)
        .map((r) => r.name)
        .sort(),
    ).toEqual(['Achieng A', 'Barasa B', 'Chebet C']);
    expect((await receipt(boardReceipt)).body).toEqual({
      vvpat: boardReceipt,
      position: 'Board Member National',
      election_id: 1,
      election: expect.any(String),
      recorded: true,
    });

    // Mixed, committed, audited: the rows move, the counts stay, the audit agrees.
    await remixAtClose(t.ctx, 1);
    await t.ctx.voting.tallyOf(1).resync();
    const mixed = await results();
    expect([b[0], b[1], b[2], b[3]].map((c) => countOf(mixed, board.id, c!.id))).toEqual([3, 1, 1, 1]);
    expect((await agentStatistics()).votesCasted).toBe(4);
    expect((await receipt(boardReceipt)).status).toBe(200);
    expect((await myVotes(full.token)).filter((r) => r.vvpat === boardReceipt)).toHaveLength(3);
    const toggled = await apiClient(t.app, await tokenFor(t.ctx, 'admin')).elections.toggleElection({ body: { status: true } });
    expect(toggled.status).toBe(200);
    const report = await verifyAudit(t.ctx, 1);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.tallies.filter((x) => x.positionId === board.id).map((x) => x.count)).toEqual([3, 1, 1, 1]);
    const commitment = bodyOf(await apiClient(t.app).elections.listCommitments(), 200).data[0];
    expect(commitment!.count).toBe(7); // rows: 3 + 2 + 1 board choices and 1 treasurer
  });

  it('refuses (422, nothing recorded) more candidates than seats, a candidate twice, or a candidate of another position', async () => {
    const { token } = await createVoter(t.ctx);
    const before = await votingRows(t.ctx);
    const tooMany = await vote(t.app, token, { [board.id]: b.map((c) => c.id) } as never);
    expect(tooMany.status).toBe(422);
    expect(bodyOf(tooMany, 422).errors?.[`candidates.${board.id}`]).toEqual(['Choose at most 3 candidates for Board Member National']);
    const twice = await vote(t.app, token, { [board.id]: [b[0]!.id, b[0]!.id] } as never);
    expect(twice.status).toBe(422);
    expect(bodyOf(twice, 422).errors?.[`candidates.${board.id}`]).toEqual(['Choose each candidate for Board Member National at most once']);
    const other = await vote(t.app, token, { [board.id]: [b[0]!.id, tr[0]!.id] } as never);
    expect(other.status).toBe(422);
    expect(bodyOf(other, 422).errors?.[`candidates.${board.id}`]).toEqual([
      'The selected candidate is not standing for Board Member National',
    ]);
    const twoForOneSeat = await vote(t.app, token, { [treasurer.id]: [tr[0]!.id, tr[1]!.id] } as never);
    expect(twoForOneSeat.status).toBe(422);
    expect(bodyOf(twoForOneSeat, 422).errors?.[`candidates.${treasurer.id}`]).toEqual([
      'Choose at most 1 candidate for Treasurer National',
    ]);
    expect((await vote(t.app, token, { [board.id]: [] } as never)).status).toBe(422);
    expect(await votingRows(t.ctx)).toEqual(before);
  });

  it('20 concurrent multi-seat ballots from one member record exactly one', async () => {
    const { member, token } = await createVoter(t.ctx);
    const before = await votingRows(t.ctx);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        vote(t.app, token, { [board.id]: i % 2 ? [b[1]!.id, b[2]!.id, b[3]!.id] : [b[0]!.id, b[1]!.id] } as never),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const after = await votingRows(t.ctx);
    expect(after.participation - before.participation).toBe(1);
    expect(after.queue + after.ballots - before.queue - before.ballots).toBe(1);
    const mine = await myVotes(token);
    expect(mine.length === 2 || mine.length === 3).toBe(true);
    expect(member.id).toBeGreaterThan(0);
  });
});
