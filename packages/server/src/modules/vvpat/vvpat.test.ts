import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createElection, createVoter, setVoting, vote, type Election } from '../../../test/voting/election';
import { remixAtClose } from '../ballots';

let t: TestApp;
let e: Election;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  e = await createElection(t.ctx);
  admin = await tokenFor(t.ctx, 'admin');
});
afterAll(async () => {
  await t?.close();
});

const list = (query = '') => request(t.app).get(`/api/v1/psk/admin/vvpat${query}`).set(bearer(admin));
const search = (query: string) => request(t.app).get(`/api/v1/search/vvpat${query}`).set(bearer(admin));

describe('vvpat', () => {
  it('answers an empty, one-page trail before any vote', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { votes: [] }, meta: { current_page: 1, last_page: 1, per_page: 10, total: 0 } });
    const { token } = await createVoter(t.ctx);
    expect((await request(t.app).get('/api/v1/psk/vvpat').set(bearer(token))).body).toEqual({ data: { votes: [] } });
  });

  it('shows a voter their own ballots only, queued and after mixing, and admins every ballot', async () => {
    await setVoting(t.ctx, true);
    const me = await createVoter(t.ctx);
    const other = await createVoter(t.ctx);
    const mine = await vote(t.app, me.token, { [e.chair.id]: e.alice.id, [e.nairobi.id]: e.erin.id });
    const theirs = await vote(t.app, other.token, { [e.chair.id]: e.alice.id });
    const receiptOf = (res: typeof mine, positionId: number) =>
      res.body.receipts.find((r: { position_id: number }) => r.position_id === positionId).vvpat as string;

    const expected = [
      { vvpat: receiptOf(mine, e.chair.id), name: 'Alice Achieng', count: 2, position: `${e.chair.name} National` },
      { vvpat: receiptOf(mine, e.nairobi.id), name: 'Erin Njeri', count: 1, position: `${e.nairobi.name} Nairobi` },
    ];
    const own = await request(t.app).get('/api/v1/psk/vvpat').set(bearer(me.token));
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ data: { votes: expected } });
    expect(JSON.stringify(own.body)).not.toContain(receiptOf(theirs, e.chair.id));

    const all = await list();
    expect(all.body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 10, total: 3 });
    expect(all.body.data.votes.map((v: { vvpat: string }) => v.vvpat)).toEqual(
      [...all.body.data.votes.map((v: { vvpat: string }) => v.vvpat)].sort(),
    );

    await remixAtClose(t.ctx);
    expect((await request(t.app).get('/api/v1/psk/vvpat').set(bearer(me.token))).body).toEqual(own.body);
    expect((await list()).body).toEqual(all.body);
    expect((await request(t.app).get('/api/v1/psk/vvpat').set(bearer(admin))).status).toBe(403);
    expect((await list().set(bearer(me.token))).status).toBe(403);
  });

  it('searches by receipt (whole, partial, any case) and by position, paginated', async () => {
    const voters = await Promise.all(Array.from({ length: 12 }, () => createVoter(t.ctx)));
    const receipts: string[] = [];
    for (const v of voters) {
      const res = await vote(t.app, v.token, { [e.treasurer.id]: e.carol.id });
      receipts.push(res.body.receipts[0].vvpat);
    }
    const byPosition = await search(`?psk_position_id=${e.treasurer.id}&page=2`);
    expect(byPosition.status).toBe(200);
    expect(byPosition.body.meta).toEqual({ current_page: 2, last_page: 2, per_page: 10, total: 12 });
    expect(byPosition.body.data.votes).toHaveLength(2);
    expect(byPosition.body.data.votes[0]).toMatchObject({ name: 'Carol Chebet', count: 12, position: `${e.treasurer.name} National` });

    const exact = await search(`?vvpat=${receipts[3]!.toLowerCase()}`);
    expect(exact.body.data.votes.map((v: { vvpat: string }) => v.vvpat)).toEqual([receipts[3]]);
    const partial = await search(`?vvpat=${receipts[5]!.slice(3, 7)}`);
    expect(partial.body.data.votes.map((v: { vvpat: string }) => v.vvpat)).toContain(receipts[5]);

    const none = await search('?vvpat=VP-ZZZZ-ZZZZ-ZZZZ');
    expect(none.body).toEqual({ data: { votes: [] }, meta: { current_page: 1, last_page: 1, per_page: 10, total: 0 } });
    expect((await search('?vvpat=50%25_')).status).toBe(200);
    expect((await search('?psk_position_id=')).status).toBe(200);
    expect((await search('?psk_position_id=abc')).status).toBe(422);
    const pastEnd = await list('?page=9&per_page=5');
    expect(pastEnd.body.data.votes).toEqual([]);
    expect(pastEnd.body.meta).toMatchObject({ current_page: 9, per_page: 5, total: 15, last_page: 3 });
  });
});
