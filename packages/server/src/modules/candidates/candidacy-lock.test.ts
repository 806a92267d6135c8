import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidacies, election, members, participation } from '../../db/schema';
import { MEMBER_LOCK_NAMESPACE } from '../../db/locks';
import { apiClient, bodyOf, multipart } from '../../../test/client';
import { createCandidate, createMember, createPosition, tokenFor } from '../../../test/factories';
import { createTestApp, databaseKind, type TestApp } from '../../../test/harness';
import { createVoter, setVoting, vote } from '../../../test/voting/election';
import { waitFor } from '../../../test/voting/sockets';
import { lockWaiters, whileClosing } from '../../../test/two-sessions';

/**
 * Adding or removing a candidate takes the election lock a vote takes (exclusively, as a position
 * edit does): a first vote for the position in flight finishes before the change looks for votes,
 * so the change is refused (409) instead of altering a list a voter already chose from.
 */

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  admin = await tokenFor(t.ctx, 'admin');
  await setVoting(t.ctx, true);
});
afterAll(async () => {
  await t?.close();
});

/** A fresh position with two candidates, nobody has voted for it yet. */
async function freshPosition() {
  const position = await createPosition(t.ctx, { name: `Race ${Math.random().toString(36).slice(2, 7)}` });
  const a = await createCandidate(t.ctx, [position.id], { branch: 'Nairobi' });
  const b = await createCandidate(t.ctx, [position.id], { branch: 'Nairobi' });
  await t.ctx.voting.tallyOf(1).refreshStructure();
  return { position, a, b };
}

const assign = (memberNo: string, positionIds: number[], electionId?: number) =>
  apiClient(t.app, admin).members.assignPositions({
    query: electionId === undefined ? {} : { election_id: electionId },
    body: { member_no: memberNo, position_ids: positionIds },
  });

const standing = async (positionId: number) =>
  (await t.ctx.database.db.select({ id: candidacies.memberId }).from(candidacies).where(eq(candidacies.positionId, positionId)))
    .map((r) => r.id)
    .sort((x, y) => x - y);

const votesFor = async (positionId: number) =>
  (
    await t.ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(participation)
      .where(eq(participation.positionId, positionId))
  )[0]!.n;

type Change = { label: string; run: (p: Awaited<ReturnType<typeof freshPosition>>) => Promise<{ memberNo: string; ids: number[] }> };
const CHANGES: Change[] = [
  { label: 'adding a candidate', run: async ({ position }) => ({ memberNo: (await createMember(t.ctx)).memberNo, ids: [position.id] }) },
  { label: 'removing a candidate', run: async ({ b }) => ({ memberNo: b.memberNo, ids: [] }) },
];

describe('a candidacy change against the first vote for its position', () => {
  // Needs a second connection that holds the voter's lock while the vote is in flight (PGlite serves one).
  for (const change of CHANGES) {
    it.skipIf(databaseKind !== 'postgres')(`${change.label} waits for a vote in flight, then is refused`, async () => {
      const p = await freshPosition();
      const before = await standing(p.position.id);
      const { member, token } = await createVoter(t.ctx);
      const { memberNo, ids } = await change.run(p);
      const hold = await t.ctx.database.sql.reserve();
      try {
        // The vote takes the shared election lock, then waits here for its member lock.
        await hold`begin`;
        await hold`select pg_advisory_xact_lock(${MEMBER_LOCK_NAMESPACE}::int, ${member.id}::int)`;
        const voting = vote(t.app, token, { [p.position.id]: p.a.id }).then((r) => r);
        await waitFor(async () => (await lockWaiters(t.ctx.database.sql)) >= 1, 5000, 'the vote waiting for its member lock');
        // The change starts while the vote is in flight: it must wait for it (or it answers at once).
        const changing = assign(memberNo, ids).then((r) => r);
        const first = await Promise.race([
          changing.then(() => 'answered' as const),
          waitFor(async () => (await lockWaiters(t.ctx.database.sql)) >= 2, 5000, 'the change waiting for the election lock').then(
            () => 'waiting' as const,
          ),
        ]);
        expect(first, 'the candidacy change went ahead while the first vote for the position was in flight').toBe('waiting');
        await hold`commit`;
        expect((await voting).status).toBe(201);
        const res = await changing;
        expect(res.status, JSON.stringify(res.body)).toBe(409);
        expect(bodyOf(res, 409).message).toBe('Votes have already been cast for this position, so its candidates can no longer be changed');
        expect(await standing(p.position.id)).toEqual(before);
      } finally {
        await hold`rollback`.catch(() => undefined);
        hold.release();
      }
    });
  }

  it.skipIf(databaseKind !== 'postgres')(
    'a candidate who votes while their own positions change: no deadlock, one clear outcome',
    async () => {
      const p = await freshPosition();
      const other = await createPosition(t.ctx, { name: `Race other ${Math.random().toString(36).slice(2, 7)}` });
      await createCandidate(t.ctx, [other.id], { branch: 'Nairobi' });
      await t.ctx.voting.tallyOf(1).refreshStructure();
      const token = await tokenFor(t.ctx, 'voter', p.a.id);
      const hold = await t.ctx.database.sql.reserve();
      try {
        await hold`begin`;
        await hold`select pg_advisory_xact_lock(${MEMBER_LOCK_NAMESPACE}::int, ${p.a.id}::int)`;
        const voting = vote(t.app, token, { [p.position.id]: p.b.id }).then((r) => r);
        await waitFor(async () => (await lockWaiters(t.ctx.database.sql)) >= 1, 5000, 'the vote waiting for its member lock');
        // The candidate also stands for another position now: their own row is what both touch.
        const changing = assign(p.a.memberNo, [p.position.id, other.id]).then((r) => r);
        await waitFor(async () => (await lockWaiters(t.ctx.database.sql)) >= 2, 5000, 'the change waiting');
        await hold`commit`;
        const [v, c] = await Promise.all([voting, changing]);
        expect(v.status, JSON.stringify(v.body)).toBe(201);
        // The other position has no votes: adding it goes through once the vote committed.
        expect(c.status, JSON.stringify(c.body)).toBe(200);
      } finally {
        await hold`rollback`.catch(() => undefined);
        hold.release();
      }
    },
  );

  it('racing a change and the first vote for the position, either order is whole (both databases)', async () => {
    for (const change of CHANGES) {
      for (let round = 0; round < 3; round++) {
        const p = await freshPosition();
        const before = await standing(p.position.id);
        const { token } = await createVoter(t.ctx);
        const { memberNo, ids } = await change.run(p);
        const [v, c] = await Promise.all([vote(t.app, token, { [p.position.id]: p.a.id }), assign(memberNo, ids)]);
        const label = `${change.label}, round ${round}: vote ${v.status}, change ${c.status} ${JSON.stringify(c.body)}`;
        expect(v.status, label).toBe(201);
        expect([200, 409], label).toContain(c.status);
        expect(await votesFor(p.position.id), label).toBe(1);
        if (c.status === 409) expect(await standing(p.position.id), label).toEqual(before);
        else expect(await standing(p.position.id), label).not.toEqual(before);
      }
    }
  });
});

describe.skipIf(databaseKind !== 'postgres')('a candidacy change judges the election as its lock finds it (two sessions)', () => {
  const CLOSED = 'The election is closed; its candidates can no longer change';
  /** An election of its own (closing election 1 would end the other tests' voting), with a position and a candidate. */
  async function closingElection(title: string) {
    const [e] = await t.ctx.database.db.insert(election).values({ title }).returning({ id: election.id });
    const position = await createPosition(t.ctx, { name: 'Chair', electionId: e!.id });
    const candidate = await createCandidate(t.ctx, [position.id], { branch: 'Nairobi' });
    return { id: e!.id, position, candidate };
  }

  it('an assignment that waited while the election closed is refused, and its candidates stay as they closed', async () => {
    const e = await closingElection('Closing during an assignment');
    const newcomer = await createMember(t.ctx);
    const res = await whileClosing(t.ctx.database.sql, e.id, () => assign(newcomer.memberNo, [e.position.id], e.id));
    expect(res.status).toBe(409);
    expect(bodyOf(res, 409).message).toBe(CLOSED);
    expect(await standing(e.position.id)).toEqual([e.candidate.id]);
  });

  it('a candidate edit (withdrawing them, a new statement) that waited while the election closed is refused, and the candidate stays as they closed', async () => {
    const e = await closingElection('Closing during a candidate edit');
    const res = await whileClosing(t.ctx.database.sql, e.id, () =>
      apiClient(t.app, admin).candidates.updateCandidate({
        params: { id: e.candidate.id },
        query: { election_id: e.id },
        body: multipart({
          name: e.candidate.name,
          phone: e.candidate.phone,
          email: e.candidate.email,
          county: 'Nairobi',
          statement: 'Written late',
        }),
      }),
    );
    expect(res.status).toBe(409);
    expect(bodyOf(res, 409).message).toBe(CLOSED);
    expect(await standing(e.position.id)).toEqual([e.candidate.id]);
    const [row] = await t.ctx.database.db.select({ statement: members.statement }).from(members).where(eq(members.id, e.candidate.id));
    expect(row!.statement).toBeNull();
  });
});
