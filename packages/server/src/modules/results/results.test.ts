import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { COMMANDS } from '../../cli/commands';
import { activityLogs, members } from '../../db/schema';
import { apiClient, bodyOf, untyped, type ApiClient } from '../../../test/client';
import { createMember, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createElection, createVoter, vote, type Election } from '../../../test/voting/election';
import { remixAtClose } from '../ballots';
import { verifyAudit } from '../declaration';
import { createCommitmentLoop, recordCommitment } from './commitments';
import { TallySnapshot } from './tally';

let t: TestApp;
let e: Election;
let admin: ApiClient;
let agent: ApiClient;
let anon: ApiClient;
beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  e = await createElection(t.ctx);
  admin = apiClient(t.app, await tokenFor(t.ctx, 'admin'));
  agent = apiClient(t.app, await tokenFor(t.ctx, 'agent'));
  anon = apiClient(t.app);
});
afterAll(async () => {
  await t?.close();
});

const toggle = (status: unknown, api = admin) => api.elections.toggleElection({ body: { status: untyped(status) } });
const voterClient = (token: string) => apiClient(t.app, token);
const commitmentsList = async () => bodyOf(await anon.elections.listCommitments(), 200).data;

describe('election status and toggle', () => {
  it('starts disabled and switches with the spec messages, logged, with a commitment each time', async () => {
    expect((await anon.elections.getElectionStatus()).body).toEqual({ active: '0' });
    const on = await toggle(true);
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ active: '1', message: 'Voting has been enabled' });
    expect((await anon.elections.getElectionStatus()).body).toEqual({ active: '1' });
    const off = await toggle(false);
    expect(off.body).toEqual({ active: '0', message: 'Voting has been disabled' });
    const logs = await t.ctx.database.db
      .select()
      .from(activityLogs)
      .where(sql`${activityLogs.activity} in ('Enabled voting', 'Disabled voting')`);
    expect(logs.map((l) => [l.activity, l.status])).toEqual([
      ['Enabled voting', 'success'],
      ['Disabled voting', 'success'],
    ]);
    const commitments = await commitmentsList();
    expect(commitments).toHaveLength(2);
    expect(commitments[0]).toEqual({ at: expect.any(String), count: 0, hash: createHash('sha256').update('').digest('hex') });
  });

  it('lets only an admin toggle, and validates the body', async () => {
    expect((await toggle(true, anon)).status).toBe(401);
    expect((await toggle(true, agent)).status).toBe(403);
    expect((await toggle(true, voterClient((await createVoter(t.ctx)).token))).status).toBe(403);
    const bad = await toggle('yes');
    expect(bad.status).toBe(422);
    expect(bodyOf(bad, 422).errors?.status).toEqual(['The status must be true or false']);
  });
});

describe('results, statistics, receipts, commitments', () => {
  const receipts: string[] = [];
  let voters: { token: string }[] = [];

  beforeAll(async () => {
    await toggle(true);
    // chair: Brian 3, Alice 1; treasurer: Carol 2, Dan 2 (tie: by name); nairobi: Erin 1.
    voters = await Promise.all(Array.from({ length: 4 }, () => createVoter(t.ctx)));
    const choices = [
      { [e.chair.id]: e.brian.id, [e.treasurer.id]: e.carol.id, [e.nairobi.id]: e.erin.id },
      { [e.chair.id]: e.brian.id, [e.treasurer.id]: e.dan.id },
      { [e.chair.id]: e.brian.id, [e.treasurer.id]: e.carol.id },
      { [e.chair.id]: e.alice.id, [e.treasurer.id]: e.dan.id },
    ];
    for (const [i, c] of choices.entries()) {
      const res = await vote(t.app, voters[i]!.token, c);
      expect(res.status).toBe(201);
      receipts.push(...bodyOf(res, 201).receipts.map((r) => r.vvpat));
    }
  });

  it('serves results in position order, candidates by count then name, zero counts included', async () => {
    const res = await anon.elections.getResults();
    expect(res.status).toBe(200);
    const groups = bodyOf(res, 200).data.data;
    const mine = groups.filter((g) => [e.chair.id, e.treasurer.id, e.nairobi.id, e.mombasa.id].includes(g.position_id));
    expect(mine).toEqual([
      {
        position_id: e.chair.id,
        title: `${e.chair.name} National`,
        key: `${e.chair.name}_National`,
        values: [
          { candidate_id: e.brian.id, title: 'Brian Barasa', name: 'Brian Barasa', member_no: e.brian.memberNo, count: 3 },
          { candidate_id: e.alice.id, title: 'Alice Achieng', name: 'Alice Achieng', member_no: e.alice.memberNo, count: 1 },
        ],
        total: 4,
      },
      {
        position_id: e.treasurer.id,
        title: `${e.treasurer.name} National`,
        key: `${e.treasurer.name}_National`,
        values: [
          { candidate_id: e.carol.id, title: 'Carol Chebet', name: 'Carol Chebet', member_no: e.carol.memberNo, count: 2 },
          { candidate_id: e.dan.id, title: 'DanDing', name: 'DanDing', member_no: e.dan.memberNo, count: 2 },
        ],
        total: 4,
      },
      expect.objectContaining({
        position_id: e.nairobi.id,
        title: `${e.nairobi.name} Nairobi`,
        key: `${e.nairobi.name}_Nairobi`,
        total: 1,
      }),
      expect.objectContaining({
        position_id: e.mombasa.id,
        total: 0,
        values: [expect.objectContaining({ candidate_id: e.fred.id, count: 0 })],
      }),
    ]);
    // Only positions with candidates appear (the seeded ones have none here).
    expect(groups).toHaveLength(4);
    const dashboard = await voterClient(voters[0]!.token).elections.getDashboard();
    expect(dashboard.body).toEqual(res.body);
    expect((await agent.elections.getAgentResults()).body).toEqual(res.body);
    expect((await admin.elections.getAgentResults()).status).toBe(200);
    expect((await agent.elections.getDashboard()).status).toBe(403);
  });

  it('counts statistics by the docs/api.md definitions', async () => {
    await createMember(t.ctx, { verified: true });
    await createMember(t.ctx, { verified: true });
    t.ctx.voting.tallyOf(1).invalidateMembers();
    const [counts] = await t.ctx.database.db
      .select({ all: sql<number>`count(*)::int`, verified: sql<number>`count(${members.verifiedAt})::int` })
      .from(members);
    const res = await admin.elections.getStatistics();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        data: {
          votesCasted: 9,
          verifiedMembers: counts!.verified,
          unverifiedMembers: counts!.all - counts!.verified,
          membersVoted: 4,
          membersNotVoted: counts!.all - 4,
          channels: { web: 4, ussd: 0 },
        },
      },
    });
    expect(counts!.verified).toBe(2);
    const agentView = await agent.elections.getAgentStatistics();
    expect(agentView.body).toEqual({ data: bodyOf(res, 200).data.data });
    expect((await voterClient(voters[0]!.token).elections.getStatistics()).status).toBe(403);
    expect((await anon.elections.getStatistics()).status).toBe(401);
  });

  it('confirms a receipt with its position but never the choice, queued or mixed', async () => {
    const [first] = receipts;
    const receipt = (vvpat: string) => anon.elections.getReceipt({ params: { vvpat } });
    const res = await receipt(first!);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      vvpat: first,
      position: `${e.chair.name} National`,
      election_id: 1,
      election: expect.any(String),
      recorded: true,
    });
    expect(bodyOf(await receipt(first!.toLowerCase()), 200).vvpat).toBe(first);
    expect((await receipt('VP-0000-0000-0000')).status).toBe(404);
    expect((await receipt('nonsense')).status).toBe(404);
    await remixAtClose(t.ctx, 1);
    const after = await receipt(first!);
    expect(after.body).toEqual(res.body);
  });

  it('exports the results as CSV for admins', async () => {
    const res = await admin.elections.exportResults({ query: { format: 'csv' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/csv/);
    // Named after the election (lib/file-name.ts), not a bare results.csv that overwrites last year's.
    const { title, id } = bodyOf(await anon.elections.getElection(), 200).data;
    const base =
      title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || `election-${id}`;
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${base}-results.csv"`);
    const lines = bodyOf(res, 200).trim().split('\r\n');
    expect(lines[0]).toBe('position_id,position,seats,candidate_id,member_no,candidate,votes,position_total,elected,tied,method');
    expect(lines).toContain(
      `${e.chair.id},"${e.chair.name} National",1,${e.brian.id},"${e.brian.memberNo}","Brian Barasa",3,4,yes,no,plurality`,
    );
    expect(lines).toContain(
      `${e.chair.id},"${e.chair.name} National",1,${e.alice.id},"${e.alice.memberNo}","Alice Achieng",1,4,no,no,plurality`,
    );
    // Treasurer: Carol 2, Dan 2 for one seat, tied, neither elected.
    expect(lines).toContain(
      `${e.treasurer.id},"${e.treasurer.name} National",1,${e.carol.id},"${e.carol.memberNo}","Carol Chebet",2,4,no,yes,plurality`,
    );
    expect((await agent.elections.exportResults()).status).toBe(403);
  });

  it('rebuilds the same results and statistics from the database (a restart)', async () => {
    const fresh = new TallySnapshot(t.ctx, 1);
    await fresh.whenReady();
    const runtime = t.ctx.voting.tallyOf(1);
    expect(fresh.results()).toEqual(runtime.results());
    expect(await fresh.statistics()).toEqual(await runtime.statistics());
  });

  it('neither loses nor doubles a vote whose event arrives after a rebuild saw it', async () => {
    const snapshot = new TallySnapshot(t.ctx, 1);
    await snapshot.whenReady();
    const events: Parameters<TallySnapshot['applyVote']>[0][] = [];
    const capture = (v: (typeof events)[0]) => events.push(v);
    t.ctx.events.on('votes.cast', capture);
    const { token } = await createVoter(t.ctx);
    await vote(t.app, token, { [e.chair.id]: e.alice.id });
    t.ctx.events.off('votes.cast', capture);
    await snapshot.resync();
    const chairCount = () => snapshot.results().find((g) => g.position_id === e.chair.id)!.total;
    expect(chairCount()).toBe(5);
    // The same vote relayed late from "another process": already counted, skipped.
    snapshot.applyVote(events[0]!);
    expect(chairCount()).toBe(5);
  });

  it('records periodic commitments only when due', async () => {
    expect(await recordCommitment(t.ctx, 'periodic', { onlyIfDue: true }, 1)).toBeNull();
    t.clock.advance(t.ctx.env.COMMITMENT_INTERVAL_SECONDS * 1000 + 1000);
    const made = await recordCommitment(t.ctx, 'periodic', { onlyIfDue: true }, 1);
    expect(made).not.toBeNull();
    expect(await recordCommitment(t.ctx, 'periodic', { onlyIfDue: true }, 1)).toBeNull();
    const list = await commitmentsList();
    expect(list[0]).toEqual(made);
    expect(new Date(list[0]!.at).getTime()).toBeGreaterThan(new Date(list[1]!.at).getTime());
  });

  it('records them in the background while voting is open', async () => {
    const loop = { ...t.ctx, env: { ...t.ctx.env, COMMITMENT_INTERVAL_SECONDS: 1 } };
    const count = async () => (await commitmentsList()).length;
    const before = await count();
    t.clock.advance(2000);
    const commitmentLoop = createCommitmentLoop(loop);
    commitmentLoop.start();
    try {
      const until = Date.now() + 10_000;
      while ((await count()) === before && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      expect(await count()).toBe(before + 1);
    } finally {
      await commitmentLoop.stop();
    }
  });

  it('commits to exactly the stored ballot set; audit:verify passes, then fails after one ballot is altered', async () => {
    // The close publishes every queued ballot (a pause publishes nothing) and records the final commitment.
    expect((await admin.lifecycle.closeElection()).status).toBe(200);
    const rows = await t.ctx.database.db.execute<{ receipt: string; position_id: number; candidate_id: number }>(
      sql`select receipt, position_id, candidate_id from ballots order by receipt collate "C"`,
    );
    const hash = createHash('sha256');
    for (const r of rows) hash.update(`${r.receipt},${r.position_id},${r.candidate_id}\n`);
    const [newest] = await commitmentsList();
    expect(newest).toMatchObject({ count: 10, hash: hash.digest('hex') });

    const report = await verifyAudit(t.ctx, 1);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.tallies).toContainEqual({ positionId: e.chair.id, candidateId: e.brian.id, count: 3 });
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await COMMANDS['audit:verify']!.run(t.ctx, [])).toBe(0);
      await t.ctx.database.db.execute(
        sql`update ballots set candidate_id = ${e.alice.id} where position_id = ${e.chair.id} and candidate_id = ${e.brian.id} and receipt = (select min(receipt) from ballots where candidate_id = ${e.brian.id})`,
      );
      expect(await COMMANDS['audit:verify']!.run(t.ctx, [])).toBe(1);
      const failed = await verifyAudit(t.ctx, 1);
      expect(failed.ok).toBe(false);
      expect(failed.problems.join('\n')).toMatch(/do not match the newest commitment/);

      await t.ctx.database.db.execute(sql`delete from ballots where receipt = (select min(receipt) from ballots)`);
      const removed = await verifyAudit(t.ctx, 1);
      expect(removed.problems.join('\n')).toMatch(/covers 10 ballots but only 9|have no ballot/);

      // A ballot moved to another position than its voter's (the audit's receipt index, receipt-index.ts).
      await t.ctx.database.db.execute(
        sql`update ballots set position_id = (select id from positions where election_id = 1 and id <> ${e.chair.id} order by id limit 1)
            where receipt = (select max(receipt) from ballots where position_id = ${e.chair.id})`,
      );
      const moved = await verifyAudit(t.ctx, 1);
      expect(moved.problems.join('\n')).toMatch(/1 ballot\(s\) are recorded under a different position than their voter's/);
      expect(moved.problems.join('\n')).toMatch(new RegExp(`Position ${e.chair.id}: \\d+ ballot\\(s\\) but \\d+ voter\\(s\\)`));
    } finally {
      log.mockRestore();
      err.mockRestore();
    }
  });
});
