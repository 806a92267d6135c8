import { eq, sql } from 'drizzle-orm';
import type { Express } from 'express';
import type { VoteBody } from '@kura/contract';
import type { AppContext } from '../../src/context';
import { positions } from '../../src/db/schema';
import { CURRENT_ELECTION, setActive } from '../../src/modules/elections';

/** The election the voting-core tests run (the store's current one). */
export { CURRENT_ELECTION };
import { apiClient } from '../client';
import { createCandidate, createMember, createPosition, tokenFor } from '../factories';

/**
 * A small election for the voting-core tests: two national positions and one Nairobi position,
 * each with candidates, plus a Mombasa position (with a candidate) a Nairobi voter may not vote for.
 */
export async function createElection(ctx: AppContext) {
  const chair = await createPosition(ctx, { name: `Chair ${Math.random().toString(36).slice(2, 7)}` });
  const treasurer = await createPosition(ctx, { name: `Treasurer ${Math.random().toString(36).slice(2, 7)}` });
  const nairobi = await createPosition(ctx, { name: `Branch Rep ${Math.random().toString(36).slice(2, 7)}`, level: 'Nairobi' });
  const mombasa = await createPosition(ctx, { name: `Branch Rep ${Math.random().toString(36).slice(2, 7)}`, level: 'Mombasa' });
  // Stable order: chair, treasurer, then the branch positions.
  await ctx.database.db.update(positions).set({ sortOrder: -30 }).where(eq(positions.id, chair.id));
  await ctx.database.db.update(positions).set({ sortOrder: -20 }).where(eq(positions.id, treasurer.id));
  await ctx.database.db.update(positions).set({ sortOrder: -10 }).where(eq(positions.id, nairobi.id));
  await ctx.database.db.update(positions).set({ sortOrder: -5 }).where(eq(positions.id, mombasa.id));
  const alice = await createCandidate(ctx, [chair.id], { name: 'Alice Achieng' });
  const brian = await createCandidate(ctx, [chair.id], { name: 'Brian Barasa' });
  const carol = await createCandidate(ctx, [treasurer.id], { name: 'Carol Chebet' });
  const dan = await createCandidate(ctx, [treasurer.id], { name: 'DanDing' });
  const erin = await createCandidate(ctx, [nairobi.id], { name: 'Erin Njeri', branch: 'Nairobi' });
  const fred = await createCandidate(ctx, [mombasa.id], { name: 'Fred Fundi', branch: 'Mombasa' });
  // Factories write rows directly; the real modules raise `candidates.changed`, and this waits for its effect.
  await ctx.voting.tallyOf(1).refreshStructure();
  return { chair, treasurer, nairobi, mombasa, alice, brian, carol, dan, erin, fred };
}

export type Election = Awaited<ReturnType<typeof createElection>>;

/** Switches voting on or off through the election store (no lock, commitment or event: a test's set-up). */
export async function setVoting(ctx: AppContext, active: boolean) {
  await ctx.database.db.transaction((tx) => setActive(tx, active, ctx.now(), 1));
}

/** A Nairobi voter with a session. */
export async function createVoter(ctx: AppContext, branch = 'Nairobi') {
  const member = await createMember(ctx, { branch });
  const token = await tokenFor(ctx, 'voter', member.id);
  return { member, token };
}

/** The voter's ballot (position id to candidate id, or ids) cast through the contract client. */
export function vote(app: Express, token: string, candidates: VoteBody['candidates']) {
  return apiClient(app, token).ballots.castVote({ body: { candidates } });
}

/** Row counts of the three voting tables. */
export async function votingRows(ctx: AppContext) {
  const [row] = await ctx.database.db.execute<{ participation: number; queue: number; ballots: number }>(sql`
    select (select count(*) from participation)::int as participation,
           (select count(*) from ballot_queue)::int as queue,
           (select count(*) from ballots)::int as ballots`);
  return row!;
}
