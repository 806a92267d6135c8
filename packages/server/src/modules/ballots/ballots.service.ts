import type { BallotGroup } from '@kura/contract';
import { sql } from 'drizzle-orm';
import type { Core } from '../../core';
import { ballotCandidateRows } from '../../db/candidacy-store';
import { memberBranchId } from '../../db/member-store';
import { ballotOptionRows } from '../../db/position-store';
import { CastVoteOutcome } from '../../db/schema/functions';
import { AppError, refusalOf } from '../../errors';
import type { Said } from '../../i18n';
import { rollRows, votedElectionIdSql, type ElectionId } from '../../db/election-store';
import { recordActivity } from '../../lib/activity-log';
import { intArray, textArray } from '../../db/arrays';
import { uniqueViolation } from '../../db/errors';
import { positionTitle, storedTranslations, titleTranslations } from '../../lib/position-title';
import { sealBallot, type CastBallot } from './ballot-queue';
import { ELECTION_LOCK, ELECTION_LOCK_NAMESPACE, MEMBER_LOCK_NAMESPACE } from '../../db/locks';
import { newReceipt, queueIdOf } from './receipts';
import { liveSessionWith, plausibleToken, type PendingSession, type Role } from '../../auth/sessions';
import { seal, sha256 } from '../../lib/crypto';

/**
 * The ballot: every position the member may vote for (national + their branch) that has candidates,
 * and every such motion with its options Yes, No and Abstain; in the admin's order.
 */
export async function getBallot(ctx: Core, memberId: number, electionId: ElectionId): Promise<BallotGroup[]> {
  const branchId = await memberBranchId(ctx.database.db, memberId);
  if (branchId === undefined) throw new AppError('UNAUTHENTICATED');
  // Off the election's roll (frozen at its first opening, or its electorate before): an empty ballot.
  const [roll] = await ctx.database.db.execute<{ on_roll: boolean }>(sql`
    select exists (select 1 from (${rollRows(electionId, ctx.now())}) roll(member_id, branch_id) where roll.member_id = ${memberId}) as on_roll`);
  if (!roll?.on_roll) return [];
  const candidateRows = await ballotCandidateRows(ctx.database.db, electionId, branchId);
  const optionRows = await ballotOptionRows(ctx.database.db, electionId, branchId);
  const groups = new Map<number, BallotGroup & { sortOrder: number; rotate: boolean }>();
  for (const r of [...candidateRows, ...optionRows]) {
    let group = groups.get(r.positionId);
    if (!group) {
      groups.set(
        r.positionId,
        (group = {
          title: positionTitle(r),
          name: r.name,
          branch: r.level === 'National' ? null : r.level,
          position_id: r.positionId,
          seats: r.seats,
          kind: r.kind,
          method: r.kind === 'candidates' ? r.method : null,
          description: r.description,
          threshold: r.kind === 'motion' ? r.threshold : null,
          quorum_percent: r.kind === 'motion' ? r.quorumPercent : null,
          candidates: [],
          sortOrder: r.sortOrder,
          rotate: r.kind === 'candidates' && r.method === 'ranked' && r.rotateCandidates,
        }),
      );
      // docs/i18n.md "Ballot content": every language's text goes with the group; the web shows the reader's.
      const translated = titleTranslations(r, { description: true, name: true });
      if (translated) group.translations = translated;
    }
    const statementTranslations = storedTranslations(r.statementTranslations);
    group.candidates.push({
      id: r.candidateId,
      name: r.candidateName,
      photo: r.photo,
      statement: r.statement,
      ...(statementTranslations ? { translations: statementTranslations } : {}),
    });
  }
  return [...groups.values()]
    .sort((a, b) => a.sortOrder - b.sortOrder || a.position_id - b.position_id)
    .map(({ sortOrder: _sortOrder, rotate, ...group }) =>
      rotate ? { ...group, candidates: rotatedFor(memberId, group.position_id, group.candidates) } : group,
    );
}

/**
 * A rotating ranked position's candidates in this voter's own order (docs/api.md "Rotating the
 * candidates' order"): sorted by sha256 of the member, the position and the candidate, so each
 * voter gets a shuffle of their own, the same on every load (the web keeps a draft across reloads),
 * and anyone can recompute it. Only the listing changes: the vote names candidates by id.
 */
export function rotatedFor<C extends { id: number }>(memberId: number, positionId: number, candidates: C[]): C[] {
  const keyed = candidates.map((c) => ({ c, key: sha256(`kura-rotate:v1:${memberId}:${positionId}:${c.id}`) }));
  return keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.c.id - b.c.id)).map((k) => k.c);
}

const VOTED = 'Voted';
/** The activity log's words for a vote by each channel (never the choice). */
const VOTED_BY: Record<VoteChannel, string> = { web: VOTED, ussd: 'Voted by USSD' };
/** How a vote came in: the web app (and the API) or the USSD gateway (modules/ussd). */
export type VoteChannel = 'web' | 'ussd';

export type VoteReceipt = { position_id: number; vvpat: string };
/**
 * Who casts: a member by id (the seed, tests), or the bearer token the access middleware passed on
 * unchecked (the vote route), whose session the vote's one statement looks up.
 */
export type Voter = { ip: string; channel?: VoteChannel } & ({ memberId: number } | { session: PendingSession });

/**
 * Casts a vote: one transaction, all-or-nothing. The caller must hold a live voter session (401 for
 * none, 403 for staff) when they come by token, checked in the same statement. Voting must be on (403), every position eligible
 * and every candidate standing for it (422), and no position already voted (409). The choices go
 * to `ballot_queue` sealed; `participation` records only that the member voted for the position,
 * with the receipt sealed. The activity log says that the member voted, never for whom.
 */
export async function castVote(
  ctx: Core,
  voter: Voter,
  choices: Record<string, number | number[]>,
  requested: ElectionId | null = null,
): Promise<VoteReceipt[]> {
  // One ballot (one receipt) per position; a position with several seats takes a list.
  const cast: CastBallot[] = Object.entries(choices).map(([position, chosen]) => ({
    positionId: Number(position),
    candidateIds: Array.isArray(chosen) ? chosen : [chosen],
    receipt: newReceipt(),
  }));
  const entries = cast.flatMap((b) => b.candidateIds.map((candidateId) => ({ positionId: b.positionId, candidateId })));
  const key = ctx.secrets.ballotKey;
  const activity = VOTED_BY[voter.channel ?? 'web'];
  // Arrays, not a VALUES list: the statements keep one text for any ballot, so they stay prepared.
  // The choices as (position, candidate) pairs; the ballots one per position.
  const positionIds = intArray(entries.map((e) => e.positionId));
  const candidateIds = intArray(entries.map((e) => e.candidateId));
  const ballotPositions = intArray(cast.map((b) => b.positionId));
  // Sealed before the statement: nothing but SQL runs while it holds its locks.
  // In the order of ballotPositions: cast_vote pairs them by position in the arrays.
  const receiptsEnc = cast.map((b) => seal(key, b.receipt));
  const queueRows = cast.map((b) => ({ id: queueIdOf(ctx.secrets.queueIdKey, b.receipt), sealed: sealBallot(key, b) }));

  let voterName = '';
  let memberId = 'memberId' in voter ? voter.memberId : null;
  let result: { xid: string; newVoter: boolean };
  let electionId: ElectionId;
  try {
    // One statement, in autocommit: the locks, the check and the writes run inside the
    // cast_vote function (declared in db/schema/functions.ts; ADR 003). One round trip per vote,
    // so no pooled connection waits "idle in transaction" on this event loop, and PGlite's single
    // connection is held for one message. Shared election locks (the installation's and this
    // election's, db/ballot-box.ts `lockElection`): a toggle or close of this election (exclusive)
    // waits for votes in flight and later votes see its outcome; another election's close never does. Member lock: one member's concurrent submissions run
    // one after the other, so the check sees the earlier one; the participation key still guards.
    const now = ctx.now();
    const at = now.toISOString();
    // Who votes, as `s` (role, subject_id): the live session of the token when the caller came by
    // one (auth/access.ts `sessionInStatement`), touched if stale, with no round trip before this one.
    const tokenHash = 'session' in voter && plausibleToken(voter.session.token) ? sha256(voter.session.token) : null;
    if ('session' in voter && tokenHash === null) {
      voter.session.settled = true;
      throw new AppError('UNAUTHENTICATED');
    }
    const sql = ctx.database.sql;
    const who =
      tokenHash !== null ? liveSessionWith(ctx, tokenHash, now) : sql`s as (select 'voter'::text as role, ${memberId}::int as subject_id)`;
    // The election is resolved in the same statement (the named one if it exists, else the current
    // one: `votedElectionIdSql` of the election store), so a vote stays one round trip (BENCHMARKS.md, figure 1).
    // cast_vote runs only for a voter's live session and an election that exists.
    const [row] = await sql<{ role: Role; subject_id: number; election_id: number | null; outcome: unknown }[]>`
      with ${who}
      select v.role, v.subject_id, e.id as election_id,
        case when v.role = 'voter' and e.id is not null then cast_vote(
        v.subject_id, ${positionIds}::int[], ${candidateIds}::int[],
        ${ballotPositions}::int[], ${textArray(receiptsEnc)}::text[],
        ${textArray(queueRows.map((r) => r.id))}::text[], ${textArray(queueRows.map((r) => r.sealed))}::text[],
        ${activity}, ${`${cast.length} position(s)`}, ${voter.ip}, ${at}::timestamptz,
        ${ELECTION_LOCK}::bigint, ${MEMBER_LOCK_NAMESPACE}::int, e.id, ${ELECTION_LOCK_NAMESPACE}::int
      ) end as outcome
      from s v
      cross join (select ${votedElectionIdSql(sql, requested)} as id) e`;
    if ('session' in voter) {
      voter.session.settled = true;
      if (!row) throw new AppError('UNAUTHENTICATED');
      if (row.role !== 'voter') throw new AppError('FORBIDDEN');
    }
    memberId = row!.subject_id;
    if (row?.election_id === null || row?.election_id === undefined) throw AppError.say('NOT_FOUND', 'election.noSuch');
    electionId = row.election_id;
    // Read through its declared result: a function that answered otherwise is a server fault
    // (a plain Error, 500), never the voter's (a ZodError would read as a 422).
    const outcome = CastVoteOutcome.safeParse(row.outcome);
    if (!outcome.success) throw new Error(`cast_vote answered an outcome its declaration does not describe: ${outcome.error.message}`);
    if ('xid' in outcome.data) {
      result = { xid: outcome.data.xid, newVoter: !outcome.data.voted_before };
    } else {
      // Refused: the rows that failed a check, worded here (none: the member does not exist).
      const rows = outcome.data.refused;
      if (rows.length === 0) throw new AppError('UNAUTHENTICATED');
      voterName = rows[0]!.voter_name;
      // Each refusal by code (docs/architecture.md "Errors by code"): the voter's language reads it from its catalogue.
      if (rows[0]!.active !== true) throw AppError.say('FORBIDDEN', 'vote.disabled');
      // The English text as `issue` too: the ballot page tells this refusal apart in any language.
      if (!rows[0]!.on_roll) throw AppError.sayIssue('FORBIDDEN', 'vote.notOnRoll');

      const invalid: Record<string, Said[]> = {};
      for (const r of rows) {
        const field = `candidates.${r.position_id}`;
        const position = positionTitle({ name: r.position_name ?? '', level: r.level ?? '' });
        if (r.position_name === null) invalid[field] = [{ id: 'vote.positionMissing' }];
        else if (!r.eligible) invalid[field] = [{ id: 'vote.notEligible', values: { position } }];
        else if (!r.standing)
          invalid[field] = [{ id: r.kind === 'motion' ? 'vote.notAnOption' : 'vote.notStanding', values: { position } }];
        else if (r.duplicate) invalid[field] = [{ id: 'vote.duplicate', values: { position } }];
        else if (r.kind === 'motion' && r.chosen > 1) invalid[field] = [{ id: 'vote.motionOne', values: { position } }];
        else if (r.seats !== null && r.chosen > r.seats && r.method !== 'approval' && r.method !== 'ranked')
          invalid[field] = [{ id: 'vote.tooMany', values: { seats: r.seats, position } }];
      }
      if (Object.keys(invalid).length > 0) throw AppError.fieldsSaid(invalid);

      const already = rows.filter((r) => r.voted).map((r) => positionTitle({ name: r.position_name ?? '', level: r.level ?? '' }));
      if (already.length > 0) throw AppError.say('CONFLICT', 'vote.alreadyVotedFor', { positions: already.join(', ') });

      // The function refuses only a row that fails a check above; anything else is a
      // disagreement between it and these rules, never a vote.
      throw new Error('cast_vote refused a ballot whose rows pass every check');
    }
  } catch (error) {
    // Two submissions the member lock did not serialise (it always should): the key decides.
    const failure = uniqueViolation(error) !== undefined ? AppError.say('CONFLICT', 'vote.alreadyVotedOne') : (refusalOf(error) ?? error);
    if (failure instanceof AppError && failure.status < 500 && voterName) {
      await recordActivity(ctx, {
        name: voterName,
        activity,
        userId: memberId!,
        userType: 'voter',
        data: failure.message,
        ip: voter.ip,
        status: failure.status === 403 ? 'denied' : 'failed',
      }).catch((err: unknown) => ctx.logger.warn({ err }, 'could not record a refused vote'));
    }
    throw failure;
  }

  ctx.events.emit('votes.cast', {
    electionId,
    positionIds: cast.map((b) => b.positionId),
    entries,
    newVoter: result.newVoter,
    xid: result.xid,
    queueIds: queueRows.map((r) => r.id),
  });
  return cast.map((b) => ({ position_id: b.positionId, vvpat: b.receipt }));
}
