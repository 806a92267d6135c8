import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../src/auth/sessions';
import { createMember } from '../factories';
import { TEST_DATABASE_URL } from '../harness';
import { setVoting } from '../voting/election';
import { closeRawClients, rawRequest } from './http-client';
import { createDeployment, seedElection, staffToken, type Deployment, type SeededElection } from './server-process';

/**
 * Crash consistency on a real Postgres: the real server is started, a burst of voters votes, the
 * process is killed with SIGKILL mid-burst, and a new process starts on the same database. Every
 * acknowledged (201) vote is there with its receipts, no vote is half recorded, ballots + queue =
 * participation, results agree, and `audit:verify` passes. Repeated for several crashes.
 */

const CRASHES = Number(process.env.RELIABILITY_CRASHES ?? 3);
const VOTERS_PER_BURST = 40;

type Voter = { memberId: number; token: string; acked?: { position_id: number; vvpat: string }[] };

let dep: Deployment;
let election: SeededElection;
let adminToken: string;
let crashesSurvived = 0;

describe.skipIf(!TEST_DATABASE_URL)('crash consistency (kill -9 mid-burst, restart)', () => {
  beforeAll(async () => {
    dep = await createDeployment({ MIX_MIN_BATCH: '5', MIX_INTERVAL_MS: '100' });
    election = await seedElection(dep.ctx);
    await setVoting(dep.ctx, true);
    adminToken = await staffToken(dep.ctx, 'admin');
  });
  afterAll(async () => {
    closeRawClients();
    await dep?.close();
    console.log(`crash: ${crashesSurvived} kill -9 crashes survived`);
  });

  async function newVoters(n: number): Promise<Voter[]> {
    const out: Voter[] = [];
    for (let i = 0; i < n; i++) {
      const member = await createMember(dep.ctx, { branch: 'Nairobi' });
      out.push({ memberId: member.id, token: (await createSession(dep.ctx, { role: 'voter', subjectId: member.id })).token });
    }
    return out;
  }

  const ballotOf = (i: number) => ({
    [election.chair.id]: i % 2 ? election.alice.id : election.brian.id,
    [election.treasurer.id]: i % 3 ? election.carol.id : election.dan.id,
    [election.nairobi.id]: election.erin.id,
  });

  function castVote(port: number, voter: Voter, i: number) {
    return rawRequest(
      { port },
      {
        method: 'POST',
        path: '/api/v1/psk/vote',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${voter.token}`, connection: 'close' },
        body: JSON.stringify({ candidates: ballotOf(i) }),
        timeoutMs: 30_000,
      },
    );
  }

  async function checkConsistency(port: number, voters: Voter[]) {
    const rows = await dep.db.db.execute<{ member_id: number; n: number }>(
      sql`select member_id, count(*)::int as n from participation group by member_id`,
    );
    // All-or-nothing: a member has either all three positions or none.
    for (const r of rows) expect(r.n, `member ${r.member_id}`).toBe(3);
    const [counts] = await dep.db.db.execute<{ participation: number; queue: number; ballots: number }>(
      sql`select (select count(*) from participation)::int as participation, (select count(*) from ballot_queue)::int as queue, (select count(*) from ballots)::int as ballots`,
    );
    expect(counts!.ballots + counts!.queue).toBe(counts!.participation);
    const voted = new Set(rows.map((r) => r.member_id));
    for (const v of voters.filter((x) => x.acked)) {
      expect(voted.has(v.memberId), `acknowledged voter ${v.memberId} lost`).toBe(true);
      const mine = await rawRequest(
        { port },
        { method: 'GET', path: '/api/v1/psk/vvpat', headers: { authorization: `Bearer ${v.token}` } },
      );
      expect(mine.status).toBe(200);
      const codes = (JSON.parse(mine.text) as { data: { votes: { vvpat: string }[] } }).data.votes.map((x) => x.vvpat).sort();
      expect(codes).toEqual(v.acked!.map((r) => r.vvpat).sort());
      for (const r of v.acked!) {
        const receipt = await rawRequest({ port }, { method: 'GET', path: `/api/v1/psk/receipt/${encodeURIComponent(r.vvpat)}` });
        expect(receipt.status, r.vvpat).toBe(200);
      }
    }
    // Results and statistics agree with the tables.
    const results = await rawRequest(
      { port },
      { method: 'GET', path: '/api/v1/agent/results', headers: { authorization: `Bearer ${adminToken}` } },
    );
    const groups = (JSON.parse(results.text) as { data: { data: { total: number }[] } }).data.data;
    expect(groups.reduce((s, g) => s + g.total, 0)).toBe(counts!.participation);
    const stats = await rawRequest(
      { port },
      { method: 'GET', path: '/api/v1/agent/statistics', headers: { authorization: `Bearer ${adminToken}` } },
    );
    const s = (JSON.parse(stats.text) as { data: { votesCasted: number; membersVoted: number } }).data;
    expect(s.votesCasted).toBe(counts!.participation);
    expect(s.membersVoted).toBe(voted.size);
  }

  it(`keeps every acknowledged vote through ${CRASHES} crashes, and the audit passes`, async () => {
    const everyone: Voter[] = [];
    for (let crash = 0; crash < CRASHES; crash++) {
      const server = await dep.start();
      const voters = await newVoters(VOTERS_PER_BURST);
      everyone.push(...voters);
      let acked = 0;
      let killed = false;
      const killAfter = 8 + crash * 5;
      await Promise.all(
        voters.map(async (v, i) => {
          try {
            const res = await castVote(server.port, v, i);
            if (res.status === 201) {
              v.acked = (JSON.parse(res.text) as { receipts: { position_id: number; vvpat: string }[] }).receipts;
              if (++acked >= killAfter && !killed) {
                killed = true;
                server.proc.kill('SIGKILL');
              }
            } else if (!killed) {
              throw new Error(`vote answered ${res.status}: ${res.text}`);
            }
          } catch (error) {
            if (!killed) throw error; // after the kill, lost connections are expected
          }
        }),
      );
      if (!killed) server.proc.kill('SIGKILL');
      await server.exited;
      expect(acked).toBeGreaterThanOrEqual(killAfter);

      const restarted = await dep.start();
      crashesSurvived++;
      await checkConsistency(restarted.port, everyone);
      // Voters whose answer was lost try again: either recorded before the crash (409) or now (201).
      for (const [i, v] of voters.entries()) {
        if (v.acked) continue;
        const res = await castVote(restarted.port, v, i);
        expect([201, 409], res.text).toContain(res.status);
        if (res.status === 201) v.acked = (JSON.parse(res.text) as { receipts: { position_id: number; vvpat: string }[] }).receipts;
        else v.acked = undefined;
      }
      await checkConsistency(restarted.port, everyone);
      restarted.proc.kill('SIGTERM');
      expect(await restarted.exited).toBe(0);
    }

    // Close the election (publishes the queue re-mixed with every ballot, records the final
    // commitment), then the independent audit.
    const server = await dep.start();
    const close = await rawRequest(
      { port: server.port },
      {
        method: 'POST',
        path: '/api/v1/election/close',
        headers: { authorization: `Bearer ${adminToken}` },
      },
    );
    expect(close.status, close.text).toBe(200);
    await checkConsistency(server.port, everyone);
    const [queued] = await dep.db.db.execute<{ n: number }>(sql`select count(*)::int as n from ballot_queue`);
    expect(queued!.n).toBe(0);
    server.proc.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const audit = await dep.cli('audit:verify');
    expect(audit.code, audit.output).toBe(0);
    expect(audit.output).toContain('Audit passed.');
  });
});
