import { declareSeats, type ReceiptResponse as ReceiptSchema, type ResultGroup, type Statistics } from '@kura/contract';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { ResultsContext } from './context';
import { commitments } from '../../db/schema';
import { votersByChannel } from '../../db/participation-store';
import { positionRowsOf, positionWithElection } from '../../db/position-store';
import { AppError } from '../../errors';
import { positionTitle } from '../../lib/position-title';
import { electionFileName } from '../../lib/file-name';
import { findBallots, normaliseReceipt } from '../ballots';
import { readState, type ElectionId } from '../../db/election-store';
import { rankedResult } from './final-count';

export async function getResults(ctx: ResultsContext, id: ElectionId): Promise<ResultGroup[]> {
  const tally = ctx.voting.tallyOf(id);
  await tally.whenReady();
  return tally.results();
}

export async function getStatistics(ctx: ResultsContext, id: ElectionId): Promise<Statistics> {
  const tally = ctx.voting.tallyOf(id);
  await tally.whenReady();
  const [statistics, channels] = await Promise.all([tally.statistics(), votersByChannel(ctx.database.db, id)]);
  return { ...statistics, channels };
}

/** Confirms a receipt is counted and for which position, never for whom. */
/**
 * Whether a receipt is in the count, of whichever election (an archived one's too), with its
 * election and position: never the choice (SECURITY.md "Receipts").
 */
export async function lookupReceipt(ctx: ResultsContext, input: string): Promise<z.infer<typeof ReceiptSchema>> {
  const receipt = normaliseReceipt(input);
  const ballot = (await findBallots(ctx, [receipt])).get(receipt)?.[0];
  if (!ballot) throw AppError.say('NOT_FOUND', 'receipt.notFound');
  const position = await positionWithElection(ctx.database.db, ballot.positionId);
  if (!position) throw AppError.say('NOT_FOUND', 'receipt.notFound');
  return {
    vvpat: receipt,
    position: positionTitle(position),
    election_id: position.electionId,
    election: position.election,
    recorded: true,
  };
}

const csvCell = (value: string | number): string => {
  const text = String(value);
  // Quote always; a leading = + - @ is neutralised so a spreadsheet never runs it as a formula.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
};

/**
 * Every position's results as CSV (one row per candidate, by count), with `seats`, `elected` and
 * `tied` as the declaration marks them (provisional until the election closes) and the position's
 * `method`. A motion's rows are its options (elected and tied left empty: the declaration says
 * whether it passed); a ranked position's votes are first preferences, and its elected column is
 * the STV count's once the election closed (empty before).
 */
export async function exportResultsCsv(ctx: ResultsContext, id: ElectionId): Promise<{ filename: string; csv: string }> {
  const groups = await getResults(ctx, id);
  const byId = new Map((await positionRowsOf(ctx.database.db, id)).map((p) => [p.id, p]));
  const { finalCommitmentId, title } = await readState(ctx.database.db, id);
  const [state] =
    finalCommitmentId === null
      ? []
      : await ctx.database.db.select({ hash: commitments.hash }).from(commitments).where(eq(commitments.id, finalCommitmentId));
  const lines = [
    [
      'position_id',
      'position',
      'seats',
      'candidate_id',
      'member_no',
      'candidate',
      'votes',
      'position_total',
      'elected',
      'tied',
      'method',
    ].join(','),
  ];
  for (const g of groups) {
    const p = byId.get(g.position_id);
    const n = p?.seats ?? 1;
    const method = p?.kind === 'motion' ? 'motion' : (p?.method ?? 'plurality');
    let marks: Map<number, { elected: string; tied: string }>;
    if (method === 'motion') marks = new Map();
    else if (method === 'ranked') {
      marks = new Map();
      if (state?.hash) {
        const stv = await rankedResult(ctx.database.db, { id: g.position_id, electionId: id, title: g.title, seats: n }, state.hash);
        for (const v of stv.values) marks.set(v.candidate_id, { elected: v.elected ? 'yes' : 'no', tied: 'no' });
      }
    } else
      marks = new Map(
        declareSeats(g.values, n).map((v) => [v.candidate_id, { elected: v.elected ? 'yes' : 'no', tied: v.tied ? 'yes' : 'no' }]),
      );
    const values = method === 'motion' ? g.values : declareSeats(g.values, n);
    for (const v of values) {
      const mark = marks.get(v.candidate_id) ?? { elected: '', tied: '' };
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
          mark.elected,
          mark.tied,
          method,
        ].join(','),
      );
    }
  }
  return { filename: electionFileName({ id, title }, 'results', 'csv'), csv: `${lines.join('\r\n')}\r\n` };
}
