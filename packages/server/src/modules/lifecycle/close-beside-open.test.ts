import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { createContext } from '../../bootstrap';
import { openDatabase } from '../../db/client';
import { election } from '../../db/schema';
import { parseEnv } from '../../env';
import { createLogger } from '../../logger';
import { apiClient, bodyOf, type ApiClient } from '../../../test/client';
import { createCandidate, createPosition, tokenFor } from '../../../test/factories';
import { createTestApp, TEST_DATABASE_URL, type TestApp, type TestDatabase } from '../../../test/harness';
import { createElection, createVoter, setVoting, vote, type Election } from '../../../test/voting/election';
import { waitFor } from '../../../test/voting/sockets';
import { lockWaiters } from '../../../test/two-sessions';
import { verifyAudit } from '../declaration';
import { digestBallots, recordCommitment } from '../results';
import { mixQueuedBallots } from '../ballots';

/**
 * The close of one election beside another that is open (issue 36, findings 1 and 2; SECURITY.md
 * "A close touches its own election's ballots only"): votes cast in the open election while the
 * other closes are all in its box afterwards, its audit passes, and a commitment of it recorded
 * during the close counts its ballots. The close re-mixes its own partitions only (ADR 009).
 */
let t: TestApp;
let a: Election;
let adminToken: string;
let admin: ApiClient;
let b: number;
let bPosition: { id: number };
let bCandidate: { id: number };

const castInB = async () => {
  const { token } = await createVoter(t.ctx);
  const res = await apiClient(t.app, token).ballots.castVote({
    query: { election_id: b },
    body: { candidates: { [bPosition.id]: bCandidate.id } },
  });
  expect(res.status).toBe(201);
  return bodyOf(res, 201).receipts[0]!.vvpat;
};

/** Every receipt in B's box: its published ballots and its queued ones (audited the same way). */
async function receiptsOfB(): Promise<Set<string>> {
  const receipts = new Set<string>();
  await digestBallots(t.ctx.database.db, (ballot) => receipts.add(ballot.receipt), b);
  const queue = await t.ctx.database.db.execute<{ id: string; sealed: string }>(sql`select id, sealed from ballot_queue`);
  for (const ballot of t.ctx.ballotQueue.open([...queue], false)) if (ballot.positionId === bPosition.id) receipts.add(ballot.receipt);
  return receipts;
}

/**
 * A new election, open, with a position, two candidates and a vote for each entry of `choices`
 * (0: the first candidate, 1: the second), mixed into its box.
 */
async function electionWithVotes(title: string, choices: number[]) {
  const [row] = await t.ctx.database.db.insert(election).values({ title }).returning({ id: election.id });
  const id = row!.id;
  const position = await createPosition(t.ctx, { name: `${title} chair`, electionId: id });
  const candidates = [
    await createCandidate(t.ctx, [position.id], { name: `${title} First` }),
    await createCandidate(t.ctx, [position.id], { name: `${title} Second` }),
  ];
  await t.ctx.voting.tallyOf(id).refreshStructure();
  expect((await admin.elections.toggleElection({ query: { election_id: id }, body: { status: true } })).status).toBe(200);
  for (const choice of choices) {
    const { token } = await createVoter(t.ctx);
    const res = await apiClient(t.app, token).ballots.castVote({
      query: { election_id: id },
      body: { candidates: { [position.id]: candidates[choice]!.id } },
    });
    expect(res.status).toBe(201);
  }
  await mixQueuedBallots(t.ctx);
  return id;
}

/** A close of the election (the current one without an id), as the admin. */
const close = (electionId?: number) =>
  admin.lifecycle.closeElection({ query: electionId === undefined ? {} : { election_id: electionId } });
const resultsOf = (api: ApiClient, electionId: number) => api.elections.getResults({ query: { election_id: electionId } });
const declarationOf = (api: ApiClient, electionId: number) => api.lifecycle.getFinalResults({ query: { election_id: electionId } });

/** The counts a results answer shows: `title: candidate=votes, …` per position, in order. */
const countsOf = (groups: { title: string; values: { name: string; count: number }[] }[]) =>
  groups.map((g) => `${g.title}: ${g.values.map((v) => `${v.name}=${v.count}`).join(', ')}`);

beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000', MIX_MIN_BATCH: '5' } });
  adminToken = await tokenFor(t.ctx, 'admin');
  admin = apiClient(t.app, adminToken);
  a = await createElection(t.ctx);
  const [row] = await t.ctx.database.db.insert(election).values({ title: 'By-election' }).returning({ id: election.id });
  b = row!.id;
  bPosition = await createPosition(t.ctx, { name: 'Treasurer', electionId: b });
  bCandidate = await createCandidate(t.ctx, [bPosition.id], { name: 'By Candidate' });
  await t.ctx.voting.tallyOf(b).refreshStructure();
  await setVoting(t.ctx, true);
  expect((await admin.elections.toggleElection({ query: { election_id: b }, body: { status: true } })).status).toBe(200);
  // Both elections hold published ballots and a short queue.
  for (let i = 0; i < 12; i++) {
    const { token } = await createVoter(t.ctx);
    expect((await vote(t.app, token, { [a.chair.id]: a.alice.id })).status).toBe(201);
  }
  for (let i = 0; i < 6; i++) await castInB();
  await mixQueuedBallots(t.ctx);
  for (let i = 0; i < 3; i++) {
    const { token } = await createVoter(t.ctx);
    expect((await vote(t.app, token, { [a.chair.id]: a.alice.id })).status).toBe(201);
  }
  for (let i = 0; i < 2; i++) await castInB();
});
afterAll(async () => {
  await t?.close();
});

describe('closing one election while another is open', () => {
  it.skipIf(!TEST_DATABASE_URL)(
    "with a dump holding the ballot tables: the votes in B during A's close all stay in B's box, and B's commitment counts them",
    async () => {
      const sqlc = t.ctx.database.sql;
      const before = await receiptsOfB();
      const mixedBefore = (await digestBallots(t.ctx.database.db, undefined, b)).count;
      expect(mixedBefore).toBeGreaterThan(0);

      // A backup-like reader: every ballot table held in ACCESS SHARE, as pg_dump holds them.
      const dump = await sqlc.reserve();
      let closing: ReturnType<typeof close> | undefined;
      let commitment: ReturnType<typeof recordCommitment> | undefined;
      let reading: Promise<number> | undefined;
      try {
        await dump`begin`;
        await dump`lock table ballots, ballot_queue in access share mode`;
        await dump`select count(*) from ballots`;
        closing = close();
        // The close's re-mix waits for the dump to let go of A's box.
        await waitFor(async () => (await lockWaiters(sqlc)) >= 1, 10_000, "A's close waiting for the dump");
        // A commitment of B recorded during A's close (one snapshot, as every commitment), and a
        // reader of B whose snapshot was taken before A's re-mix and who reads B's box during it.
        commitment = recordCommitment(t.ctx, 'during another close', {}, b);
        let snapshotTaken!: () => void;
        const taken = new Promise<void>((resolve) => (snapshotTaken = resolve));
        reading = t.ctx.database.db.transaction(
          async (tx) => {
            await tx.execute(sql`select 1`);
            snapshotTaken();
            return (await digestBallots(tx, undefined, b)).count;
          },
          { isolationLevel: 'repeatable read', accessMode: 'read only' },
        );
        await taken;
        const cast: string[] = [];
        await Promise.all(
          Array.from({ length: 4 }, async () => {
            for (let i = 0; i < 5; i++) cast.push(await castInB());
          }),
        );
        expect(cast).toHaveLength(20);
        await dump`commit`;
        expect((await closing).status).toBe(200);
        const committed = await commitment;
        expect(await reading).toBe(mixedBefore);
        // B's box as it was: nothing of A's close shows in it.
        expect(committed?.count).toBe(mixedBefore);

        await t.ctx.voting.tallyOf(1).idle();
        const after = await receiptsOfB();
        for (const receipt of [...before, ...cast]) expect(after.has(receipt), `receipt ${receipt} of B`).toBe(true);
        expect(after.size).toBe(before.size + cast.length);
        expect((await verifyAudit(t.ctx, b)).problems).toEqual([]);
        expect((await verifyAudit(t.ctx, 1)).problems).toEqual([]);
      } finally {
        await dump`rollback`.catch(() => undefined);
        dump.release();
        await closing?.catch(() => undefined);
        await commitment?.catch(() => undefined);
        await reading?.catch(() => undefined);
      }
    },
    60_000,
  );

  it.skipIf(!TEST_DATABASE_URL)(
    'a dump holding the queue makes a close wait, never the votes of another election behind it',
    async () => {
      const sqlc = t.ctx.database.sql;
      // Election C, open, with ballots of its own, closes while a dump holds every queue partition.
      const [row] = await t.ctx.database.db.insert(election).values({ title: 'Ward poll' }).returning({ id: election.id });
      const c = row!.id;
      const cPosition = await createPosition(t.ctx, { name: 'Secretary', electionId: c });
      const cCandidate = await createCandidate(t.ctx, [cPosition.id], { name: 'Ward Candidate' });
      await t.ctx.voting.tallyOf(c).refreshStructure();
      expect((await admin.elections.toggleElection({ query: { election_id: c }, body: { status: true } })).status).toBe(200);
      for (let i = 0; i < 6; i++) {
        const { token } = await createVoter(t.ctx);
        const res = await apiClient(t.app, token).ballots.castVote({
          query: { election_id: c },
          body: { candidates: { [cPosition.id]: cCandidate.id } },
        });
        expect(res.status).toBe(201);
      }
      await mixQueuedBallots(t.ctx);
      const dump = await sqlc.reserve();
      let closing: ReturnType<typeof close> | undefined;
      try {
        await dump`begin`;
        await dump`lock table ballot_queue in access share mode`;
        closing = close(c);
        await waitFor(async () => (await lockWaiters(sqlc)) >= 1, 10_000, "C's close waiting for the dump");
        // B's votes go through while C's close waits: none queues behind it.
        const cast: string[] = [];
        for (let i = 0; i < 5; i++) {
          const started = Date.now();
          const held = new Promise<'held'>((resolve) => setTimeout(() => resolve('held'), 5_000));
          const outcome = await Promise.race([castInB(), held]);
          expect(outcome, "a vote in B waited for C's close").not.toBe('held');
          cast.push(outcome as string);
          expect(Date.now() - started).toBeLessThan(5_000);
        }
        await dump`commit`;
        expect((await closing).status).toBe(200);
        const after = await receiptsOfB();
        for (const receipt of cast) expect(after.has(receipt), `receipt ${receipt} of B`).toBe(true);
        expect((await verifyAudit(t.ctx, b)).problems).toEqual([]);
        expect((await verifyAudit(t.ctx, c)).problems).toEqual([]);
      } finally {
        await dump`rollback`.catch(() => undefined);
        dump.release();
        await closing?.catch(() => undefined);
      }
    },
    60_000,
  );

  it.skipIf(!TEST_DATABASE_URL)(
    "readers of other elections never see a close (finding 2): B's commitment recorded during D's close, and a second process reading closed E's results and declaration, count their own boxes",
    async () => {
      const sqlc = t.ctx.database.sql;
      // E: closed, 4 votes for its first candidate and 2 for its second. D: open, with ballots, to be closed.
      const e = await electionWithVotes('Closed poll', [0, 0, 1, 0, 1, 0]);
      expect((await close(e)).status).toBe(200);
      const d = await electionWithVotes('Closing poll', [0, 1, 1, 0, 1, 1]);
      const resultsOfE = await resultsOf(admin, e);
      expect(resultsOfE.status).toBe(200);
      const countsOfE = countsOf(bodyOf(resultsOfE, 200).data.data);
      expect(countsOfE).toEqual(['Closed poll chair National: Closed poll First=4, Closed poll Second=2']);
      const declaredE = await declarationOf(admin, e);
      expect(declaredE.status).toBe(200);
      const mixedInB = (await digestBallots(t.ctx.database.db, undefined, b)).count;
      expect(mixedInB).toBeGreaterThan(0);

      // A second server process on the same database (its own pool), started before the close: it
      // has not read E yet, so its first read of E counts E's box.
      const pool = await openDatabase({ url: (t.ctx.database as TestDatabase).url!, poolMax: 4 });
      const second = await createContext({
        env: parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'warn', MIX_INTERVAL_MS: '3600000' }),
        logger: createLogger(parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'warn' })),
        database: pool,
        secrets: t.ctx.secrets,
        now: t.clock.now,
      });
      await second.start();
      await second.scheduler.stop();
      const secondApi = apiClient(createApp(second), adminToken);

      // A backup-like reader holds every ballot table (ACCESS SHARE, as pg_dump does): D's close
      // waits for it, and so would anything queued behind the close's truncate.
      const dump = await sqlc.reserve();
      let closing: ReturnType<typeof close> | undefined;
      const settled = new Set<string>();
      const track = <T>(name: string, p: PromiseLike<T>): Promise<T> =>
        Promise.resolve(p).finally(() => {
          settled.add(name);
        });
      let commitment: Promise<Awaited<ReturnType<typeof recordCommitment>>> | undefined;
      let resultsRead: ReturnType<typeof resultsOf> | undefined;
      let declarationRead: ReturnType<typeof declarationOf> | undefined;
      try {
        await dump`begin`;
        await dump`lock table ballots, ballot_queue in access share mode`;
        closing = close(d);
        await waitFor(async () => (await lockWaiters(sqlc)) >= 1, 10_000, "D's close waiting for the dump");
        // During the close: B's commitment (one repeatable-read snapshot, taken before it reads the
        // box), and the second process's first reads of closed E (its tally is built in one snapshot).
        commitment = track('commitment', recordCommitment(t.ctx, 'during another close', {}, b));
        resultsRead = track('results', resultsOf(secondApi, e));
        declarationRead = track('declaration', declarationOf(secondApi, e));
        // Each has either answered or is waiting for a lock (its snapshot already taken).
        await waitFor(
          async () => settled.size === 3 || (await lockWaiters(sqlc)) >= 1 + 3 - settled.size,
          10_000,
          'the readers answered or waiting',
        );
        await dump`commit`;
        expect((await closing).status).toBe(200);

        // Every reader counted its own election's box, as it was: none saw D's truncate.
        expect.soft((await commitment)?.count, "B's commitment during D's close").toBe(mixedInB);
        const during = await resultsRead;
        expect.soft(during.status).toBe(200);
        expect
          .soft(countsOf(during.status === 200 ? during.body.data.data : []), "E's results read by the second process")
          .toEqual(countsOfE);
        const declared = await declarationRead;
        expect.soft(declared.status).toBe(200);
        expect.soft(declared.body, "E's declaration read by the second process").toEqual(declaredE.body);
        // And what the second process keeps serving afterwards is E's count, not a cached empty box.
        const after = await resultsOf(secondApi, e);
        expect(countsOf(bodyOf(after, 200).data.data), "E's results served by the second process after the close").toEqual(countsOfE);
        expect((await verifyAudit(t.ctx, b)).problems).toEqual([]);
        expect((await verifyAudit(t.ctx, e)).problems).toEqual([]);
        expect((await verifyAudit(t.ctx, d)).problems).toEqual([]);
      } finally {
        await dump`rollback`.catch(() => undefined);
        dump.release();
        await closing?.catch(() => undefined);
        await commitment?.catch(() => undefined);
        await resultsRead?.catch(() => undefined);
        await declarationRead?.catch(() => undefined);
        await second.close();
        await pool.close().catch(() => undefined);
      }
    },
    60_000,
  );

  it("votes in B cast concurrently with A's close are all in B's box, and B's close then publishes them all", async () => {
    // A is closed by the test above on Postgres; on PGlite it is closed here.
    const closedA = (
      await t.ctx.database.db.execute<{ closed: boolean }>(sql`select closed_at is not null as closed from election where id = 1`)
    )[0]!.closed;
    const before = await receiptsOfB();
    const cast: string[] = [];
    const votes = Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let i = 0; i < 5; i++) cast.push(await castInB());
      }),
    );
    if (!closedA) expect((await close()).status).toBe(200);
    await votes;
    const after = await receiptsOfB();
    for (const receipt of [...before, ...cast]) expect(after.has(receipt), `receipt ${receipt} of B`).toBe(true);
    expect(after.size).toBe(before.size + cast.length);
    expect((await verifyAudit(t.ctx, b)).problems).toEqual([]);
    expect((await verifyAudit(t.ctx, 1)).problems).toEqual([]);

    // B's own close publishes every one of them, with the close's xmin on each row of its box.
    expect((await close(b)).status).toBe(200);
    const box = await t.ctx.database.db.execute<{ receipt: string; xmin: string }>(
      sql`select receipt, xmin::text as xmin from ballots where election_id = ${b}`,
    );
    expect(new Set(box.map((r) => r.receipt))).toEqual(after);
    expect(new Set(box.map((r) => r.xmin)).size).toBe(1);
    expect((await verifyAudit(t.ctx, b)).problems).toEqual([]);
  });
});
