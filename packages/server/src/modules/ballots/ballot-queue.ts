import { sql } from 'drizzle-orm';
import type { Core } from '../../core';
import type { Db, Tx } from '../../db/client';
import { ballotQueue } from '../../db/schema';
import { textArray } from '../../db/arrays';
import { sealPadded, unseal } from '../../lib/crypto';
import { queueIdOf } from './receipts';

/**
 * A ballot row: what `ballots` holds. A ballot for a position with several seats (or an approval
 * or ranked ballot) is one receipt with a row per chosen candidate. `rank` is the candidate's place
 * in the list as cast (1 = first): a queued ballot keeps its list's order, a mixed one keeps it only
 * for a ranked position (0 otherwise: the mixer drops the order where it means nothing).
 */
export type Ballot = { receipt: string; positionId: number; candidateId: number; rank: number };

/** One position's ballot as cast: its receipt and the 1..seats candidates chosen. */
export type CastBallot = { receipt: string; positionId: number; candidateIds: number[] };

/** A queued row holds one position's ballot sealed: every candidate chosen for it, one receipt. */
type SealedBallot = { receipt: string; position_id: number; candidate_ids: number[] };

/**
 * Every sealed ballot is padded to one block: its length says nothing about the candidate ids (their
 * digit count narrowed the choice) nor how many were chosen. A block holds a receipt and dozens of
 * candidate ids (a position has at most 50 seats: the vote statement refuses more long before).
 */
export const SEALED_BALLOT_BLOCK = 512;

export function sealBallot(key: Buffer, ballot: CastBallot): string {
  const body: SealedBallot = { receipt: ballot.receipt, position_id: ballot.positionId, candidate_ids: ballot.candidateIds };
  return sealPadded(key, body, SEALED_BALLOT_BLOCK);
}

/** The rows of one queued ballot (one per candidate chosen). */
export function openBallot(key: Buffer, sealed: string): Ballot[] {
  const body = JSON.parse(unseal(key, sealed)) as SealedBallot & { candidate_id?: number };
  // A row sealed before several seats existed holds one `candidate_id`.
  const ids = body.candidate_ids ?? (body.candidate_id !== undefined ? [body.candidate_id] : []);
  return ids.map((candidateId, i) => ({ receipt: body.receipt, positionId: body.position_id, candidateId, rank: i + 1 }));
}

/**
 * Opened queue rows by queue id (`ctx.ballotQueue`): a row never changes, so each is decrypted
 * once per process however often the queue is read (receipt checks, vvpat, resyncs, relayed
 * votes). Entries of rows the mixer has moved are dropped on the next complete read.
 */
export class BallotQueueCache {
  private readonly opened = new Map<string, Ballot[]>();

  constructor(private readonly ballotKey: Buffer) {}

  /** Decrypts queue rows (id, sealed), reusing earlier work; prunes the cache when `complete`. */
  open(rows: { id: string; sealed: string }[], complete: boolean): Ballot[] {
    const out: Ballot[] = [];
    const seen = complete ? new Set<string>() : undefined;
    for (const row of rows) {
      let ballot: Ballot[] | undefined = this.opened.get(row.id);
      if (!ballot) {
        ballot = openBallot(this.ballotKey, row.sealed);
        this.opened.set(row.id, ballot);
      }
      seen?.add(row.id);
      out.push(...ballot);
    }
    if (seen) for (const id of this.opened.keys()) if (!seen.has(id)) this.opened.delete(id);
    return out;
  }
}

/** What the ballots module's functions read: the core and the opened-rows cache (`ballotQueue`). */
export type BallotsContext = Core & { ballotQueue: BallotQueueCache };

/** Every queued (not yet mixed) ballot, opened. */
export async function readQueue(ctx: BallotsContext, db: Db | Tx = ctx.database.db): Promise<Ballot[]> {
  const rows = await db.select({ id: ballotQueue.id, sealed: ballotQueue.sealed }).from(ballotQueue);
  return ctx.ballotQueue.open(rows, true);
}

/**
 * The ballots with these receipts, mixed or still queued, by keyed probes: `ballots` by receipt
 * and `ballot_queue` by the id each receipt would have there (`queueIdOf`), both through their
 * primary keys. A made-up code opens nothing; a queued one opens only its own row. One statement
 * reads both tables, so it sees one snapshot: a ballot the mixer moves meanwhile is found on one
 * side or the other, never lost. (A row queued by a version that gave queue rows random ids is
 * found once mixed.)
 */
export async function findBallots(ctx: BallotsContext, receipts: string[]): Promise<Map<string, Ballot[]>> {
  const found = new Map<string, Ballot[]>();
  const add = (b: Ballot) => found.set(b.receipt, [...(found.get(b.receipt) ?? []), b]);
  const wanted = [...new Set(receipts)];
  if (wanted.length === 0) return found;
  const ids = wanted.map((r) => queueIdOf(ctx.secrets.queueIdKey, r));
  const rows = await ctx.database.db.execute<{
    receipt: string | null;
    position_id: number | null;
    candidate_id: number | null;
    rank: number | null;
    id: string | null;
    sealed: string | null;
  }>(sql`
    select receipt, position_id, candidate_id, rank::int as rank, null::text as id, null::text as sealed from ballots
      where receipt = any(${textArray(wanted)}::text[])
    union all
    select null, null, null, null, id, sealed from ballot_queue where id = any(${textArray(ids)}::text[])`);
  const queueRows: { id: string; sealed: string }[] = [];
  for (const row of rows) {
    if (row.receipt !== null)
      add({ receipt: row.receipt, positionId: row.position_id!, candidateId: row.candidate_id!, rank: row.rank ?? 0 });
    else queueRows.push({ id: row.id!, sealed: row.sealed! });
  }
  const asked = new Set(wanted);
  for (const ballot of ctx.ballotQueue.open(queueRows, false)) if (asked.has(ballot.receipt)) add(ballot);
  return found;
}
