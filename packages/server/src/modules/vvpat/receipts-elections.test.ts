import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { election } from '../../db/schema';
import { apiClient, bodyOf, type ApiClient } from '../../../test/client';
import { createCandidate, createPosition, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createElection, createVoter, type Election } from '../../../test/voting/election';

/**
 * Receipts of several elections (docs/api.md "Many elections"): a receipt names its election;
 * `psk/vvpat` lists the caller's receipts of every election with the election's id and title, each
 * count under that election's own results visibility; the public check names the election and the
 * position, never the choice; the admin audit trail is one election's.
 */
let t: TestApp;
let e: Election;
let admin: ApiClient;
let anon: ApiClient;
let by: number;
let byPosition: { id: number; name: string };
let byCandidate: { id: number };

type Cast = Awaited<ReturnType<ApiClient['ballots']['castVote']>>;
const receiptOf = (res: Cast, positionId: number) => bodyOf(res, 201).receipts.find((r) => r.position_id === positionId)!.vvpat;
const voteIn = (electionId: number, token: string, candidates: Record<number, number>) =>
  apiClient(t.app, token).ballots.castVote({ query: { election_id: electionId }, body: { candidates } });

beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  admin = apiClient(t.app, await tokenFor(t.ctx, 'admin'));
  anon = apiClient(t.app);
  e = await createElection(t.ctx);
  await t.ctx.database.db.update(election).set({ title: 'Annual Elections 2026' }).where(eq(election.id, 1));
  const [row] = await t.ctx.database.db.insert(election).values({ title: 'By-election 2026' }).returning({ id: election.id });
  by = row!.id;
  byPosition = await createPosition(t.ctx, { name: 'Trustee', electionId: by });
  byCandidate = await createCandidate(t.ctx, [byPosition.id], { name: 'Tumaini Trustee' });
  await t.ctx.voting.tallyOf(by).refreshStructure();
  expect((await admin.elections.toggleElection({ query: { election_id: 1 }, body: { status: true } })).status).toBe(200);
  expect((await admin.elections.toggleElection({ query: { election_id: by }, body: { status: true } })).status).toBe(200);
  await Promise.all([t.ctx.voting.tallyOf(1).idle(), t.ctx.voting.tallyOf(by).idle()]);
});
afterAll(async () => {
  await t?.close();
});

describe('receipts name their election', () => {
  it("lists the caller's receipts of every election, newest election first, each count under its election's visibility", async () => {
    const me = await createVoter(t.ctx);
    const other = await createVoter(t.ctx);
    const inOne = await voteIn(1, me.token, { [e.chair.id]: e.alice.id });
    const inBy = await voteIn(by, me.token, { [byPosition.id]: byCandidate.id });
    const theirs = await voteIn(by, other.token, { [byPosition.id]: byCandidate.id });
    expect([inOne.status, inBy.status, theirs.status]).toEqual([201, 201, 201]);
    await Promise.all([t.ctx.voting.tallyOf(1).idle(), t.ctx.voting.tallyOf(by).idle()]);

    // The by-election hides its counts from voters until it closes; election 1 shows them live.
    expect((await admin.elections.updateElection({ query: { election_id: by }, body: { results_visibility: 'after_close' } })).status).toBe(
      200,
    );
    const own = await apiClient(t.app, me.token).vvpat.getMyVvpat();
    expect(own.status).toBe(200);
    expect(own.body).toEqual({
      data: {
        votes: [
          {
            vvpat: receiptOf(inBy, byPosition.id),
            name: 'Tumaini Trustee',
            count: null,
            position: 'Trustee National',
            kind: 'candidates',
            election_id: by,
            election: 'By-election 2026',
          },
          {
            vvpat: receiptOf(inOne, e.chair.id),
            name: 'Alice Achieng',
            count: 1,
            position: `${e.chair.name} National`,
            kind: 'candidates',
            election_id: 1,
            election: 'Annual Elections 2026',
          },
        ],
      },
    });
    expect(JSON.stringify(own.body)).not.toContain(receiptOf(theirs, byPosition.id));

    // The public check names the election and the position, and nothing of the choice.
    for (const [res, positionId, title, position] of [
      [inOne, e.chair.id, 'Annual Elections 2026', `${e.chair.name} National`],
      [inBy, byPosition.id, 'By-election 2026', 'Trustee National'],
    ] as const) {
      const code = receiptOf(res, positionId);
      const check = await anon.elections.getReceipt({ params: { vvpat: code } });
      expect(check.status).toBe(200);
      expect(check.body).toEqual({
        vvpat: code,
        position,
        election_id: positionId === byPosition.id ? by : 1,
        election: title,
        recorded: true,
      });
      expect(JSON.stringify(check.body)).not.toMatch(/Alice|Tumaini|candidate/i);
    }

    // The admin's audit trail is one election's, under that election's visibility.
    const trailOne = await admin.vvpat.listVvpat({ query: { election_id: 1 } });
    expect(trailOne.status).toBe(200);
    const one = bodyOf(trailOne, 200);
    expect(one.data.votes.map((v) => v.vvpat)).toEqual([receiptOf(inOne, e.chair.id)]);
    expect(one.data.votes[0]).toMatchObject({ election_id: 1, election: 'Annual Elections 2026', count: 1 });
    expect(one.meta.total).toBe(1);
    const bare = bodyOf(await admin.vvpat.listVvpat(), 200);
    expect(bare.data.votes.map((v) => v.vvpat)).toEqual([receiptOf(inOne, e.chair.id)]);
    // The by-election's choices stay hidden until it closes, whichever election is current.
    expect((await admin.vvpat.listVvpat({ query: { election_id: by } })).status).toBe(403);
    expect((await admin.vvpat.searchVvpat({ query: { election_id: by, vvpat: receiptOf(inBy, byPosition.id) } })).status).toBe(403);
    expect(
      bodyOf(await admin.vvpat.searchVvpat({ query: { election_id: 1, vvpat: receiptOf(inBy, byPosition.id) } }), 200).data.votes,
    ).toEqual([]);
    expect((await admin.elections.updateElection({ query: { election_id: by }, body: { results_visibility: 'live' } })).status).toBe(200);
    const trailBy = bodyOf(await admin.vvpat.listVvpat({ query: { election_id: by } }), 200);
    expect(trailBy.data.votes.map((v) => v.vvpat).sort()).toEqual(
      [receiptOf(inBy, byPosition.id), receiptOf(theirs, byPosition.id)].sort(),
    );
    expect(trailBy.data.votes.every((v) => v.election_id === by && v.count === 2)).toBe(true);
  });

  it('answers 404 for a code of no ballot, whatever election is asked about', async () => {
    expect((await anon.elections.getReceipt({ params: { vvpat: 'VP-AAAA-BBBB-CCCC' } })).status).toBe(404);
    expect((await admin.vvpat.listVvpat({ query: { election_id: 424242 } })).status).toBe(404);
  });
});
