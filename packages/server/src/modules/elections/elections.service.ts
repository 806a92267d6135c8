import { declareSeats, type ResultGroup, type Statistics } from '@kura/contract';
import { eq, sql } from 'drizzle-orm';
import type { ElectionsContext } from './context';
import { positions } from '../../db/schema';
import { AppError } from '../../errors';
import { positionTitle } from '../../lib/position-title';
import type { Actor } from '../../auth/actor';
import { auditedTransaction } from '../../lib/audited-transaction';
import { findBallots, normaliseReceipt } from '../ballots';
import { ELECTION_LOCK } from '../../db/locks';
import { recordCommitment } from './commitments';
import { readActive, readState, setActive } from './election-store';

export type ElectionState = '1' | '0';

export async function getElectionStatus(ctx: ElectionsContext): Promise<ElectionState> {
  return (await readActive(ctx.database.db)) ? '1' : '0';
}

/**
 * Enables or disables voting. The exclusive election lock waits for votes in flight, so every vote
 * commits wholly before the switch (and is counted) or after it (and sees the new state). Then
 * a commitment to the published set is recorded. The switch publishes nothing: the ballots cast
 * since the last mixing pass stay sealed in the queue (counted in the results all the same) until
 * MIX_MIN_BATCH of their position are queued or the election closes. Flushing them here would
 * publish a pause's few ballots as a batch of their own, linkable to the few voters since the last
 * pass by anyone holding a dump from before and after the pause.
 */
export async function toggleElection(ctx: ElectionsContext, actor: Actor, active: boolean): Promise<ElectionState> {
  const value: ElectionState = active ? '1' : '0';
  await auditedTransaction(ctx, { actor, activity: active ? 'Enabled voting' : 'Disabled voting' }, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ELECTION_LOCK})`);
    // Under the lock, so a close or a scheduled opening in flight is seen.
    const e = await readState(tx);
    if (e.closedAt) throw new AppError('CONFLICT', 'The election is closed; voting cannot be switched on or off');
    if (active && e.opensAt && e.opensAt.getTime() > ctx.now().getTime()) {
      throw new AppError('CONFLICT', `Voting opens by itself at ${e.opensAt.toISOString()}; change the opening time to open earlier`);
    }
    await setActive(tx, active, ctx.now());
  });
  await recordCommitment(ctx, active ? 'voting enabled' : 'voting disabled');
  ctx.events.emit('election.toggled', { active });
  return value;
}

export async function getResults(ctx: ElectionsContext): Promise<ResultGroup[]> {
  const { tally } = ctx.voting;
  await tally.whenReady();
  return tally.results();
}

export async function getStatistics(ctx: ElectionsContext): Promise<Statistics> {
  const { tally } = ctx.voting;
  await tally.whenReady();
  return tally.statistics();
}

/** Confirms a receipt is counted and for which position, never for whom. */
export async function lookupReceipt(ctx: ElectionsContext, input: string): Promise<{ vvpat: string; position: string; recorded: true }> {
  const receipt = normaliseReceipt(input);
  const ballot = (await findBallots(ctx, [receipt])).get(receipt)?.[0];
  if (!ballot) throw new AppError('NOT_FOUND', 'No ballot has this receipt code');
  const [position] = await ctx.database.db
    .select({ name: positions.name, level: positions.level })
    .from(positions)
    .where(eq(positions.id, ballot.positionId));
  return { vvpat: receipt, position: position ? positionTitle(position) : `Position ${ballot.positionId}`, recorded: true };
}

const csvCell = (value: string | number): string => {
  const text = String(value);
  // Quote always; a leading = + - @ is neutralised so a spreadsheet never runs it as a formula.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
};

/**
 * Every position's results as CSV (one row per candidate, by count), with `seats`, `elected` and
 * `tied` as the declaration marks them (provisional until the election closes).
 */
export async function exportResultsCsv(ctx: ElectionsContext): Promise<string> {
  const groups = await getResults(ctx);
  const seats = new Map(
    (await ctx.database.db.select({ id: positions.id, seats: positions.seats }).from(positions)).map((p) => [p.id, p.seats]),
  );
  const lines = [
    ['position_id', 'position', 'seats', 'candidate_id', 'member_no', 'candidate', 'votes', 'position_total', 'elected', 'tied'].join(','),
  ];
  for (const g of groups) {
    const n = seats.get(g.position_id) ?? 1;
    for (const v of declareSeats(g.values, n)) {
      lines.push(
        [
          g.position_id,
          csvCell(g.title),
          n,
          v.candidate_id,
          csvCell(v.member_no),
          csvCell(v.name),
          v.count,
          g.total,
          v.elected ? 'yes' : 'no',
          v.tied ? 'yes' : 'no',
        ].join(','),
      );
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
