import type { BallotGroup } from '@kura/contract';
import { asc, eq, or } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { candidacies, members, positions } from '../../db/schema';
import { AppError } from '../../errors';
import { activityRow, recordActivity } from '../../lib/activity-log';
import { intArray, textArray } from '../../db/arrays';
import { settleAll } from '../../db/client';
import { uniqueViolation } from '../../lib/actor';
import { seal } from '../../lib/crypto';
import { sealBallot, type Ballot } from './ballot-queue';
import { ELECTION_LOCK, MEMBER_LOCK_NAMESPACE } from './locks';
import { newQueueId, newReceipt } from './receipts';

export const positionTitle = (p: { name: string; level: string }): string => `${p.name} ${p.level}`;

/** The ballot: every position the member may vote for (national + their branch) that has candidates. */
export async function getBallot(ctx: AppContext, memberId: number): Promise<BallotGroup[]> {
  const [me] = await ctx.database.db.select({ branchId: members.branchId }).from(members).where(eq(members.id, memberId)).limit(1);
  if (!me) throw new AppError('UNAUTHENTICATED');
  const rows = await ctx.database.db
    .select({
      positionId: positions.id,
      name: positions.name,
      level: positions.level,
      candidateId: members.id,
      candidateName: members.name,
      photo: members.photoUrl,
    })
    .from(positions)
    .innerJoin(candidacies, eq(candidacies.positionId, positions.id))
    .innerJoin(members, eq(members.id, candidacies.memberId))
    .where(or(eq(positions.level, 'National'), eq(positions.branchId, me.branchId)))
    .orderBy(asc(positions.sortOrder), asc(positions.id), asc(members.name), asc(members.id));
  const groups = new Map<number, BallotGroup>();
  for (const r of rows) {
    let group = groups.get(r.positionId);
    if (!group) groups.set(r.positionId, (group = { title: positionTitle(r), position_id: r.positionId, candidates: [] }));
    group.candidates.push({ id: r.candidateId, name: r.candidateName, photo: r.photo });
  }
  return [...groups.values()];
}

export type VoteReceipt = { position_id: number; vvpat: string };
export type Voter = { memberId: number; ip: string };

type CheckRow = {
  position_id: number;
  candidate_id: number;
  position_name: string | null;
  level: string | null;
  eligible: boolean;
  standing: boolean;
  voted: boolean;
  active: string | null;
  voter_name: string;
  voted_before: boolean;
};

/**
 * Casts a vote: one transaction, all-or-nothing. Voting must be on (403), every position eligible
 * and every candidate standing for it (422), and no position already voted (409). The choices go
 * to `ballot_queue` sealed; `participation` records only that the member voted for the position,
 * with the receipt sealed. The activity log says that the member voted, never for whom.
 */
export async function castVote(ctx: AppContext, voter: Voter, choices: Record<string, number>): Promise<VoteReceipt[]> {
  const entries = Object.entries(choices).map(([position, candidate]) => ({ positionId: Number(position), candidateId: candidate }));
  const key = ctx.secrets.ballotKey;
  const cast: Ballot[] = entries.map((e) => ({ ...e, receipt: newReceipt() }));
  // Arrays, not a VALUES list: the statements keep one text for any ballot, so they stay prepared.
  const positionIds = intArray(entries.map((e) => e.positionId));
  const candidateIds = intArray(entries.map((e) => e.candidateId));
  // Sealed before the transaction: nothing but SQL runs while it holds its locks.
  const participationRows = cast.map((b) => ({ positionId: b.positionId, receiptEnc: seal(key, b.receipt) }));
  const queueRows = cast.map((b) => ({ id: newQueueId(), sealed: sealBallot(key, b) }));

  let voterName = '';
  let result: { xid: string; newVoter: boolean };
  try {
    // The statements go straight to the driver (prepared, nothing built per call; ADR 003) in a
    // postgres.js transaction. Not a reserved connection with BEGIN/COMMIT pipelined by hand:
    // postgres.js 3.4 puts a reserved connection that died back into its pool on release, and a
    // statement sent after the death lands on whatever that connection serves next (the
    // terminated-connections fault test hung on it).
    result = await ctx.database.sql.begin(async (conn) => {
      // Shared election lock: a toggle (exclusive) waits for votes in flight and later votes see its
      // outcome. Member lock: one member's concurrent submissions run one after the other, so the
      // checks below see the earlier one; the participation key still guards if they did not.
      // The two statements are pipelined; the check still runs (and takes its snapshot) after the locks.
      const [, rows] = await settleAll([
        conn`select pg_advisory_xact_lock_shared(${ELECTION_LOCK}), pg_advisory_xact_lock(${MEMBER_LOCK_NAMESPACE}, ${voter.memberId})`,
        conn<CheckRow[]>`
        with req(position_id, candidate_id) as (select * from unnest(${positionIds}::int[], ${candidateIds}::int[])),
             me as (select m.id, m.name, m.branch_id from members m where m.id = ${voter.memberId})
        select req.position_id, req.candidate_id, p.name as position_name, p.level,
               (p.id is not null and (p.level = 'National' or p.branch_id = me.branch_id)) as eligible,
               exists (select 1 from candidacies c where c.position_id = req.position_id and c.member_id = req.candidate_id) as standing,
               exists (select 1 from participation pa where pa.member_id = me.id and pa.position_id = req.position_id) as voted,
               (select value from settings where key = 'election_active') as active,
               me.name as voter_name,
               exists (select 1 from participation pa where pa.member_id = me.id) as voted_before
        from req cross join me left join positions p on p.id = req.position_id`,
      ] as const);
      if (rows.length === 0) throw new AppError('UNAUTHENTICATED');
      voterName = rows[0]!.voter_name;
      if (rows[0]!.active !== '1') throw new AppError('FORBIDDEN', 'Voting is currently disabled');

      const invalid: Record<string, string[]> = {};
      for (const r of rows) {
        const field = `candidates.${r.position_id}`;
        if (r.position_name === null) invalid[field] = ['The selected position does not exist'];
        else if (!r.eligible) invalid[field] = [`You are not eligible to vote for ${r.position_name} ${r.level}`];
        else if (!r.standing) invalid[field] = [`The selected candidate is not standing for ${r.position_name} ${r.level}`];
      }
      if (Object.keys(invalid).length > 0) throw AppError.validation(invalid);

      const already = rows.filter((r) => r.voted).map((r) => `${r.position_name} ${r.level}`);
      if (already.length > 0) throw new AppError('CONFLICT', `You have already voted for ${already.join(', ')}`);

      // One statement writes the three rows (a unique violation on participation fails it whole).
      const log = activityRow(ctx, { name: voterName, activity: 'Voted', userId: voter.memberId, data: `${cast.length} position(s)`, ip: voter.ip, status: 'success' });
      const [inserted] = await conn<{ xid: string }[]>`
        with voted as (
          insert into participation (member_id, position_id, receipt_enc)
          select ${voter.memberId}::int, position_id, receipt_enc
          from unnest(${intArray(participationRows.map((r) => r.positionId))}::int[], ${textArray(participationRows.map((r) => r.receiptEnc))}::text[]) as t(position_id, receipt_enc)
        ), queued as (
          insert into ballot_queue (id, sealed)
          select * from unnest(${textArray(queueRows.map((r) => r.id))}::text[], ${textArray(queueRows.map((r) => r.sealed))}::text[])
        ), logged as (
          insert into activity_logs (name, activity, user_id, data, ip_address, status, created_at, updated_at)
          values (${log.name}, ${log.activity}, ${log.userId}::int, ${log.data}, ${log.ipAddress}, ${log.status}, ${log.createdAt.toISOString()}::timestamptz, ${log.updatedAt.toISOString()}::timestamptz)
        )
        select pg_current_xact_id()::text as xid`;
      return { xid: inserted!.xid, newVoter: !rows[0]!.voted_before };
    });
  } catch (error) {
    // Two submissions the member lock did not serialise (it always should): the key decides.
    const failure = uniqueViolation(error) !== undefined ? new AppError('CONFLICT', 'You have already voted for one of these positions') : error;
    if (failure instanceof AppError && failure.status < 500 && voterName) {
      await recordActivity(ctx, { name: voterName, activity: 'Voted', userId: voter.memberId, data: failure.message, ip: voter.ip, status: failure.status === 403 ? 'denied' : 'failed' }).catch(
        (err: unknown) => ctx.logger.warn({ err }, 'could not record a refused vote'),
      );
    }
    throw failure;
  }

  ctx.events.emit('votes.cast', {
    positionIds: entries.map((e) => e.positionId),
    entries,
    newVoter: result.newVoter,
    xid: result.xid,
  });
  return cast.map((b) => ({ position_id: b.positionId, vvpat: b.receipt }));
}
