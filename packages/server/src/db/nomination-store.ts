import type { Nomination, Paginated, PublicNomination } from '@kura/contract';
import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client';
import type { ElectionId } from './election-store';
import { members, nominations, nominationSupporters, positions } from './schema';
import { positionTitle } from '../lib/position-title';
import { paginate, type PageRequest } from '../lib/pagination';

/**
 * The nomination store: the SQL of `nominations` and `nomination_supporters`, which the nominations
 * module owns (db/schema/owners.ts), where it reads them with the nominee, the supporters (members)
 * and the position; and the reads the elections and members modules need, which sit below the
 * nominations module and could not import it.
 */

type Reader = Db | Tx;

/** A nomination that holds voting back: submitted and undecided, or with an appeal pending. */
export type UndecidedNomination = { id: number; nominee: string; position: string; appeal: boolean };

/**
 * The election's nominations that must be decided before voting opens (docs/api.md
 * "Nominations"): the toggle and the schedule refuse to open while there is any. Read from the
 * table directly so the lifecycle module need not import the nominations module (which imports it).
 */
export async function undecidedNominations(db: Reader, electionId: ElectionId): Promise<UndecidedNomination[]> {
  const rows = await db.execute<{ id: number; nominee: string; position: string; appeal: boolean }>(sql`
    select n.id, m.name as nominee, p.name || ' ' || p.level as position, (n.appeal_status = 'pending') as appeal
    from nominations n join members m on m.id = n.nominee_id join positions p on p.id = n.position_id
    where n.election_id = ${electionId} and (n.status = 'submitted' or (n.status = 'invalid' and n.appeal_status = 'pending'))
    order by n.id`);
  return rows.map((r) => ({ id: Number(r.id), nominee: r.nominee, position: r.position, appeal: Boolean(r.appeal) }));
}

/**
 * The election's nominations as its evidence pack keeps them (`nominations.json`): every one, in
 * order, with its supporters by member number and name, its checks, decision and appeal; no
 * contact detail and no photo.
 */
export async function nominationsRecord(db: Reader, electionId: ElectionId): Promise<unknown[]> {
  const rows = await db.execute<{
    id: number;
    position_id: number;
    position: string;
    member_no: string;
    name: string;
    status: string;
    accepted: boolean | null;
    checks: unknown;
    decision_valid: boolean | null;
    decision_reason: string | null;
    decision_at: string | Date | null;
    override_reason: string | null;
    appeal_grounds: string | null;
    appeal_status: string | null;
    appeal_reason: string | null;
    created_at: string | Date;
    supporters: unknown;
  }>(sql`
    select n.id, n.position_id, p.name || ' ' || p.level as position, m.member_no, m.name, n.status, n.accepted, n.checks,
      n.decision_valid, n.decision_reason, n.decision_at, n.override_reason, n.appeal_grounds, n.appeal_status, n.appeal_reason,
      n.created_at,
      coalesce((select json_agg(json_build_object('member_no', sm.member_no, 'name', sm.name, 'role', s.role, 'confirmed', s.confirmed)
                  order by s.role <> 'proposer', s.sort)
                from nomination_supporters s join members sm on sm.id = s.member_id where s.nomination_id = n.id), '[]'::json) as supporters
    from nominations n join members m on m.id = n.nominee_id join positions p on p.id = n.position_id
    where n.election_id = ${electionId}
    order by n.id`);
  const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());
  return rows.map((r) => ({
    id: Number(r.id),
    position_id: Number(r.position_id),
    position: r.position,
    nominee: { member_no: r.member_no, name: r.name },
    supporters: typeof r.supporters === 'string' ? (JSON.parse(r.supporters) as unknown) : r.supporters,
    accepted: r.accepted,
    status: r.status,
    checks: typeof r.checks === 'string' ? (JSON.parse(r.checks) as unknown) : r.checks,
    decision:
      r.decision_valid === null
        ? null
        : { valid: r.decision_valid, reason: r.decision_reason, at: iso(r.decision_at), override_reason: r.override_reason },
    appeal: r.appeal_status ? { grounds: r.appeal_grounds, status: r.appeal_status, reason: r.appeal_reason } : null,
    created_at: iso(r.created_at),
  }));
}

/** Whether a nomination names the member (nominee, author or supporter; withdrawn ones included): the evidence pack lists them, so they stay on the register. */
export async function namedInNomination(db: Reader, memberId: number): Promise<boolean> {
  const [named] = await db.execute(sql`
    select 1 from ${nominations} n where n.nominee_id = ${memberId} or n.created_by = ${memberId}
    union all select 1 from ${nominationSupporters} s where s.member_id = ${memberId}
    limit 1`);
  return named !== undefined;
}

// ---- the nominations module's reads (docs/api.md "Nominations") ----

const nominee = alias(members, 'nominee');

const nominationColumns = {
  id: nominations.id,
  electionId: nominations.electionId,
  positionId: nominations.positionId,
  positionName: positions.name,
  positionLevel: positions.level,
  nomineeNo: nominee.memberNo,
  nomineeName: nominee.name,
  statement: nominations.statement,
  photoUrl: nominations.photoUrl,
  accepted: nominations.accepted,
  status: nominations.status,
  checks: nominations.checks,
  decisionValid: nominations.decisionValid,
  decisionReason: nominations.decisionReason,
  decisionAt: nominations.decisionAt,
  appealGrounds: nominations.appealGrounds,
  appealStatus: nominations.appealStatus,
  appealReason: nominations.appealReason,
  createdAt: nominations.createdAt,
};

export type SupporterRow = {
  nominationId: number;
  memberId: number;
  member_no: string;
  name: string;
  role: 'proposer' | 'seconder';
  sort: number;
  confirmed: boolean;
};

/** Each nomination's supporters, proposers first, in the order given. */
export async function supportersOf(db: Reader, ids: number[]): Promise<Map<number, SupporterRow[]>> {
  const out = new Map<number, SupporterRow[]>();
  if (ids.length === 0) return out;
  const rows = await db
    .select({
      nominationId: nominationSupporters.nominationId,
      memberId: nominationSupporters.memberId,
      member_no: members.memberNo,
      name: members.name,
      role: nominationSupporters.role,
      sort: nominationSupporters.sort,
      confirmed: nominationSupporters.confirmed,
    })
    .from(nominationSupporters)
    .innerJoin(members, eq(members.id, nominationSupporters.memberId))
    .where(inArray(nominationSupporters.nominationId, ids))
    .orderBy(asc(nominationSupporters.nominationId), sql`${nominationSupporters.role} <> 'proposer'`, asc(nominationSupporters.sort));
  for (const r of rows) (out.get(r.nominationId) ?? out.set(r.nominationId, []).get(r.nominationId)!).push(r);
  return out;
}

async function load(db: Reader, where: SQL | undefined, page?: PageRequest): Promise<{ rows: Nomination[]; total: number }> {
  const base = db
    .select(nominationColumns)
    .from(nominations)
    .innerJoin(positions, eq(positions.id, nominations.positionId))
    .innerJoin(nominee, eq(nominee.id, nominations.nomineeId))
    .where(where)
    .orderBy(asc(nominations.id));
  const rows = page ? await base.limit(page.perPage).offset(page.offset) : await base;
  const total = page
    ? ((
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(nominations)
          .where(where)
      )[0]?.n ?? 0)
    : rows.length;
  const supporters = await supportersOf(
    db,
    rows.map((r) => r.id),
  );
  return {
    total: Number(total),
    rows: rows.map((r) => ({
      id: r.id,
      election_id: r.electionId,
      position_id: r.positionId,
      position: positionTitle({ name: r.positionName, level: r.positionLevel }),
      nominee: { member_no: r.nomineeNo, name: r.nomineeName },
      statement: r.statement,
      photo: r.photoUrl,
      supporters: (supporters.get(r.id) ?? []).map((s) => ({ member_no: s.member_no, name: s.name, role: s.role, confirmed: s.confirmed })),
      accepted: r.accepted,
      status: r.status,
      checks: r.checks,
      decision:
        r.decisionValid === null || !r.decisionAt
          ? null
          : { valid: r.decisionValid, reason: r.decisionReason, at: r.decisionAt.toISOString() },
      appeal:
        r.appealStatus && r.appealGrounds !== null ? { grounds: r.appealGrounds, status: r.appealStatus, reason: r.appealReason } : null,
      created_at: r.createdAt.toISOString(),
    })),
  };
}

/** One nomination as the API shows it (the caller knows it exists). */
export async function nominationById(db: Reader, id: number): Promise<Nomination> {
  return (await load(db, eq(nominations.id, id))).rows[0]!;
}

/** The nominations of an election a member made, supports or is nominated in. */
export async function nominationsOfMember(db: Reader, electionId: number, memberId: number): Promise<Nomination[]> {
  const supported = db
    .select({ id: nominationSupporters.nominationId })
    .from(nominationSupporters)
    .where(eq(nominationSupporters.memberId, memberId));
  return (
    await load(
      db,
      and(
        eq(nominations.electionId, electionId),
        or(eq(nominations.nomineeId, memberId), eq(nominations.createdBy, memberId), inArray(nominations.id, supported)),
      ),
    )
  ).rows;
}

/** The returning officer's queue, a page of it. */
export async function nominationsPage(
  db: Reader,
  filter: { electionId: number; positionId?: number; status?: Nomination['status'] },
  page: PageRequest,
): Promise<Paginated<Nomination>> {
  const where = and(
    eq(nominations.electionId, filter.electionId),
    filter.positionId !== undefined ? eq(nominations.positionId, filter.positionId) : undefined,
    filter.status !== undefined ? eq(nominations.status, filter.status) : undefined,
  );
  const { rows, total } = await load(db, where, page);
  return paginate(rows, total, page);
}

/** The published list: valid and invalid nominations, supporters by name, no contact data. */
export async function publicNominations(db: Reader, electionId: number): Promise<PublicNomination[]> {
  const { rows } = await load(db, and(eq(nominations.electionId, electionId), inArray(nominations.status, ['valid', 'invalid'])));
  return rows.map((n) => ({
    position_id: n.position_id,
    position: n.position,
    nominee: n.nominee,
    statement: n.statement,
    supporters: n.supporters.map((s) => ({ name: s.name, role: s.role })),
    status: n.status as 'valid' | 'invalid',
  }));
}
