import { describe, expect, it } from 'vitest';
import { apiClient, bodyOf, untyped, type ApiClient } from '../../../test/client';
import { createVoter, setVoting, vote } from '../../../test/voting/election';
import { useElectionApp } from '../../../test/voting/election-app';
import { remixAtClose } from '../ballots';

const f = useElectionApp();

type ListQuery = NonNullable<Parameters<ApiClient['vvpat']['listVvpat']>[0]>['query'];
type SearchQuery = NonNullable<Parameters<ApiClient['vvpat']['searchVvpat']>[0]>['query'];
const list = (query: ListQuery = {}, api = f.admin) => api.vvpat.listVvpat({ query });
const search = (query: SearchQuery) => f.admin.vvpat.searchVvpat({ query });
/** The caller's own receipts (GET psk/vvpat). */
const mine = (token: string) => apiClient(f.t.app, token).vvpat.getMyVvpat();

describe('vvpat', () => {
  it('answers an empty, one-page trail before any vote', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { votes: [] }, meta: { current_page: 1, last_page: 1, per_page: 10, total: 0 } });
    const { token } = await createVoter(f.t.ctx);
    expect((await mine(token)).body).toEqual({ data: { votes: [] } });
  });

  it('shows a voter their own ballots only, queued and after mixing, and admins every ballot', async () => {
    await setVoting(f.t.ctx, true);
    const me = await createVoter(f.t.ctx);
    const other = await createVoter(f.t.ctx);
    const myVote = await vote(f.t.app, me.token, { [f.e.chair.id]: f.e.alice.id, [f.e.nairobi.id]: f.e.erin.id });
    const theirs = await vote(f.t.app, other.token, { [f.e.chair.id]: f.e.alice.id });
    const receiptOf = (res: typeof myVote, positionId: number) =>
      bodyOf(res, 201).receipts.find((r) => r.position_id === positionId)!.vvpat;

    const inElection1 = { kind: 'candidates', election_id: 1, election: expect.any(String) };
    const expected = [
      { vvpat: receiptOf(myVote, f.e.chair.id), name: 'Alice Achieng', count: 2, position: `${f.e.chair.name} National`, ...inElection1 },
      { vvpat: receiptOf(myVote, f.e.nairobi.id), name: 'Erin Njeri', count: 1, position: `${f.e.nairobi.name} Nairobi`, ...inElection1 },
    ];
    const own = await mine(me.token);
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ data: { votes: expected } });
    expect(JSON.stringify(own.body)).not.toContain(receiptOf(theirs, f.e.chair.id));

    const all = await list();
    const trail = bodyOf(all, 200);
    expect(trail.meta).toEqual({ current_page: 1, last_page: 1, per_page: 10, total: 3 });
    expect(trail.data.votes.map((v) => v.vvpat)).toEqual([...trail.data.votes.map((v) => v.vvpat)].sort());

    await remixAtClose(f.t.ctx, 1);
    expect((await mine(me.token)).body).toEqual(own.body);
    expect((await list()).body).toEqual(all.body);
    expect((await mine(f.adminToken)).status).toBe(403);
    expect((await list({}, apiClient(f.t.app, me.token))).status).toBe(403);
  });

  it('searches by receipt (whole, partial, any case) and by position, paginated', async () => {
    const voters = await Promise.all(Array.from({ length: 12 }, () => createVoter(f.t.ctx)));
    const receipts: string[] = [];
    for (const v of voters) {
      const res = await vote(f.t.app, v.token, { [f.e.treasurer.id]: f.e.carol.id });
      receipts.push(bodyOf(res, 201).receipts[0]!.vvpat);
    }
    const byPosition = await search({ psk_position_id: f.e.treasurer.id, page: 2 });
    expect(byPosition.status).toBe(200);
    const page = bodyOf(byPosition, 200);
    expect(page.meta).toEqual({ current_page: 2, last_page: 2, per_page: 10, total: 12 });
    expect(page.data.votes).toHaveLength(2);
    expect(page.data.votes[0]).toMatchObject({ name: 'Carol Chebet', count: 12, position: `${f.e.treasurer.name} National` });

    const receiptsOf = (res: Awaited<ReturnType<typeof search>>) => bodyOf(res, 200).data.votes.map((v) => v.vvpat);
    const exact = await search({ vvpat: receipts[3]!.toLowerCase() });
    expect(receiptsOf(exact)).toEqual([receipts[3]]);
    const partial = await search({ vvpat: receipts[5]!.slice(3, 7) });
    expect(receiptsOf(partial)).toContain(receipts[5]);

    const none = await search({ vvpat: 'VP-ZZZZ-ZZZZ-ZZZZ' });
    expect(none.body).toEqual({ data: { votes: [] }, meta: { current_page: 1, last_page: 1, per_page: 10, total: 0 } });
    expect((await search({ vvpat: '50%_' })).status).toBe(200);
    expect((await search(untyped({ psk_position_id: '' }))).status).toBe(200);
    expect((await search(untyped({ psk_position_id: 'abc' }))).status).toBe(422);
    const pastEnd = bodyOf(await list({ page: 9, per_page: 5 }), 200);
    expect(pastEnd.data.votes).toEqual([]);
    expect(pastEnd.meta).toMatchObject({ current_page: 9, per_page: 5, total: 15, last_page: 3 });
  });
});
