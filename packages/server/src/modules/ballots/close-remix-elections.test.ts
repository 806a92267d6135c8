import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { election } from '../../db/schema';
import { apiClient, bodyOf } from '../../../test/client';
import { createCandidate, createPosition, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createElection, createVoter, setVoting, vote, votingRows, type Election } from '../../../test/voting/election';
import { verifyAudit } from '../declaration';
import { recordCommitment } from '../results';
import { inTransaction } from '../../lib/unit-of-work';
import { remixAtClose, remixAtCloseIn } from './mixer';

/**
 * Closing one election publishes its own short queue and nobody else's (SECURITY.md "The close
 * re-mixes everything"): a by-election still open keeps its ballots below MIX_MIN_BATCH sealed in
 * the queue, counted all the same, until its own batch or its own close.
 */
let t: TestApp;
let e: Election;
let admin: string;
let byElection: number;
let by: { id: number };
let byCandidate: { id: number };

beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000', MIX_MIN_BATCH: '20' } });
  admin = await tokenFor(t.ctx, 'admin');
  e = await createElection(t.ctx);
  const [row] = await t.ctx.database.db.insert(election).values({ title: 'By-election' }).returning({ id: election.id });
  byElection = row!.id;
  by = await createPosition(t.ctx, { name: 'Treasurer', electionId: byElection });
  byCandidate = await createCandidate(t.ctx, [by.id], { name: 'By Candidate' });
  await t.ctx.voting.tallyOf(byElection).refreshStructure();
  await setVoting(t.ctx, true);
  const toggled = await apiClient(t.app, admin).elections.toggleElection({ query: { election_id: byElection }, body: { status: true } });
  expect(toggled.status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

describe('the close re-mix of one election among several', () => {
  it("publishes the closing election's queue only; the other election's short queue stays sealed, counted and audited", async () => {
    for (let i = 0; i < 3; i++) {
      const { token } = await createVoter(t.ctx);
      expect((await vote(t.app, token, { [e.chair.id]: e.alice.id })).status).toBe(201);
      const cast = await apiClient(t.app, token).ballots.castVote({
        query: { election_id: byElection },
        body: { candidates: { [by.id]: byCandidate.id } },
      });
      expect(cast.status).toBe(201);
    }
    expect(await votingRows(t.ctx)).toMatchObject({ queue: 6, ballots: 0 });
    const byQueue = async () =>
      (await t.ctx.database.db.execute<{ id: string }>(sql`select id from ballot_queue order by id`)).map((r) => r.id);
    const before = await byQueue();

    // Election 1 closes: its 3 ballots are published; the by-election's 3 stay queued, the same rows.
    await setVoting(t.ctx, false);
    expect(await remixAtClose(t.ctx, 1)).toEqual({ moved: 3 });
    expect(await votingRows(t.ctx)).toMatchObject({ queue: 3, ballots: 3 });
    const published = await t.ctx.database.db.execute<{ position_id: number }>(sql`select position_id from ballots`);
    expect(new Set(published.map((r) => r.position_id))).toEqual(new Set([e.chair.id]));
    const after = await byQueue();
    expect(after.every((id) => before.includes(id))).toBe(true);

    // The by-election still counts its queued ballots, and both audits pass.
    await t.ctx.voting.tallyOf(byElection).idle();
    const results = await apiClient(t.app).elections.getResults({ query: { election_id: byElection } });
    expect(bodyOf(results, 200).data.data.map((g) => [g.position_id, g.total])).toEqual([[by.id, 3]]);
    expect((await verifyAudit(t.ctx, 1)).problems).toEqual([]);
    expect((await verifyAudit(t.ctx, byElection)).problems).toEqual([]);

    // Its own close publishes them.
    expect(await remixAtClose(t.ctx, byElection)).toEqual({ moved: 3 });
    expect(await votingRows(t.ctx)).toMatchObject({ queue: 0, ballots: 6 });
    expect((await verifyAudit(t.ctx, byElection)).problems).toEqual([]);
  });

  /**
   * Runs `read` while a close's re-mix of the by-election's box is held open (truncated and
   * written again, not committed), lets the re-mix commit 300 ms later, and answers what `read`
   * answered. A reader whose snapshot is older than the truncate reads the box as empty.
   */
  async function duringHeldReMix<T>(read: () => Promise<T>): Promise<T> {
    let truncated!: () => void;
    const isTruncated = new Promise<void>((r) => (truncated = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const closing = inTransaction(t.ctx, 'Re-mix held open by the test', async (tx) => {
      await remixAtCloseIn(t.ctx, tx, byElection);
      truncated();
      await released;
    });
    await isTruncated;
    const reading = read();
    // Long enough for the reader to reach the box (and, without the wait, to take its snapshot).
    await new Promise((r) => setTimeout(r, 300));
    release();
    await closing;
    return reading;
  }

  // CI of 2026-12-03 (Postgres): the CSV export right after a close read every count as 0. A
  // resync whose snapshot was older than the re-mix's truncate read the new, empty files.
  // Every REPEATABLE READ reader of the box opens with the wait (lib/box-snapshot.ts; lint allows
  // no other): each is checked here against a re-mix held open.
  describe.runIf(Boolean(process.env.DATABASE_URL))('a reader of the box during a close re-mix waits for it', () => {
    it('a results resync never reads the truncated box as empty', async () => {
      const tally = t.ctx.voting.tallyOf(byElection);
      await tally.resync();
      expect(tally.countOf(by.id, byCandidate.id)).toBe(3);
      await duringHeldReMix(() => tally.resync());
      expect(tally.countOf(by.id, byCandidate.id)).toBe(3);
    });

    it('a commitment digests the 3 ballots, never a commitment of 0', async () => {
      const commitment = await duringHeldReMix(() => recordCommitment(t.ctx, 'test', {}, byElection));
      expect(commitment).toMatchObject({ count: 3 });
    });

    it('the audit finds the 3 ballots of the 3 voters', async () => {
      const report = await duringHeldReMix(() => verifyAudit(t.ctx, byElection));
      expect(report.problems).toEqual([]);
      expect(report.notes).toContain('3 mixed and 0 queued ballot(s)');
    });

    it("the admin's audit trail lists the 3 ballots", async () => {
      const page = await duringHeldReMix(() => apiClient(t.app, admin).vvpat.listVvpat({ query: { election_id: byElection } }));
      expect(bodyOf(page, 200).meta.total).toBe(3);
    });
  });
});
