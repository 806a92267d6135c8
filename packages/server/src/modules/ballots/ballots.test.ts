import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { activityLogs, participation, positions } from '../../db/schema';
import { unseal } from '../../lib/crypto';
import { apiClient, bodyOf, untyped } from '../../../test/client';
import { createCandidate, createMember, createPosition, tokenFor } from '../../../test/factories';
import { createTestApp, databaseKind, type TestApp } from '../../../test/harness';
import { ELECTION_LOCK } from '../../db/locks';
import { waitFor } from '../../../test/voting/sockets';
import { createElection, createVoter, CURRENT_ELECTION, setVoting, vote, votingRows, type Election } from '../../../test/voting/election';
import { readQueue } from './ballot-queue';
import { newReceipt, normaliseReceipt } from './receipts';

let t: TestApp;
let e: Election;
beforeAll(async () => {
  // The mixer stays out of the way: these tests look at the queue.
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  e = await createElection(t.ctx);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await setVoting(t.ctx, true);
});

describe('psk/candidates/v2', () => {
  it("lists exactly the national positions and the voter's branch, each with candidates", async () => {
    const { token } = await createVoter(t.ctx, 'Nairobi');
    const res = await apiClient(t.app, token).ballots.getBallot();
    expect(res.status).toBe(200);
    const ballot = bodyOf(res, 200).data;
    const ids = ballot.map((g) => g.position_id);
    expect(ids).toEqual([e.chair.id, e.treasurer.id, e.nairobi.id]);
    expect(ballot[0]).toEqual({
      title: `${e.chair.name} National`,
      name: e.chair.name,
      branch: null,
      position_id: e.chair.id,
      seats: 1,
      kind: 'candidates',
      method: 'plurality',
      description: null,
      threshold: null,
      quorum_percent: null,
      candidates: [
        { id: e.alice.id, name: 'Alice Achieng', photo: null, statement: null },
        { id: e.brian.id, name: 'Brian Barasa', photo: null, statement: null },
      ],
    });
    // Seeded positions without candidates (Chairperson, Branch Chairperson…) are left out.
    expect(ballot.every((g) => g.candidates.length > 0)).toBe(true);
  });

  it('gives a Mombasa voter the Mombasa position and not the Nairobi one', async () => {
    const { token } = await createVoter(t.ctx, 'Mombasa');
    const ballot = bodyOf(await apiClient(t.app, token).ballots.getBallot(), 200).data;
    expect(ballot.map((g) => g.position_id)).toEqual([e.chair.id, e.treasurer.id, e.mombasa.id]);
    // The branch position names its branch apart from the name the admin typed (the web words the heading).
    expect(ballot[2]).toMatchObject({ name: e.mombasa.name, branch: 'Mombasa', title: `${e.mombasa.name} Mombasa` });
  });

  it('refuses staff tokens', async () => {
    const res = await apiClient(t.app, await tokenFor(t.ctx, 'admin')).ballots.getBallot();
    expect(res.status).toBe(403);
  });
});

describe('psk/vote', () => {
  it('records a vote and answers one readable receipt per position', async () => {
    const { token, member } = await createVoter(t.ctx);
    const before = await votingRows(t.ctx);
    const res = await vote(t.app, token, { [e.chair.id]: e.alice.id, [e.nairobi.id]: e.erin.id });
    expect(res.status).toBe(201);
    const cast = bodyOf(res, 201);
    expect(cast.message).toBe('Successfully voted');
    expect(cast.receipts).toHaveLength(2);
    for (const r of cast.receipts) expect(r.vvpat).toMatch(/^VP-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(cast.receipts.map((r) => r.position_id).sort()).toEqual([e.chair.id, e.nairobi.id].sort());
    const after = await votingRows(t.ctx);
    expect(after.participation - before.participation).toBe(2);
    expect(after.queue - before.queue).toBe(2);
    expect(after.ballots).toBe(before.ballots);
    // The activity log knows that the member voted, not the choice or the receipt.
    const logs = await t.ctx.database.db
      .select()
      .from(activityLogs)
      .where(sql`${activityLogs.userId} = ${member.id}`);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ activity: 'Voted', status: 'success' });
    const text = JSON.stringify(logs);
    for (const r of cast.receipts) expect(text).not.toContain(r.vvpat);
    expect(text).not.toContain('Alice');
    expect(logs[0]!.data).toBe('2 position(s)');
  });

  it('answers 403 when voting is disabled and records nothing', async () => {
    await setVoting(t.ctx, false);
    const { token } = await createVoter(t.ctx);
    const before = await votingRows(t.ctx);
    const res = await vote(t.app, token, { [e.chair.id]: e.alice.id });
    expect(res.status).toBe(403);
    expect(bodyOf(res, 403).message).toBe('Voting is currently disabled');
    expect(await votingRows(t.ctx)).toEqual(before);
  });

  it("answers 422 for another branch's position and records nothing, not even the valid part", async () => {
    const { token } = await createVoter(t.ctx, 'Nairobi');
    const before = await votingRows(t.ctx);
    const res = await vote(t.app, token, { [e.chair.id]: e.alice.id, [e.mombasa.id]: e.fred.id });
    expect(res.status).toBe(422);
    expect(bodyOf(res, 422).errors?.[`candidates.${e.mombasa.id}`]?.[0]).toMatch(/not eligible/);
    expect(await votingRows(t.ctx)).toEqual(before);
  });

  it('answers 422 and records nothing for a branch position with no branch (a NULL eligibility refuses)', async () => {
    // Positions are data: a branch-level row whose branch was never set must not let a vote through.
    const orphan = await createPosition(t.ctx, { name: `Orphan ${Math.random().toString(36).slice(2, 7)}`, level: 'Nairobi' });
    await t.ctx.database.db.update(positions).set({ branchId: null }).where(eq(positions.id, orphan.id));
    const candidate = await createCandidate(t.ctx, [orphan.id], { branch: 'Nairobi' });
    await t.ctx.voting.tallyOf(1).refreshStructure();
    const { token } = await createVoter(t.ctx, 'Nairobi');
    const before = await votingRows(t.ctx);
    const res = await vote(t.app, token, { [e.chair.id]: e.alice.id, [orphan.id]: candidate.id });
    expect(res.status).toBe(422);
    expect(bodyOf(res, 422).errors?.[`candidates.${orphan.id}`]?.[0]).toMatch(/not eligible/);
    expect(await votingRows(t.ctx)).toEqual(before);
    // And the voter can still vote for what they may vote for.
    expect((await vote(t.app, token, { [e.chair.id]: e.alice.id })).status).toBe(201);
  });

  it('answers 422 for a candidate not standing for the position, or an unknown position', async () => {
    const { token } = await createVoter(t.ctx);
    const before = await votingRows(t.ctx);
    const wrong = await vote(t.app, token, { [e.chair.id]: e.carol.id, [e.treasurer.id]: e.carol.id });
    expect(wrong.status).toBe(422);
    expect(Object.keys(bodyOf(wrong, 422).errors ?? {})).toEqual([`candidates.${e.chair.id}`]);
    const unknown = await vote(t.app, token, { 999999: e.alice.id });
    expect(unknown.status).toBe(422);
    const notACandidate = await vote(t.app, token, { [e.chair.id]: 999999 });
    expect(notACandidate.status).toBe(422);
    expect(await votingRows(t.ctx)).toEqual(before);
  });

  it('answers 422 for malformed bodies without a 500', async () => {
    const { token } = await createVoter(t.ctx);
    for (const body of [
      {},
      { candidates: {} },
      { candidates: [] },
      { candidates: { abc: 1 } },
      { candidates: { 1: 'x' } },
      { candidates: { 1: -1 } },
      { candidates: null },
    ]) {
      const res = await apiClient(t.app, token).ballots.castVote({ body: untyped(body) });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
  });

  it('answers 409 when any position was already voted, recording nothing of the new submission', async () => {
    const { token } = await createVoter(t.ctx);
    expect((await vote(t.app, token, { [e.chair.id]: e.alice.id })).status).toBe(201);
    const before = await votingRows(t.ctx);
    const res = await vote(t.app, token, { [e.treasurer.id]: e.carol.id, [e.chair.id]: e.brian.id });
    expect(res.status).toBe(409);
    expect(bodyOf(res, 409).message).toBe(`You have already voted for ${e.chair.name} National`);
    expect(await votingRows(t.ctx)).toEqual(before);
    // The other position is still open.
    expect((await vote(t.app, token, { [e.treasurer.id]: e.carol.id })).status).toBe(201);
  });

  it('records exactly one ballot per position under 20 concurrent identical submissions, every time', async () => {
    for (let round = 0; round < 8; round++) {
      const { token, member } = await createVoter(t.ctx);
      const before = await votingRows(t.ctx);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => vote(t.app, token, { [e.chair.id]: e.alice.id, [e.treasurer.id]: e.dan.id })),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(19);
      const after = await votingRows(t.ctx);
      expect(after.participation - before.participation).toBe(2);
      expect(after.queue - before.queue).toBe(2);
      const mine = await t.ctx.database.db
        .select()
        .from(participation)
        .where(sql`${participation.memberId} = ${member.id}`);
      expect(mine).toHaveLength(2);
    }
  });

  it('keeps overlapping concurrent submissions all-or-nothing', async () => {
    for (let round = 0; round < 4; round++) {
      const { token } = await createVoter(t.ctx);
      const before = await votingRows(t.ctx);
      const answers = await Promise.all([
        vote(t.app, token, { [e.chair.id]: e.alice.id, [e.treasurer.id]: e.carol.id }),
        vote(t.app, token, { [e.treasurer.id]: e.dan.id, [e.nairobi.id]: e.erin.id }),
        vote(t.app, token, { [e.nairobi.id]: e.erin.id }),
      ]);
      const ok = answers.filter((a) => a.status === 201);
      const positionsVoted = ok.flatMap((a) => a.body.receipts.map((r: { position_id: number }) => r.position_id));
      expect(new Set(positionsVoted).size).toBe(positionsVoted.length);
      const after = await votingRows(t.ctx);
      expect(after.participation - before.participation).toBe(positionsVoted.length);
      expect(after.queue - before.queue).toBe(positionsVoted.length);
    }
  });

  it('rolls the whole vote back when a write fails late, and the connection serves the next vote', async () => {
    // A failure after the checks passed, while cast_vote writes the rows.
    await t.ctx.database.db.execute(sql`
      create or replace function refuse_boom() returns trigger language plpgsql as $$
      begin if new.name = 'Boom Voter' then raise exception 'boom'; end if; return new; end $$`);
    await t.ctx.database.db.execute(
      sql`create trigger refuse_boom before insert on activity_logs for each row execute function refuse_boom()`,
    );
    try {
      const boom = await createMember(t.ctx, { branch: 'Nairobi', name: 'Boom Voter' });
      const before = await votingRows(t.ctx);
      // A vote refused by the checks must leave no transaction open either.
      expect((await vote(t.app, (await createVoter(t.ctx, 'Mombasa')).token, { [e.nairobi.id]: e.erin.id })).status).toBe(422);
      const failed = await vote(t.app, await tokenFor(t.ctx, 'voter', boom.id), { [e.chair.id]: e.alice.id, [e.treasurer.id]: e.carol.id });
      expect(failed.status).toBe(500);
      expect(failed.body).toEqual({ message: expect.any(String) });
      expect(await votingRows(t.ctx)).toEqual(before);
      // Every pooled connection is out of a transaction: a run of votes all land and are counted.
      const voters = await Promise.all(Array.from({ length: 12 }, () => createVoter(t.ctx)));
      const answers = await Promise.all(voters.map((v) => vote(t.app, v.token, { [e.chair.id]: e.brian.id })));
      expect(answers.map((a) => a.status)).toEqual(voters.map(() => 201));
      const after = await votingRows(t.ctx);
      expect(after.participation - before.participation).toBe(12);
      expect(after.queue + after.ballots - before.queue - before.ballots).toBe(12);
      const [open] = await t.ctx.database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
      );
      expect(open!.n).toBe(0);
    } finally {
      await t.ctx.database.db.execute(sql`drop trigger refuse_boom on activity_logs`);
    }
  });

  // Needs a second connection that holds the lock while the vote waits (PGlite serves one).
  it.skipIf(databaseKind !== 'postgres')(
    'checks with what committed while the vote waited for the election lock: a switch-off wins',
    async () => {
      const { token } = await createVoter(t.ctx, 'Nairobi');
      const before = await votingRows(t.ctx);
      const switchOff = await t.ctx.database.sql.reserve();
      try {
        // A toggle's transaction: the exclusive election lock, then the new state, not yet committed.
        await switchOff`begin`;
        await switchOff`select pg_advisory_xact_lock(${ELECTION_LOCK})`;
        await switchOff`update election set voting_active = false where id = ${CURRENT_ELECTION}`;
        // supertest sends on then(): start it now.
        const pending = vote(t.app, token, { [e.chair.id]: e.alice.id }).then((r) => r);
        // The vote is now waiting on the shared lock; its check must not use a snapshot from before.
        await waitForLockWaiters(t, 1);
        await switchOff`commit`;
        const res = await pending;
        expect(res.status).toBe(403);
        expect(bodyOf(res, 403).message).toBe('Voting is currently disabled');
        expect(await votingRows(t.ctx)).toEqual(before);
      } finally {
        await switchOff`rollback`.catch(() => undefined);
        switchOff.release();
      }
    },
  );

  it('refuses staff and anonymous callers', async () => {
    expect((await apiClient(t.app).ballots.castVote({ body: { candidates: { [e.chair.id]: e.alice.id } } })).status).toBe(401);
    const admin = await tokenFor(t.ctx, 'admin');
    expect((await vote(t.app, admin, { [e.chair.id]: e.alice.id })).status).toBe(403);
  });
});

describe('receipts', () => {
  it('are sealed in participation and the queue: readable only with BALLOT_KEY', async () => {
    const member = await createMember(t.ctx);
    const token = await tokenFor(t.ctx, 'voter', member.id);
    const res = await vote(t.app, token, { [e.chair.id]: e.brian.id });
    const receipt = bodyOf(res, 201).receipts[0]!.vvpat;
    const [row] = await t.ctx.database.db
      .select()
      .from(participation)
      .where(sql`${participation.memberId} = ${member.id}`);
    expect(row!.receiptEnc).not.toContain(receipt);
    expect(unseal(t.ctx.secrets.ballotKey, row!.receiptEnc)).toBe(receipt);
    expect(() => unseal(randomBytes(32), row!.receiptEnc)).toThrow();
    const dump = JSON.stringify(await t.ctx.database.db.execute(sql`select * from ballot_queue`));
    expect(dump).not.toContain(receipt);
    const queued = await readQueue(t.ctx);
    expect(queued.find((b) => b.receipt === receipt)).toEqual({ receipt, positionId: e.chair.id, candidateId: e.brian.id, rank: 1 });
  });

  it('are random and normalise from what a person types', () => {
    const many = new Set(Array.from({ length: 10_000 }, newReceipt));
    expect(many.size).toBe(10_000);
    expect(normaliseReceipt(' vp-7k3q-m9xd-2fOa ')).toBe('VP-7K3Q-M9XD-2F0A');
    expect(normaliseReceipt('VP7K3QM9XD2FLA')).toBe('VP-7K3Q-M9XD-2F1A');
    expect(normaliseReceipt('7k3q')).toBe('7K3Q');
  });
});

/** Waits until `n` sessions of this database wait on an advisory lock. */
function waitForLockWaiters(app: TestApp, n: number) {
  return waitFor(
    async () => {
      const [row] = await app.ctx.database.sql<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'`;
      return row!.n >= n;
    },
    5000,
    `${n} session(s) waiting on an advisory lock`,
  );
}
