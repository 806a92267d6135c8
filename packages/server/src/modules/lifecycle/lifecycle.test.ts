import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@kura/contract';
import { createContext } from '../../bootstrap';
import type { AppContext } from '../../context';
import { openDatabase, type Database } from '../../db/client';
import { activityLogs, commitments, election, positions } from '../../db/schema';
import { parseEnv } from '../../env';
import { createLogger } from '../../logger';
import { apiClient, bodyOf, type ApiClient } from '../../../test/client';
import { createCandidate, createPosition, tokenFor } from '../../../test/factories';
import { createTestApp, TEST_DATABASE_URL, type TestApp, type TestDatabase } from '../../../test/harness';
import { createElection, createVoter, vote, type Election } from '../../../test/voting/election';
import { CURRENT_ELECTION, readState, updateConfiguration } from '../../db/election-store';
import type { Scheduler } from './lifecycle';

/**
 * The election's life with a controllable clock: opening and closing on time, once across
 * processes and restarts; the toggle inside the window; close is final; the declared result.
 */

let t: TestApp;
let e: Election;
let admin: ApiClient;
let agent: ApiClient;
let anon: ApiClient;
beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000', MIX_MIN_BATCH: '50' } });
  e = await createElection(t.ctx);
  admin = apiClient(t.app, await tokenFor(t.ctx, 'admin'));
  agent = apiClient(t.app, await tokenFor(t.ctx, 'agent'));
  anon = apiClient(t.app);
});
afterAll(async () => {
  await t?.close();
});

const at = (msFromNow: number) => new Date(t.clock.now().getTime() + msFromNow).toISOString();
const getElection = async () => bodyOf(await anon.elections.getElection(), 200).data;
const toggle = (status: boolean) => admin.elections.toggleElection({ body: { status } });
const logCount = async (activity: string) =>
  (
    await t.ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(activityLogs)
      .where(eq(activityLogs.activity, activity))
  )[0]!.n;
const tick = () => t.ctx.scheduler.tick();
/** The declared result's plurality position `id` (counts and ties; a motion has no values, a ranked count no ties). */
const candidatesPosition = <P extends { position_id: number }>(data: P[], id: number) => {
  const found = data.find((p) => p.position_id === id);
  if (!found || !('values' in found)) throw new Error(`no candidates position ${id} in the declared result`);
  return found as Extract<P, { values: { count: number; tied: boolean }[] }>;
};

describe('the schedule', () => {
  it('opens at opens_at by itself, once; the toggle pauses and resumes inside the window; closes at closes_at', async () => {
    const put = await admin.elections.updateElection({ body: { title: 'Umoja AGM 2026', opens_at: at(60_000), closes_at: at(120_000) } });
    expect(put.status).toBe(200);
    expect(bodyOf(put, 200).data.phase).toBe('scheduled');
    // Not before its time, neither by the scheduler nor by the switch.
    await tick();
    expect((await getElection()).phase).toBe('scheduled');
    const early = await toggle(true);
    expect(early.status).toBe(409);
    // The contract does not list toggle's 409 (the schedule opens it), so its body is read as the error envelope.
    expect((early.body as ErrorBody).message).toMatch(/opens by itself/);

    t.clock.advance(61_000);
    await tick();
    expect(await getElection()).toMatchObject({ phase: 'open', active: '1' });
    expect((await anon.elections.getElectionStatus()).body).toEqual({ active: '1' });
    await tick();
    expect(await logCount('Voting opened on schedule')).toBe(1);
    const opening = await t.ctx.database.db.select().from(commitments).where(eq(commitments.reason, 'voting opened on schedule'));
    expect(opening).toHaveLength(1);

    // Members vote; the admin pauses; the scheduler does not reopen what the admin paused.
    const v = await createVoter(t.ctx);
    expect((await vote(t.app, v.token, { [e.chair.id]: e.alice.id })).status).toBe(201);
    expect(bodyOf(await toggle(false), 200).active).toBe('0');
    await tick();
    expect((await getElection()).phase).toBe('paused');
    expect(bodyOf(await toggle(true), 200).active).toBe('1');
    expect((await getElection()).phase).toBe('open');

    t.clock.advance(60_000);
    await tick();
    const closed = await getElection();
    expect(closed).toMatchObject({ phase: 'closed', active: '0' });
    expect(await logCount('Closed the election')).toBe(1);
    await tick();
    expect(await logCount('Closed the election')).toBe(1);
    expect((await vote(t.app, (await createVoter(t.ctx)).token, { [e.chair.id]: e.alice.id })).status).toBe(403);

    // Each row of the election's life names the election (there may be many).
    const lifecycle = ['Enabled voting', 'Disabled voting', 'Voting opened on schedule', 'Closed the election', 'Audit at close'];
    const rows = await t.ctx.database.db
      .select({ activity: activityLogs.activity, data: activityLogs.data, status: activityLogs.status })
      .from(activityLogs)
      .where(inArray(activityLogs.activity, lifecycle))
      .orderBy(activityLogs.id);
    const named = 'election 1: Umoja AGM 2026';
    expect(rows).toEqual([
      // The early switch-on, refused: the refusal names the election too.
      {
        activity: 'Enabled voting',
        data: expect.stringMatching(/^election 1: Umoja AGM 2026; Voting opens by itself at /),
        status: 'failed',
      },
      { activity: 'Voting opened on schedule', data: named, status: 'success' },
      { activity: 'Disabled voting', data: named, status: 'success' },
      { activity: 'Enabled voting', data: named, status: 'success' },
      { activity: 'Closed the election', data: `${named}; on schedule`, status: 'success' },
      { activity: 'Audit at close', data: `${named}; passed`, status: 'success' },
    ]);
  });

  it('close is final: the closing statements ran once, and toggle, PUT election and position changes answer 409', async () => {
    const row = await readState(t.ctx.database.db, 1);
    expect(row!.finalCommitmentId).not.toBeNull();
    expect(row!.audit).toMatchObject({ ok: true, problems: [] });
    const finals = await t.ctx.database.db.select().from(commitments).where(eq(commitments.reason, 'final'));
    expect(finals).toHaveLength(1);
    // The queue was flushed into the ballot box: the final commitment covers every ballot.
    const [queue] = await t.ctx.database.db.execute<{ n: number }>(sql`select count(*)::int as n from ballot_queue`);
    expect(queue!.n).toBe(0);
    expect(finals[0]!.count).toBe(1);

    expect((await toggle(true)).status).toBe(409);
    expect((await toggle(false)).status).toBe(409);
    expect((await admin.elections.updateElection({ body: { title: 'Again' } })).status).toBe(409);
    expect((await admin.setup.createPosition({ body: { name: 'Late position' } })).status).toBe(409);
    // Branches are the organisation's (the next election's set-up may need one): a new one changes no declared result.
    expect((await admin.setup.createBranch({ body: { name: 'Late branch' } })).status).toBe(201);
    const again = await admin.lifecycle.closeElection();
    expect(again.status).toBe(409);
    expect((await agent.lifecycle.closeElection()).status).toBe(403);
  });

  it('declares the result publicly after close: elected, turnout overall and per branch, the final commitment', async () => {
    const res = await anon.lifecycle.getFinalResults();
    expect(res.status).toBe(200);
    const declared = bodyOf(res, 200);
    const chair = candidatesPosition(declared.data, e.chair.id);
    expect(chair).toMatchObject({ seats: 1, total: 1 });
    expect(chair.values[0]).toMatchObject({ candidate_id: e.alice.id, count: 1, elected: true, tied: false });
    expect(chair.values[1]).toMatchObject({ candidate_id: e.brian.id, count: 0, elected: false, tied: false });
    expect(declared.turnout.voted).toBe(1);
    expect(declared.turnout.branches.find((b) => b.branch === 'Nairobi')).toMatchObject({ voted: 1 });
    expect(declared.turnout.members).toBe(declared.turnout.branches.reduce((n, b) => n + b.members, 0));
    const [final] = await t.ctx.database.db.select().from(commitments).where(eq(commitments.reason, 'final'));
    expect(declared.commitment).toEqual({ at: final!.at.toISOString(), count: final!.count, hash: final!.hash });
    expect(declared.audit).toMatchObject({ ok: true });
  });
});

describe('psk/results/final before close, and elected/tied for 1 and 3 seats', () => {
  let u: TestApp;
  afterAll(async () => {
    await u?.close();
  });

  it('is 403 before close; after an admin close it marks the seats highest counts elected and ties across the last seat', async () => {
    u = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
    const uAdmin = apiClient(u.app, await tokenFor(u.ctx, 'admin'));
    const uAnon = apiClient(u.app);
    const one = await createPosition(u.ctx, { name: 'Chair' });
    const three = await createPosition(u.ctx, { name: 'Committee' });
    await u.ctx.database.db.update(positions).set({ seats: 3 }).where(eq(positions.id, three.id));
    const [a, b] = [await createCandidate(u.ctx, [one.id], { name: 'A One' }), await createCandidate(u.ctx, [one.id], { name: 'B One' })];
    const c = await Promise.all(['C1', 'C2', 'C3', 'C4', 'C5'].map((name) => createCandidate(u.ctx, [three.id], { name })));
    await u.ctx.voting.tallyOf(1).refreshStructure();
    expect((await uAdmin.elections.toggleElection({ body: { status: true } })).status).toBe(200);
    // Chair: A 2, B 2 (tied for the one seat). Committee (3 seats), one choice per ballot:
    // C1 4, C2 3, C3 2, C4 2, C5 1 → C1, C2 elected; C3, C4 tied across the last seat.
    const committee = [0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 4];
    for (const [i, pick] of committee.entries()) {
      const voter = await createVoter(u.ctx);
      const choice: Record<number, number> = { [three.id]: c[pick]!.id };
      if (i < 4) choice[one.id] = i < 2 ? a.id : b.id;
      const res = await vote(u.app, voter.token, choice);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const before = await uAnon.lifecycle.getFinalResults();
    expect(before.status).toBe(403);
    expect(bodyOf(before, 403).message).toBe('The result is declared when the election closes');

    const closed = await uAdmin.lifecycle.closeElection();
    expect(closed.status).toBe(200);
    expect(bodyOf(closed, 200).data).toMatchObject({ phase: 'closed', active: '0' });
    const res = await uAnon.lifecycle.getFinalResults();
    expect(res.status).toBe(200);
    const declared = bodyOf(res, 200);
    const marks = (positionId: number) =>
      candidatesPosition(declared.data, positionId)
        .values.map((v) => `${v.name}:${v.count}:${v.elected ? 'E' : v.tied ? 'T' : '-'}`)
        .join(' ');
    expect(marks(one.id)).toBe('A One:2:T B One:2:T');
    expect(marks(three.id)).toBe('C1:4:E C2:3:E C3:2:T C4:2:T C5:1:-');
    expect(candidatesPosition(declared.data, three.id).seats).toBe(3);
    const csv = bodyOf(await uAdmin.elections.exportResults({ query: { format: 'csv' } }), 200);
    expect(csv).toContain(`${three.id},"Committee National",3,${c[0]!.id},"${c[0]!.memberNo}","C1",4,12,yes,no`);
    expect(csv).toContain(`${three.id},"Committee National",3,${c[2]!.id},"${c[2]!.memberNo}","C3",2,12,no,yes`);
  });
});

describe('two server processes on one database, and restarts', () => {
  type Proc = { ctx: AppContext & { close(): Promise<void> }; scheduler: Scheduler; close(): Promise<void> };
  let base: TestApp;
  const pools: Database[] = [];
  const logger = createLogger(parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'warn' }));

  beforeAll(async () => {
    base = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
    // The app's own scheduler stands for a process that is down during these tests.
    await base.ctx.scheduler.stop();
  });
  afterAll(async () => {
    for (const pool of pools) await pool.close();
    await base?.close();
  });

  /** A server process: its own context and scheduler; on Postgres its own connection pool. */
  async function startProcess(): Promise<Proc> {
    let database = base.ctx.database;
    if (TEST_DATABASE_URL) {
      database = await openDatabase({ url: (base.ctx.database as TestDatabase).url!, poolMax: 4 });
      pools.push(database);
    }
    const ctx = await createContext({
      env: parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'warn', MIX_INTERVAL_MS: '3600000' }),
      logger,
      database,
      secrets: base.ctx.secrets,
      now: base.clock.now,
    });
    const { scheduler } = ctx;
    scheduler.start();
    return {
      ctx,
      scheduler,
      async close() {
        await scheduler.stop();
        await ctx.close();
      },
    };
  }
  const count = async (activity: string) =>
    (
      await base.ctx.database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(activityLogs)
        .where(eq(activityLogs.activity, activity))
    )[0]!.n;
  const row = () => readState(base.ctx.database.db, 1);

  it('opens exactly once with two processes ticking at the same moment; a restart after it neither repeats nor undoes a pause', async () => {
    const now = base.clock.now().getTime();
    await updateConfiguration(base.ctx.database.db, { opensAt: new Date(now + 30_000), closesAt: new Date(now + 90_000) }, undefined, 1);
    const [a, b] = [await startProcess(), await startProcess()];
    base.clock.advance(31_000);
    await Promise.all([a.scheduler.tick(), b.scheduler.tick(), a.scheduler.tick(), b.scheduler.tick()]);
    expect(await count('Voting opened on schedule')).toBe(1);
    expect((await row()).openedAt).not.toBeNull();

    // The admin pauses; both processes restart; neither reopens.
    const baseAdmin = apiClient(base.app, await tokenFor(base.ctx, 'admin'));
    expect((await baseAdmin.elections.toggleElection({ body: { status: false } })).status).toBe(200);
    await Promise.all([a.close(), b.close()]);
    const [c, d] = [await startProcess(), await startProcess()];
    await Promise.all([c.scheduler.tick(), d.scheduler.tick()]);
    expect(await count('Voting opened on schedule')).toBe(1);
    expect(bodyOf(await apiClient(base.app).elections.getElectionStatus(), 200).active).toBe('0');
    await Promise.all([c.close(), d.close()]);
  });

  it('closes exactly once when closes_at passed while no process ran: the next start applies it, with one final commitment', async () => {
    base.clock.advance(60_000);
    const [a, b] = [await startProcess(), await startProcess()];
    await Promise.all([a.scheduler.tick(), b.scheduler.tick(), a.scheduler.tick(), b.scheduler.tick()]);
    const closes = await base.ctx.database.db.select().from(activityLogs).where(eq(activityLogs.activity, 'Closed the election'));
    expect(
      closes.map((l) => [l.name, l.data, l.status]),
      JSON.stringify(closes),
    ).toEqual([['Schedule', 'election 1; on schedule', 'success']]);
    const state = await row();
    expect(state.closedAt).not.toBeNull();
    expect(state.finalCommitmentId).not.toBeNull();
    expect(state.audit).not.toBeNull();
    const finals = await base.ctx.database.db.select().from(commitments).where(eq(commitments.reason, 'final'));
    expect(finals).toHaveLength(1);
    expect(await count('Audit at close')).toBe(1);
    await Promise.all([a.close(), b.close()]);
  });

  it('finishes the closing statements after a crash between the close and them', async () => {
    // As if the process died right after the close's own transaction (commitments are append-only:
    // the earlier final one stays, the resumed close records its own and points at it).
    const before = (await base.ctx.database.db.select().from(commitments).where(eq(commitments.reason, 'final'))).length;
    // A crash before the closing statements: nothing of them stored.
    await base.ctx.database.db.update(election).set({ finalCommitmentId: null, audit: null }).where(eq(election.id, CURRENT_ELECTION));
    const p = await startProcess();
    await p.scheduler.tick();
    await p.scheduler.tick();
    const state = await row();
    const finals = await base.ctx.database.db.select().from(commitments).where(eq(commitments.reason, 'final'));
    expect(finals).toHaveLength(before + 1);
    expect(state.finalCommitmentId).toBe(finals.at(-1)!.id);
    expect(state.audit).toMatchObject({ ok: true });
    await p.close();
  });
});
