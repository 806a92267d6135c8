import type { Nomination, Paginated, PublicNomination } from '@kura/contract';
import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { members, nominations, nominationSupporters, positions } from '../../db/schema';
import { positionTitle } from '../../lib/position-title';
import { paginate, type PageRequest } from '../../lib/pagination';

/** Reading nominations as the API shows them (docs/api.md "Nominations"). */

type Reader = Db | Tx;
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
