import { and, asc, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from './client';
import { rollEntries, rollRows, type ElectionId } from './election-store';
import { participation, positions } from './schema';

/**
 * Who voted for what: reads of `participation` (which the ballots module owns, written only by
 * `cast_vote`: db/schema/owners.ts) for the rules of other modules that a vote holds (a member's
 * branch and contact details, a position's candidate list, a member's removal). Under `db/` like the
 * other stores; each function runs on the handle it is given, inside the caller's unit of work,
 * after the caller took the vote locks its rule needs (db/locks.ts).
 */

type Reader = Db | Tx;

/** Of these members, those who voted for a branch position of an election not in `exceptElectionIds`. */
export async function votersForBranchPositions(db: Reader, memberIds: number[], exceptElectionIds: ElectionId[]): Promise<number[]> {
  const voted = await db
    .selectDistinct({ id: participation.memberId })
    .from(participation)
    .innerJoin(positions, eq(positions.id, participation.positionId))
    .where(
      and(
        inArray(participation.memberId, memberIds),
        sql`${positions.branchId} is not null`,
        exceptElectionIds.length > 0 ? notInArray(positions.electionId, exceptElectionIds) : undefined,
      ),
    );
  return voted.map((r) => r.id);
}

/** Of these members, those who voted in any of these elections. */
export async function votersIn(db: Reader, memberIds: number[], electionIds: ElectionId[]): Promise<number[]> {
  const rows = await db
    .selectDistinct({ id: participation.memberId })
    .from(participation)
    .innerJoin(positions, eq(positions.id, participation.positionId))
    .where(and(inArray(participation.memberId, memberIds), inArray(positions.electionId, electionIds)));
  return rows.map((r) => r.id);
}

/** Of these positions, those someone voted for. */
export async function positionsWithVotes(db: Reader, positionIds: number[]): Promise<number[]> {
  const voted = await db
    .selectDistinct({ id: participation.positionId })
    .from(participation)
    .where(inArray(participation.positionId, positionIds));
  return voted.map((r) => r.id);
}

/** Whether the member ever voted (any election's). */
export async function hasVoted(db: Reader, memberId: number): Promise<boolean> {
  const [voted] = await db
    .select({ one: sql`1` })
    .from(participation)
    .where(eq(participation.memberId, memberId))
    .limit(1);
  return voted !== undefined;
}

/** Whether anyone voted for this position. */
export async function positionHasVotes(db: Reader, positionId: number): Promise<boolean> {
  const [voted] = await db
    .select({ one: sql<number>`1` })
    .from(participation)
    .where(eq(participation.positionId, positionId))
    .limit(1);
  return voted !== undefined;
}

/** Of these positions, the first by id someone voted for. */
export async function firstPositionWithVotes(db: Reader, positionIds: number[]): Promise<number | undefined> {
  const [voted] = await db
    .select({ id: participation.positionId })
    .from(participation)
    .where(inArray(participation.positionId, positionIds))
    .orderBy(asc(participation.positionId))
    .limit(1);
  return voted?.id;
}

/** Whether anyone voted for a position of this branch (any election's). */
export async function branchHasVotes(db: Reader, branchId: number): Promise<boolean> {
  const voted = await db
    .select({ id: positions.id })
    .from(positions)
    .innerJoin(participation, eq(participation.positionId, positions.id))
    .where(eq(positions.branchId, branchId))
    .limit(1);
  return voted.length > 0;
}

/** Whether any vote was ever cast in the election (a participation row for one of its positions). */
export async function electionHasVotes(db: Reader, electionId: ElectionId): Promise<boolean> {
  const [voted] = await db
    .select({ one: sql<number>`1` })
    .from(participation)
    .innerJoin(positions, eq(positions.id, participation.positionId))
    .where(eq(positions.electionId, electionId))
    .limit(1);
  return voted !== undefined;
}

// ---- a member's own votes (ussd, vvpat) ----

/** Of these positions, those the member voted for (a vote on the web or by USSD). */
export async function positionsVotedBy(db: Reader, memberId: number, positionIds: number[]): Promise<{ positionId: number }[]> {
  return db
    .select({ positionId: participation.positionId })
    .from(participation)
    .where(and(eq(participation.memberId, memberId), inArray(participation.positionId, positionIds)));
}

/** The member's votes: each position with its receipt, sealed (only the server, with BALLOT_KEY, unseals it). */
export async function sealedReceiptsOf(db: Reader, memberId: number): Promise<{ positionId: number; receiptEnc: string }[]> {
  return db
    .select({ positionId: participation.positionId, receiptEnc: participation.receiptEnc })
    .from(participation)
    .where(eq(participation.memberId, memberId));
}

// ---- an election's voters (the results module's tally, the declaration module's audit) ----

/** How many members voted in the election (for any of its positions). */
export async function voterCountOf(db: Reader, electionId: ElectionId): Promise<number> {
  const [voted] = await db
    .select({ n: sql<number>`count(distinct ${participation.memberId})::int` })
    .from(participation)
    .innerJoin(positions, eq(positions.id, participation.positionId))
    .where(eq(positions.electionId, electionId));
  return voted?.n ?? 0;
}

/**
 * The election's participation rows as a query (position id and sealed receipt), for a cursor
 * (db/cursor.ts `eachPage`): the audit at close opens every voter's receipt a page at a time. The
 * id is a literal, as `ballotSetInOrder`'s.
 */
export function sealedReceiptsIn(electionId: ElectionId): SQL {
  if (!Number.isSafeInteger(electionId)) throw new Error(`not an election id: ${electionId}`);
  return sql`select p.position_id, p.receipt_enc from ${participation} p
            join ${positions} pos on pos.id = p.position_id and pos.election_id = ${sql.raw(String(electionId))}`;
}

/** Members who voted in the election by the web and by USSD (the ussd module records its ballots' positions in `ussd_votes`). */
export async function votersByChannel(db: Reader, electionId: ElectionId): Promise<{ web: number; ussd: number }> {
  const [row] = await db.execute<{ web: number; ussd: number }>(sql`
    select count(distinct p.member_id) filter (where u.member_id is null)::int as web,
           count(distinct p.member_id) filter (where u.member_id is not null)::int as ussd
    from participation p
    join positions pos on pos.id = p.position_id and pos.election_id = ${electionId}
    left join ussd_votes u on u.member_id = p.member_id and u.position_id = p.position_id`);
  return { web: Number(row?.web ?? 0), ussd: Number(row?.ussd ?? 0) };
}

/** The turnout of the election's roll per branch (the branch at the freeze, by name, in name order): its members and those who voted. */
export async function turnoutByBranch(db: Reader, electionId: ElectionId): Promise<{ branch: string; members: number; voted: number }[]> {
  const rows = await db.execute<{ branch: string; members: number; voted: number }>(sql`
    select roll.branch, count(*)::int as members,
           count(*) filter (where ${votedInSql(sql`roll.member_id`, electionId)})::int as voted
    from (${rollEntries(electionId)}) roll
    group by roll.branch order by roll.branch`);
  return rows.map((b) => ({ branch: b.branch, members: Number(b.members), voted: Number(b.voted) }));
}

/** Whether the member (an SQL value: a column of the caller's statement) voted in the election (for any of its positions), as an SQL condition. */
export function votedInSql(memberId: SQL, electionId: ElectionId): SQL<boolean> {
  return sql<boolean>`exists (select 1 from participation p join positions ps on ps.id = p.position_id
                where p.member_id = ${memberId} and ps.election_id = ${electionId})`;
}

/**
 * The members on the election's roll (`rollRows`: the frozen roll once voting opened, else its
 * electorate now) who have not voted in it yet, as SQL rows (id); a member removed since the freeze
 * is not among them. The reminders module's audience, which leaves out those reminded lately.
 */
export function rollMembersYetToVote(electionId: ElectionId): SQL {
  return sql`
    select m.id from members m
    where m.id in (select roll.member_id from (${rollRows(electionId)}) roll(member_id, branch_id))
      and not ${votedInSql(sql`m.id`, electionId)}`;
}
