import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../app';
import { createContext } from '../../bootstrap';
import type { AppContext } from '../../context';
import { openDatabase, type Database } from '../../db/client';
import { readState } from '../../db/election-store';
import { commitments, declarations, election, members } from '../../db/schema';
import { parseEnv } from '../../env';
import { createLogger } from '../../logger';
import type { CreatePositionBody } from '@kura/contract';
import { apiClient, bodyOf, multipart } from '../../../test/client';
import { branchId, createMember, tokenFor } from '../../../test/factories';
import { createTestApp, TEST_DATABASE_URL, type TestApp, type TestDatabase } from '../../../test/harness';

/**
 * The declaration counts the election's frozen roll, never the register as it is later (SECURITY.md
 * "The roll"; docs/architecture.md "The declaration"): a branch motion's quorum over the members of
 * that branch on the roll, turnout and turnout per branch over the roll with each member's branch at
 * the freeze. It is counted once, in the close's transaction, stored with the final commitment, and
 * every process serves that stored declaration: importing or moving members after the close,
 * restarting, or reading from a second process changes nothing.
 */

let t: TestApp;
let admin: string;
const pools: Database[] = [];
const logger = createLogger(parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'warn' }));

beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  admin = await tokenFor(t.ctx, 'admin');
  // The register beyond any by-election's roll: members of other branches.
  for (let i = 0; i < 6; i++) await createMember(t.ctx, { branch: 'Nairobi' });
});
afterAll(async () => {
  for (const pool of pools) await pool.close();
  await t?.close();
});

/** Another server process on the same database (on Postgres its own pool): a restart, or a second replica. */
async function startProcess(): Promise<{ ctx: AppContext; app: ReturnType<typeof createApp>; close(): Promise<void> }> {
  let database = t.ctx.database;
  if (TEST_DATABASE_URL) {
    database = await openDatabase({ url: (t.ctx.database as TestDatabase).url!, poolMax: 4 });
    pools.push(database);
  }
  const ctx = await createContext({
    env: parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'warn', MIX_INTERVAL_MS: '3600000' }),
    logger,
    database,
    secrets: t.ctx.secrets,
    now: t.clock.now,
  });
  await ctx.start();
  await ctx.scheduler.stop();
  return { ctx, app: createApp(ctx), close: () => ctx.close() };
}

const api = () => apiClient(t.app, admin);

async function newElection(title: string, branchIds: number[] | null): Promise<number> {
  const res = await api().organisation.createElection({ body: { title, electorate: { branch_ids: branchIds } } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return bodyOf(res, 201).data.id!;
}

/** A motion of the election: its id and its options' ids by name. */
async function newMotion(id: number, body: Omit<CreatePositionBody, 'kind'>) {
  const res = await api().setup.createPosition({ query: { election_id: id }, body: { kind: 'motion', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const motion = bodyOf(res, 201).data[0]!.id;
  const rows = await t.ctx.database.sql<{ id: number; name: string }[]>`select id, name from motion_options where position_id = ${motion}`;
  return { id: motion, o: Object.fromEntries(rows.map((r) => [r.name, r.id])) as Record<'Yes' | 'No' | 'Abstain', number> };
}

const toggle = async (id: number, status: boolean) =>
  expect((await api().elections.toggleElection({ query: { election_id: id }, body: { status } })).status).toBe(200);
const close = async (id: number) => expect((await api().lifecycle.closeElection({ query: { election_id: id } })).status).toBe(200);
const voteIn = async (id: number, memberId: number, choices: Record<number, number>) => {
  const voter = apiClient(t.app, await tokenFor(t.ctx, 'voter', memberId));
  const res = await voter.ballots.castVote({ query: { election_id: id }, body: { candidates: choices } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
};
/** The final results as served by `app`; `text` is the answer's JSON as served (key order kept), to compare processes. */
const finalOf = async (app: TestApp['app'], id: number) => {
  const res = await apiClient(app).lifecycle.getFinalResults({ query: { election_id: id } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const body = bodyOf(res, 200);
  return { body, text: JSON.stringify(body) };
};

/** Members who join the register (never on a roll frozen before): by the CSV import, as an admin would. */
let imported = 0;
async function importMembers(branch: string, n: number) {
  const rows = Array.from({ length: n }, () => {
    const k = 880_000 + imported++;
    return `${k},Late ${k},late.${k}@example.org,07${String(k).padStart(8, '0')},${branch}`;
  });
  const res = await api().members.importMembers({
    query: {},
    body: multipart({ file: { file: Buffer.from(`member_no,name,email,phone,branch\n${rows.join('\n')}\n`), filename: 'members.csv' } }),
  });
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ created: n });
}

/** Moves a member to another branch through the member edit. */
async function moveMember(memberId: number, branch: string) {
  const [m] = await t.ctx.database.db.select().from(members).where(eq(members.id, memberId));
  const res = await api().members.updateMember({
    params: { id: memberId },
    body: { name: m!.name, phone: m!.phone, email: m!.email, county: await branchId(t.ctx, branch), member_no: m!.memberNo },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('a branch motion of a by-election', () => {
  let id: number;
  let motion: Awaited<ReturnType<typeof newMotion>>;
  const roll: number[] = [];

  beforeAll(async () => {
    const kisumu = await branchId(t.ctx, 'Kisumu');
    for (let i = 0; i < 3; i++) roll.push((await createMember(t.ctx, { branch: 'Kisumu' })).id);
    id = await newElection('Kisumu branch motion', [kisumu]);
    motion = await newMotion(id, { name: 'Adopt the branch accounts', branch_id: kisumu, quorum_percent: 50 });
    await toggle(id, true);
    expect(bodyOf(await api().organisation.getElectionById({ params: { id } }), 200).data.roll_size).toBe(3);
    // Members join Kisumu while voting is open: not on this roll, so not in its quorum.
    await importMembers('Kisumu', 4);
    await voteIn(id, roll[0]!, { [motion.id]: motion.o.Yes });
    await voteIn(id, roll[1]!, { [motion.id]: motion.o.Yes });
    await close(id);
  });

  it('is declared passed: 2 of a roll of 3 meet a 50 % quorum; turnout is the roll, not the register', async () => {
    const res = await finalOf(t.app, id);
    expect(res.body.data.find((d) => d.position_id === motion.id)).toMatchObject({
      kind: 'motion',
      yes: 2,
      no: 0,
      abstain: 0,
      quorum_percent: 50,
      quorum_met: true,
      passed: true,
      // the roll the quorum was counted against, for the declaration's arithmetic (issue 37)
      roll: 3,
    });
    expect(res.body.turnout).toEqual({ members: 3, voted: 2, branches: [{ branch: 'Kisumu', members: 3, voted: 2 }] });
  });

  it('is stored by the close with its final commitment, before anyone reads it', async () => {
    const { finalCommitmentId } = await readState(t.ctx.database.db, id);
    const [stored] = await t.ctx.database.db.select().from(declarations).where(eq(declarations.commitmentId, finalCommitmentId!));
    expect(stored).toMatchObject({ electionId: id });
    const res = await finalOf(t.app, id);
    expect(stored!.declaration).toEqual({ data: res.body.data, turnout: res.body.turnout });
  });

  it('does not change when members are imported or moved after the close, after a restart, or in a second process', async () => {
    const before = (await finalOf(t.app, id)).text;
    await importMembers('Kisumu', 2);
    await moveMember(roll[2]!, 'Nairobi');
    await moveMember(roll[0]!, 'Mombasa');
    // The process that closed it, a restarted one and a second replica serve the same bytes; none recounts.
    const [restarted, replica] = [await startProcess(), await startProcess()];
    try {
      const resyncs = [restarted, replica].map((p) => vi.spyOn(p.ctx.voting.tallyOf(id), 'resync'));
      expect((await finalOf(t.app, id)).text).toBe(before);
      expect((await finalOf(restarted.app, id)).text).toBe(before);
      expect((await finalOf(replica.app, id)).text).toBe(before);
      for (const r of resyncs) expect(r).not.toHaveBeenCalled();
    } finally {
      await Promise.all([restarted.close(), replica.close()]);
    }
  });

  it('is refused any change in the database: the stored declaration is append-only', async () => {
    const { finalCommitmentId } = await readState(t.ctx.database.db, id);
    await expect(
      t.ctx.database.db.update(declarations).set({ declaration: {} }).where(eq(declarations.commitmentId, finalCommitmentId!)),
    ).rejects.toThrow();
    await expect(t.ctx.database.db.delete(declarations).where(eq(declarations.commitmentId, finalCommitmentId!))).rejects.toThrow();
  });
});

describe('turnout per branch', () => {
  it('counts each roll member in the branch they were in at the freeze, and no one who joined after', async () => {
    const [kisumu, mombasa] = [await branchId(t.ctx, 'Kisumu'), await branchId(t.ctx, 'Mombasa')];
    const k = [await createMember(t.ctx, { branch: 'Kisumu' }), await createMember(t.ctx, { branch: 'Kisumu' })];
    const m = [await createMember(t.ctx, { branch: 'Mombasa' }), await createMember(t.ctx, { branch: 'Mombasa' })];
    const id = await newElection('Coast and lake', [kisumu, mombasa]);
    const motion = await newMotion(id, { name: 'Merge the branches' });
    await toggle(id, true);
    // The roll as frozen, per branch: every Kisumu and Mombasa member of the register at the opening.
    const frozen = await t.ctx.database.sql<{ branch: string; n: number }[]>`
      select b.name as branch, count(*)::int as n from members m join branches b on b.id = m.branch_id
      where m.branch_id in (${kisumu}, ${mombasa}) group by b.name order by b.name`;
    const size = Object.fromEntries(frozen.map((r) => [r.branch, r.n]));
    // While voting is open: a Kisumu member moves to Mombasa, another leaves for Nairobi, and newcomers join both.
    await moveMember(k[0]!.id, 'Mombasa');
    await moveMember(k[1]!.id, 'Nairobi');
    await importMembers('Mombasa', 3);
    await voteIn(id, k[0]!.id, { [motion.id]: motion.o.Yes });
    await voteIn(id, m[0]!.id, { [motion.id]: motion.o.No });
    await close(id);
    const res = await finalOf(t.app, id);
    expect(res.body.turnout).toEqual({
      members: size.Kisumu! + size.Mombasa!,
      voted: 2,
      branches: [
        { branch: 'Kisumu', members: size.Kisumu, voted: 1 },
        { branch: 'Mombasa', members: size.Mombasa, voted: 1 },
      ],
    });
  });
});

describe('a close finalised before the declaration was stored with it (an upgraded installation)', () => {
  it('is counted once on the first read, stored, and served unchanged from then on by every process', async () => {
    const lake = await branchId(t.ctx, 'Lake');
    const roll = [await createMember(t.ctx, { branch: 'Lake' }), await createMember(t.ctx, { branch: 'Lake' })];
    const id = await newElection('Lake motion', [lake]);
    const motion = await newMotion(id, { name: 'Buy a boat', branch_id: lake, quorum_percent: 100 });
    await toggle(id, true);
    await voteIn(id, roll[0]!.id, { [motion.id]: motion.o.Yes });
    await voteIn(id, roll[1]!.id, { [motion.id]: motion.o.Yes });
    await close(id);
    // As the release before this one left it: a final commitment with no declaration stored beside it
    // (declarations are append-only, so a new final commitment to the same box stands for it).
    const { finalCommitmentId } = await readState(t.ctx.database.db, id);
    const [final] = await t.ctx.database.db.select().from(commitments).where(eq(commitments.id, finalCommitmentId!));
    const [legacy] = await t.ctx.database.db
      .insert(commitments)
      .values({ electionId: id, at: final!.at, count: final!.count, hash: final!.hash, reason: 'final' })
      .returning({ id: commitments.id });
    await t.ctx.database.db.update(election).set({ finalCommitmentId: legacy!.id }).where(eq(election.id, id));

    const replica = await startProcess();
    try {
      const first = await finalOf(replica.app, id);
      expect(first.body.data[0]).toMatchObject({ position_id: motion.id, yes: 2, quorum_met: true, passed: true });
      expect(first.body.turnout).toEqual({ members: 2, voted: 2, branches: [{ branch: 'Lake', members: 2, voted: 2 }] });
      const [stored] = await t.ctx.database.sql<
        { n: number }[]
      >`select count(*)::int as n from declarations where commitment_id = ${legacy!.id}`;
      expect(stored!.n).toBe(1);
      // The register changes; the process that closed it (which never read this one) serves what was stored.
      await importMembers('Lake', 3);
      await moveMember(roll[1]!.id, 'Nairobi');
      expect((await finalOf(t.app, id)).text).toBe(first.text);
      expect((await finalOf(replica.app, id)).text).toBe(first.text);
    } finally {
      await replica.close();
    }
  });
});

describe('an election closed without ever opening', () => {
  it('declares turnout over its electorate at the close (nothing was frozen, nobody voted)', async () => {
    const lake = await branchId(t.ctx, 'Lake');
    const id = await newElection('Never opened', [lake]);
    await newMotion(id, { name: 'Nothing', quorum_percent: 10 });
    const [n] = await t.ctx.database.sql<{ n: number }[]>`select count(*)::int as n from members where branch_id = ${lake}`;
    await close(id);
    await importMembers('Lake', 1);
    const res = await finalOf(t.app, id);
    expect(res.body.turnout).toEqual({ members: n!.n, voted: 0, branches: [{ branch: 'Lake', members: n!.n, voted: 0 }] });
    expect(res.body.data[0]).toMatchObject({ quorum_met: false, passed: false });
    // Not frozen afterwards by a read: still the same after more members join.
    expect((await finalOf(t.app, id)).text).toBe(res.text);
  });
});
