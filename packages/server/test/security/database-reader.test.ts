import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { createContext } from '../../src/bootstrap';
import { openDatabase } from '../../src/db/client';
import { unseal } from '../../src/lib/crypto';
import { mixQueuedBallots } from '../../src/modules/ballots';
import { apiClient, bodyOf } from '../client';
import { createCandidate, tokenFor } from '../factories';
import { createTestApp, TEST_DATABASE_URL, type TestApp, type TestDatabase } from '../harness';
import { createElection, createVoter, setVoting, vote, votingRows, type Election } from '../voting/election';
import { listen, sleep, waitFor } from '../voting/sockets';

/**
 * Security hardening, as the attacker did it: someone who can read the database (a dump, SQL
 * access, LISTEN) but has no BALLOT_KEY tries to link members to choices by the length of sealed
 * values, by transaction ids (xmin/xmax, dead tuples through pageinspect where Postgres has it),
 * by physical order, and by the cross-process relay. In the demo one branch chair's vote was fully
 * revealed: the only ballot for a branch position in a mixing batch was the branch voter's.
 */

const MIN = 5;
let t: TestApp;
let e: Election;
let bigId: number;

beforeAll(async () => {
  t = await createTestApp({ env: { MIX_MIN_BATCH: String(MIN), MIX_INTERVAL_MS: '3600000' } });
  e = await createElection(t.ctx);
  // A candidate whose id has many more digits than the others: an unpadded seal shows it.
  await t.ctx.database.sql`select setval(pg_get_serial_sequence('members', 'id'), 1000000)`;
  bigId = (await createCandidate(t.ctx, [e.chair.id], { name: 'Zed Long-Id' })).id;
  await setVoting(t.ctx, true);
});
afterAll(async () => {
  await t?.close();
});

const xid = (v: string | number) => BigInt(v);

describe('a database reader without BALLOT_KEY', () => {
  it('learns nothing from the length of a sealed value', async () => {
    const choices = [e.alice.id, e.brian.id, bigId];
    for (const candidate of choices) {
      const { token } = await createVoter(t.ctx);
      expect((await vote(t.app, token, { [e.chair.id]: candidate })).status).toBe(201);
    }
    const queue = await t.ctx.database.db.execute<{ n: number }>(sql`select distinct length(sealed)::int as n from ballot_queue`);
    expect(queue.length).toBe(1);
    const receipts = await t.ctx.database.db.execute<{ n: number }>(sql`select distinct length(receipt_enc)::int as n from participation`);
    expect(receipts.length).toBe(1);
    expect(String(bigId).length).toBeGreaterThan(String(e.alice.id).length);
  });

  it('cannot single out the one branch voter in a mixing batch: by xmin, by batch, by order', async () => {
    // Many national votes and one vote for the Nairobi position (the "branch chair" of the demo).
    const { member: branchVoter, token } = await createVoter(t.ctx, 'Nairobi');
    expect((await vote(t.app, token, { [e.nairobi.id]: e.erin.id })).status).toBe(201);
    for (let i = 0; i < MIN + 2; i++) {
      const v = await createVoter(t.ctx);
      expect((await vote(t.app, v.token, { [e.chair.id]: i % 2 ? e.alice.id : e.brian.id })).status).toBe(201);
    }
    expect((await mixQueuedBallots(t.ctx)).moved).toBeGreaterThanOrEqual(MIN);

    // The attack: each participation row's xmin is its vote's transaction; a ballot becomes visible
    // in the first mixing batch (one xmin in `ballots`) after it. The voter's ballot is one of that
    // batch's ballots for the same position: the anonymity set.
    const parts = await t.ctx.database.db.execute<{ member_id: number; position_id: number; x: string }>(
      sql`select member_id, position_id, xmin::text as x from participation`,
    );
    const ballots = await t.ctx.database.db.execute<{ position_id: number; x: string }>(
      sql`select position_id, xmin::text as x from ballots`,
    );
    const batches = [...new Set(ballots.map((b) => b.x))].map(xid).sort((a, b) => (a < b ? -1 : 1));
    let examined = 0;
    for (const p of parts) {
      const after = batches.filter((b) => b > xid(p.x));
      const first = after.find((b) => ballots.some((x) => xid(x.x) === b && x.position_id === p.position_id));
      if (first === undefined) continue; // still sealed in the queue: nothing to link to
      examined++;
      const set = ballots.filter((b) => xid(b.x) === first && b.position_id === p.position_id).length;
      expect(set, `member ${p.member_id}, position ${p.position_id}`).toBeGreaterThanOrEqual(MIN);
    }
    expect(examined).toBeGreaterThanOrEqual(MIN);
    // The branch voter's ballot is not published alone: it waits, sealed, for others of its position.
    const branchBallots = ballots.filter((b) => b.position_id === e.nairobi.id).length;
    expect(branchBallots === 0 || branchBallots >= MIN).toBe(true);
    // The pass that left the branch ballot queued did not touch its row: no lock mark (xmax) says
    // which pass read it while it waited.
    const left = await t.ctx.database.db.execute<{ x: string }>(sql`select xmax::text as x from ballot_queue`);
    if (branchBallots === 0) expect(left.length).toBeGreaterThan(0);
    expect(left.map((r) => r.x)).toEqual(left.map(() => '0'));
    expect(parts.some((p) => p.member_id === branchVoter.id && p.position_id === e.nairobi.id)).toBe(true);
  });

  it.skipIf(!TEST_DATABASE_URL)(
    'reading dead queue tuples (pageinspect) links a voter to no fewer than MIX_MIN_BATCH ballots of the position',
    async () => {
      const admin = postgres((t.ctx.database as TestDatabase).url!, { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe('create extension if not exists pageinspect');
        const dead = await admin<{ t_xmin: string; t_xmax: string; lp_len: number }[]>`
        select t_xmin::text, t_xmax::text, lp_len from generate_series(0, pg_relation_size('ballot_queue_e1') / current_setting('block_size')::int - 1) as blk,
          lateral heap_page_items(get_raw_page('ballot_queue_e1', blk::int)) where t_xmin is not null`;
        expect(dead.length).toBeGreaterThan(0);
        expect(new Set(dead.map((d) => d.lp_len)).size).toBe(1);
        const parts = await admin<{ position_id: number; x: string }[]>`select position_id, xmin::text as x from participation`;
        const ballots = await admin<{ position_id: number; x: string }[]>`select position_id, xmin::text as x from ballots`;
        let linked = 0;
        for (const d of dead.filter((r) => r.t_xmax !== '0')) {
          for (const p of parts.filter((q) => q.x === d.t_xmin)) {
            const set = ballots.filter((b) => b.x === d.t_xmax && b.position_id === p.position_id).length;
            if (set === 0) continue; // this dead row held another position of the same vote
            linked++;
            expect(set).toBeGreaterThanOrEqual(MIN);
          }
        }
        expect(linked).toBeGreaterThan(0);
      } finally {
        await admin.end();
      }
    },
  );

  it.skipIf(!TEST_DATABASE_URL)('LISTEN on the relay channel hears padded messages of one size that carry no choice', async () => {
    const url = (t.ctx.database as TestDatabase).url!;
    const heard: string[] = [];
    const listener = postgres(url, { max: 1, onnotice: () => {} });
    await listener.listen('socket.io#/', (payload) => heard.push(payload));
    const running = await listen(t.ctx, t.app, { databaseUrl: url });
    const database = await openDatabase({ url, poolMax: 5 });
    const ctx2 = await createContext({ env: t.ctx.env, logger: t.ctx.logger, database, secrets: t.ctx.secrets, now: t.ctx.now });
    await ctx2.start();
    const second = await listen(ctx2, createApp(ctx2), { databaseUrl: url });
    try {
      await sleep(500);
      const before = heard.length;
      for (const candidate of [e.alice.id, bigId, e.brian.id, bigId]) {
        const { token } = await createVoter(t.ctx);
        expect((await vote(t.app, token, { [e.chair.id]: candidate })).status).toBe(201);
        await sleep(150); // one relay message per vote
      }
      await waitFor(() => heard.length - before >= 4, 10_000, 'relay messages');
      const sealed = heard
        .slice(before)
        .map((p) => /"kura:relay","([A-Za-z0-9_.-]+)"/.exec(p)?.[1])
        .filter((s): s is string => Boolean(s));
      expect(
        sealed.length,
        heard
          .slice(before, before + 2)
          .join('\n')
          .slice(0, 600),
      ).toBeGreaterThanOrEqual(4);
      expect(new Set(sealed.map((s) => s.length)).size).toBe(1);
      for (const s of sealed) {
        const opened = JSON.parse(unseal(t.ctx.secrets.ballotKey, s));
        expect(JSON.stringify(opened)).not.toMatch(/candidate|entries/i);
      }
    } finally {
      await second.close();
      await ctx2.close();
      await database.close();
      await running.close();
      await listener.end();
    }
  });
});

/**
 * The attacker of a pause: a reader without BALLOT_KEY takes an ordinary dump before and after the
 * admin pauses (and resumes) voting, reads dead tuples with pageinspect, then reads once more after
 * the close. A pause that flushed the queue published the few ballots cast since the last mixing
 * pass on their own: the voters new between the two dumps were linked to the receipts new between
 * them, and the padding (published ballots deleted and written again) was told apart by its old
 * receipts and by its dead tuples.
 */
describe('a database reader around a pause and the close', () => {
  let u: TestApp;
  let f: Election;
  let admin: string;
  const toggle = (status: boolean) => apiClient(u.app, admin).elections.toggleElection({ body: { status } });
  type Dump = { receipts: Map<string, number>; voters: Set<string> };
  const dump = async (): Promise<Dump> => {
    const b = await u.ctx.database.db.execute<{ receipt: string; position_id: number }>(sql`select receipt, position_id from ballots`);
    const p = await u.ctx.database.db.execute<{ member_id: number; position_id: number }>(
      sql`select member_id, position_id from participation`,
    );
    return {
      receipts: new Map(b.map((r) => [r.receipt, r.position_id])),
      voters: new Set(p.map((r) => `${r.member_id}:${r.position_id}`)),
    };
  };
  /** Per position, the receipts published between two dumps: each such set is the anonymity set of the voters new between them. */
  const published = (before: Dump, after: Dump) => {
    const out = new Map<number, number>();
    for (const [receipt, position] of after.receipts) if (!before.receipts.has(receipt)) out.set(position, (out.get(position) ?? 0) + 1);
    return out;
  };
  /** Heap tuples (live and dead) of election 1's partition of a table (ADR 009), read with pageinspect. */
  const heap = async (url: string, table: 'ballots' | 'ballot_queue') => {
    const partition = `${table}_e1`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe('create extension if not exists pageinspect');
      return await admin<{ t_xmin: string; t_xmax: string }[]>`
        select t_xmin::text, t_xmax::text from generate_series(0, pg_relation_size(${partition}) / current_setting('block_size')::int - 1) as blk,
          lateral heap_page_items(get_raw_page(${partition}, blk::int)) where t_xmin is not null`;
    } finally {
      await admin.end();
    }
  };

  beforeAll(async () => {
    u = await createTestApp({ env: { MIX_MIN_BATCH: String(MIN), MIX_INTERVAL_MS: '3600000' } });
    f = await createElection(u.ctx);
    admin = await tokenFor(u.ctx, 'admin');
    expect((await toggle(true)).status).toBe(200);
    // One regular batch is published: ballots a flush could pad with.
    for (let i = 0; i < MIN; i++) {
      const { token } = await createVoter(u.ctx);
      expect((await vote(u.app, token, { [f.chair.id]: i % 2 ? f.alice.id : f.brian.id })).status).toBe(201);
    }
    expect((await mixQueuedBallots(u.ctx)).moved).toBe(MIN);
  });
  afterAll(async () => {
    await u?.close();
  });

  it('a pause, the mixer while paused and a resume publish nothing below MIX_MIN_BATCH and pad nothing', async () => {
    const before = await dump();
    // Three voters, each a different choice (one of them also the branch position).
    const choices = [{ [f.chair.id]: f.alice.id }, { [f.chair.id]: f.brian.id }, { [f.chair.id]: f.alice.id, [f.nairobi.id]: f.erin.id }];
    for (const c of choices) {
      const { token } = await createVoter(u.ctx);
      expect((await vote(u.app, token, c)).status).toBe(201);
    }
    expect((await toggle(false)).status).toBe(200);
    const paused = await dump();
    expect([...paused.voters].filter((v) => !before.voters.has(v))).toHaveLength(4);
    for (const [position, n] of published(before, paused)) expect(n, `position ${position} after the pause`).toBeGreaterThanOrEqual(MIN);
    expect(published(before, paused).size).toBe(0);
    // The regular pass while voting is off is not a close either.
    expect((await mixQueuedBallots(u.ctx)).moved).toBe(0);
    expect((await toggle(true)).status).toBe(200);
    const resumed = await dump();
    expect(published(before, resumed).size).toBe(0);
    expect((await votingRows(u.ctx)).queue).toBe(4);
    // The results still count the queued ballots.
    const results = await apiClient(u.app, admin).elections.getResults();
    expect(results.status).toBe(200);
    const chair = bodyOf(results, 200).data.data.find((g) => g.position_id === f.chair.id);
    expect(chair!.total).toBe(MIN + 3);
  });

  it.skipIf(!TEST_DATABASE_URL)('pageinspect after the pause finds no padding: no ballot row was deleted or written again', async () => {
    const url = (u.ctx.database as TestDatabase).url!;
    const tuples = await heap(url, 'ballots');
    expect(tuples.filter((r) => r.t_xmax !== '0')).toEqual([]);
    expect(new Set(tuples.map((r) => r.t_xmin)).size).toBe(1);
  });

  it('the close publishes the rest re-mixed with the whole position: one xmin, no old row versions, the audit passes', async () => {
    const before = await dump();
    const close = await apiClient(u.app, admin).lifecycle.closeElection();
    expect(close.status).toBe(200);
    await u.ctx.scheduler.tick();
    expect(await votingRows(u.ctx)).toMatchObject({ queue: 0, ballots: MIN + 4, participation: MIN + 4 });
    // The newly published ballots share their transaction id with every other ballot: one batch.
    const xids = await u.ctx.database.db.execute<{ x: string; n: number }>(
      sql`select xmin::text as x, count(*)::int as n from ballots group by 1`,
    );
    expect(xids).toHaveLength(1);
    const after = await dump();
    expect(published(before, after).get(f.chair.id)).toBe(3);
    const final = await apiClient(u.app).lifecycle.getFinalResults();
    expect(final.status).toBe(200);
    expect(bodyOf(final, 200).audit).toMatchObject({ ok: true });
    expect(bodyOf(final, 200).commitment!.count).toBe(MIN + 4);
    if (TEST_DATABASE_URL) {
      const url = (u.ctx.database as TestDatabase).url!;
      // No dead version of a ballot or a queued row is left to read: every tuple in the ballots
      // heap is live and of the close, and the queue's heap holds nothing.
      const tuples = await heap(url, 'ballots');
      expect(tuples).toHaveLength(MIN + 4);
      expect(tuples.filter((r) => r.t_xmax !== '0')).toEqual([]);
      expect(new Set(tuples.map((r) => r.t_xmin))).toEqual(new Set(xids.map((r) => r.x)));
      expect(await heap(url, 'ballot_queue')).toEqual([]);
    }
  });
});
