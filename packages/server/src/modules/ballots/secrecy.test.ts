import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, bodyOf } from '../../../test/client';
import { tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createElection, createVoter, setVoting, vote, votingRows, type Election } from '../../../test/voting/election';
import { createMixer, mixQueuedBallots, remixAtClose } from './mixer';

/**
 * The secret ballot by construction: nothing stored links a voter to a choice, neither a column,
 * nor the physical order of rows, nor the transaction ids Postgres stamps on them.
 */

let t: TestApp;
let e: Election;
beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000', MIX_MIN_BATCH: '20' } });
  e = await createElection(t.ctx);
  await setVoting(t.ctx, true);
});
afterAll(async () => {
  await t?.close();
});

async function columns(table: string): Promise<string[]> {
  const rows = await t.ctx.database.db.execute<{ column_name: string }>(
    sql`select column_name from information_schema.columns where table_schema = 'public' and table_name = ${table} order by ordinal_position`,
  );
  return rows.map((r) => r.column_name);
}

/** Spearman's rank correlation of two orderings of the same items. */
function rankCorrelation(a: string[], b: string[]): number {
  const rankB = new Map(b.map((x, i) => [x, i]));
  const n = a.length;
  const d2 = a.reduce((sum, x, i) => sum + (i - rankB.get(x)!) ** 2, 0);
  return 1 - (6 * d2) / (n * (n * n - 1));
}

describe('secret ballot', () => {
  it('stores choices without a voter, serial id or timestamp, and the queue only sealed', async () => {
    // rank: a candidate's place in a ranked ballot (0 for every other method), never a voter, a serial or a time.
    // election_id: the partition key (ADR 009), no secret: participation names the position voted for.
    expect(await columns('ballots')).toEqual(['election_id', 'receipt', 'position_id', 'candidate_id', 'rank']);
    expect(await columns('ballot_queue')).toEqual(['election_id', 'id', 'sealed']);
    expect(await columns('participation')).toEqual(['member_id', 'position_id', 'receipt_enc']);
  });

  it('mixes only when MIX_MIN_BATCH ballots are queued, then writes them in an order unrelated to the cast order', async () => {
    const castOrder: string[] = [];
    const castVotes = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const { token } = await createVoter(t.ctx);
        const res = await vote(t.app, token, { [e.chair.id]: i % 2 ? e.alice.id : e.brian.id });
        expect(res.status).toBe(201);
        castOrder.push(bodyOf(res, 201).receipts[0]!.vvpat);
      }
    };
    await castVotes(12);
    expect(await mixQueuedBallots(t.ctx)).toEqual({ moved: 0 });
    expect((await votingRows(t.ctx)).ballots).toBe(0);
    await castVotes(48);
    expect(await mixQueuedBallots(t.ctx)).toEqual({ moved: 60 });
    expect(await votingRows(t.ctx)).toMatchObject({ queue: 0, ballots: 60, participation: 60 });

    const heap = (await t.ctx.database.db.execute<{ receipt: string }>(sql`select receipt from ballots`)).map((r) => r.receipt);
    const byCtid = (await t.ctx.database.db.execute<{ receipt: string }>(sql`select receipt from ballots order by ctid`)).map(
      (r) => r.receipt,
    );
    expect(new Set(heap)).toEqual(new Set(castOrder));
    for (const order of [heap, byCtid]) {
      expect(order).not.toEqual(castOrder);
      // A random permutation of 60: |rho| above 0.6 has odds far below one in a million.
      expect(Math.abs(rankCorrelation(order, castOrder))).toBeLessThan(0.6);
    }
  });

  it('shares no transaction id (xmin) between any participation row and any ballot', async () => {
    const p = await t.ctx.database.db.execute<{ x: string }>(sql`select xmin::text as x from participation`);
    const b = await t.ctx.database.db.execute<{ x: string }>(sql`select distinct xmin::text as x from ballots`);
    const ballotXids = new Set(b.map((r) => r.x));
    expect(p.length).toBeGreaterThan(0);
    for (const row of p) expect(ballotXids.has(row.x)).toBe(false);
  });

  it('keeps a short queue sealed when voting is switched off and on: no flush, no padding', async () => {
    const { token } = await createVoter(t.ctx);
    expect((await vote(t.app, token, { [e.chair.id]: e.alice.id, [e.nairobi.id]: e.erin.id })).status).toBe(201);
    expect((await votingRows(t.ctx)).queue).toBe(2);
    const admin = await tokenFor(t.ctx, 'admin');
    for (const status of [false, true]) {
      const res = await apiClient(t.app, admin).elections.toggleElection({ body: { status } });
      expect(res.status).toBe(200);
      expect(await votingRows(t.ctx)).toMatchObject({ queue: 2, ballots: 60 });
    }
  });

  it('publishes nothing below MIX_MIN_BATCH while voting is paused: a pause is not a close', async () => {
    const { token } = await createVoter(t.ctx);
    expect((await vote(t.app, token, { [e.chair.id]: e.alice.id })).status).toBe(201);
    await setVoting(t.ctx, false);
    expect(await mixQueuedBallots(t.ctx)).toEqual({ moved: 0 });
    expect(await votingRows(t.ctx)).toMatchObject({ queue: 3, ballots: 60 });
    await setVoting(t.ctx, true);
  });

  it('re-mixes the whole ballot box at the close: the queue published, every row written again in a new order', async () => {
    const before = (await t.ctx.database.db.execute<{ receipt: string }>(sql`select receipt from ballots order by ctid`)).map(
      (r) => r.receipt,
    );
    expect(await remixAtClose(t.ctx, 1)).toEqual({ moved: 3 });
    expect(await votingRows(t.ctx)).toMatchObject({ queue: 0, ballots: 63 });
    const after = await t.ctx.database.db.execute<{ receipt: string; x: string }>(
      sql`select receipt, xmin::text as x from ballots order by ctid`,
    );
    expect(new Set(after.map((r) => r.x)).size).toBe(1);
    const old = after.map((r) => r.receipt).filter((r) => before.includes(r));
    expect(Math.abs(rankCorrelation(old, before))).toBeLessThan(0.6);
  });

  it('runs in the background: the loop mixes once enough ballots are queued', async () => {
    const loop = { ...t.ctx, env: { ...t.ctx.env, MIX_INTERVAL_MS: 50, MIX_MIN_BATCH: 3 } };
    const mixer = createMixer(loop);
    mixer.start();
    try {
      for (let i = 0; i < 2; i++) {
        const { token } = await createVoter(t.ctx);
        expect((await vote(t.app, token, { [e.treasurer.id]: e.dan.id })).status).toBe(201);
      }
      await new Promise((r) => setTimeout(r, 300));
      expect((await votingRows(t.ctx)).queue).toBe(2);
      const { token } = await createVoter(t.ctx);
      expect((await vote(t.app, token, { [e.treasurer.id]: e.dan.id })).status).toBe(201);
      const until = Date.now() + 10_000;
      while ((await votingRows(t.ctx)).queue > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect((await votingRows(t.ctx)).queue).toBe(0);
    } finally {
      await mixer.stop();
    }
  });
});
