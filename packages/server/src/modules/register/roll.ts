import { dayIn, ruleMet, type AttributeDef, type Attributes, type Rule } from '@kura/contract';
import { sql } from 'drizzle-orm';
import type { Core } from '../../core';
import type { Db, Tx } from '../../db/client';
import {
  declaredElectedPositions,
  electionExists,
  electionOpensAt,
  readOrganisation,
  rollEntries,
  rollRows,
  type ElectionId,
} from '../../db/election-store';
import { memberAttributes, rollMemberCount, rollMemberRows, type RollFilter } from '../../db/member-store';
import { positionEligibility } from '../../db/position-store';
import { AppError } from '../../errors';

/**
 * Who is on an election's roll and who may stand (docs/api.md "The register"): the one place other
 * modules (nominations, candidates) ask. The roll as it stands before the freeze and the frozen
 * roll after it are the same SQL (`rollRows`, db/election-store.ts); the rules are evaluated by the
 * SQL function `rule_met` over the whole register and by `ruleMet` (the contract's rules.ts) for
 * one member, and rules.test.ts runs both on the same cases.
 */

type Reader = Db | Tx;

/** A member's number, name and branch on the roll. */
export type RollEntry = { memberId: number; memberNo: string; name: string; branchId: number; branch: string };

/** Which members of the roll a listing keeps: number or name containing `query` (any case), of `branch`. */
export type { RollFilter };

/**
 * The members on the election's roll: the frozen roll once frozen (each with the number and branch
 * recorded at the freeze), before it the roll as it stands now. Ordered by member number. 404 for no
 * such election. For a page, pass `limit`/`offset`; `filter` keeps some of them.
 */
export async function rollMembers(
  ctx: Core,
  electionId: ElectionId,
  page?: { limit: number; offset: number },
  db: Reader = ctx.database.db,
  filter: RollFilter = {},
): Promise<RollEntry[]> {
  await assertElection(db, electionId);
  const rows = await rollMemberRows(db, rollEntries(electionId, ctx.now()), filter, page);
  return rows.map((r) => ({
    memberId: Number(r.member_id),
    memberNo: r.member_no,
    name: r.name,
    branchId: Number(r.branch_id),
    branch: r.branch,
  }));
}

/** How many members of the election's roll a filter keeps. */
export async function rollMembersCount(
  ctx: Core,
  electionId: ElectionId,
  filter: RollFilter,
  db: Reader = ctx.database.db,
): Promise<number> {
  return rollMemberCount(db, rollEntries(electionId, ctx.now()), filter);
}

/** How many members are on the election's roll (frozen, or as it stands). */
export async function rollSize(ctx: Core, electionId: ElectionId, db: Reader = ctx.database.db): Promise<number> {
  const [row] = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from (${rollRows(electionId, ctx.now())}) roll(member_id, branch_id)`,
  );
  return Number(row?.n ?? 0);
}

/** Whether the member is on the election's roll: the frozen roll once frozen, else the roll as it stands now. */
export async function isOnRoll(ctx: Core, electionId: ElectionId, memberId: number, db: Reader = ctx.database.db): Promise<boolean> {
  const [row] = await db.execute<{ on: boolean }>(sql`
    select exists (select 1 from (${rollRows(electionId, ctx.now())}) roll(member_id, branch_id) where roll.member_id = ${memberId}) as on`);
  return row?.on === true;
}

/**
 * Whether the member was declared elected in `electedIn`'s election (in one of its positions, or in
 * any when it names none): the same reading of the stored declaration as `roll_members`' `elected_in`.
 */
export async function declaredElected(
  db: Reader,
  electedIn: { election_id: number; position_ids: number[] | null },
  memberId: number,
): Promise<boolean> {
  const positions = await declaredElectedPositions(db, electedIn.election_id, memberId);
  const only = electedIn.position_ids?.length ? new Set(electedIn.position_ids) : null;
  return positions.some((id) => only === null || only.has(id));
}

/**
 * The day relative dates ({years_before}, {days_before}) count back from: the election's `opens_at`
 * in the organisation's time zone, today (`ctx.now()`) while it has none.
 */
export async function referenceDay(ctx: Core, electionId: ElectionId, db: Reader = ctx.database.db): Promise<string> {
  const opensAt = await electionOpensAt(db, electionId);
  const org = await readOrganisation(db);
  return dayIn(opensAt ?? ctx.now(), org.timeZone);
}

/** The rules the member's attributes do not meet (a missing value meets none), `ref` as `referenceDay` answers it. */
export function unmetRules(rules: readonly Rule[], member: { attributes: Attributes | null | undefined }, ref: string): Rule[] {
  const attributes = member.attributes ?? {};
  return rules.filter((r) => !ruleMet(r, attributes[r.attribute], ref));
}

/** The organisation's attribute definitions. */
export async function readAttributeDefs(db: Reader): Promise<AttributeDef[]> {
  return (await readOrganisation(db)).attributes ?? [];
}

/** One eligibility check of a candidate: the rule, whether it is met, and the rule in words (English). */
export type EligibilityCheck = { rule: Rule; met: boolean; text: string };

/**
 * A member's checks against the position's eligibility rules, on the values now (docs/api.md
 * "Eligibility to stand"), relative dates counted back from the position's election's opening.
 * 404 for no such member or position.
 */
export async function eligibilityChecks(
  ctx: Core,
  positionId: number,
  memberId: number,
  db: Reader = ctx.database.db,
): Promise<EligibilityCheck[]> {
  const p = await positionEligibility(db, positionId);
  if (!p) throw AppError.say('NOT_FOUND', 'error.noSuchPosition');
  const m = await memberAttributes(db, memberId);
  if (!m) throw AppError.say('NOT_FOUND', 'error.noSuchMember');
  const rules = p.eligibility ?? [];
  if (rules.length === 0) return [];
  const ref = await referenceDay(ctx, p.electionId, db);
  const defs = await readAttributeDefs(db);
  return rules.map((rule) => ({ rule, met: ruleMet(rule, m.attributes[rule.attribute], ref), text: describeRule(rule, defs) }));
}

/** A rule in English words, by its attribute's label: "Shares (KSh) at least 20000", "Joined on or before 1 year before voting opens". */
export function describeRule(rule: Rule, defs: readonly AttributeDef[]): string {
  const label = defs.find((d) => d.key === rule.attribute)?.label ?? rule.attribute;
  const v = rule.value;
  const value = Array.isArray(v)
    ? v.join(', ')
    : typeof v === 'object' && v !== null
      ? 'years_before' in v
        ? `${v.years_before} year${v.years_before === 1 ? '' : 's'} before voting opens`
        : `${v.days_before} day${v.days_before === 1 ? '' : 's'} before voting opens`
      : typeof v === 'boolean'
        ? v
          ? 'yes'
          : 'no'
        : String(v);
  const op = {
    at_least: 'at least',
    at_most: 'at most',
    equals: 'is',
    not_equals: 'is not',
    one_of: 'is one of',
    on_or_before: 'on or before',
    on_or_after: 'on or after',
  }[rule.op];
  return `${label} ${op} ${value}`;
}

async function assertElection(db: Reader, id: ElectionId): Promise<void> {
  if (!(await electionExists(db, id))) throw AppError.say('NOT_FOUND', 'election.noSuch');
}
