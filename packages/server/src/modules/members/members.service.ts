import type { MembersContext } from './context';
import {
  type Attributes,
  followsMemberNoPattern,
  memberNoFormatMessage,
  type Branch,
  type Member,
  type PageQuery,
  type Paginated,
  type Position,
  type TranslatedText,
  type Translations,
} from '@kura/contract';
import { freezeDueRolls, readMemberNoPattern } from '../../db/election-store';
import { and, asc, count, eq, ilike, inArray, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Core } from '../../core';
import type { Db, Tx } from '../../db/client';
import { branches, candidacies, members, participation, positions } from '../../db/schema';
import { AppError, fromContract, type FieldMessage } from '../../errors';
import type { Said } from '../../i18n';
import type { Actor } from '../../auth/actor';
import { auditedTransaction } from '../../lib/audited-transaction';
import { uniqueViolation } from '../../db/errors';
import { likeContains, pageRequest, paginate } from '../../lib/pagination';
import { storedTranslations } from '../../lib/position-title';
import { lockElection, lockMemberVotes } from '../../db/locks';
import {
  checkContactChanges,
  contactChangeRefused,
  recordContactChanges,
  sendContactChangeNotices,
  type ContactChanges,
} from './contact-changes';
import { assertNotClosed, assertNotClosedIn, closedElectionIds, type ElectionId } from '../elections';
import { checkMemberAttributes, eligibilityChecks, mergeAttributes, readAttributeDefs, shownAttributes } from '../register';

type Reader = Db | Tx;

export type MemberFilters = { query?: string; county?: string; phone?: string; email?: string };

export type MemberEdit = {
  name: string;
  /** E.164 (the contract normalises every accepted spelling). */
  phone: string;
  /** null: the member has none. */
  email: string | null;
  county: number | string;
  member_no: string;
  /** A shipped language code, null for the organisation's default; undefined leaves it as it is. */
  language?: string | null;
  /** Attribute values to set (a subset; null clears one); undefined leaves them as they are. */
  attributes?: Record<string, unknown>;
};

const DIGITS = /^\d+$/;

const memberColumns = {
  id: members.id,
  member_no: members.memberNo,
  name: members.name,
  // The API answers an empty string for a member without an e-mail.
  email: sql<string>`coalesce(${members.email}, '')`,
  phone: members.phone,
  county: branches.name,
  language: members.language,
  attributes: members.attributes,
};

/** Attaches each member's position ids (one query for the whole page). */
async function withPositionIds(db: Reader, rows: Omit<Member, 'psk_position_ids'>[]): Promise<Member[]> {
  if (rows.length === 0) return [];
  // Every attribute the organisation defines, null where the member has no value.
  const defs = await readAttributeDefs(db);
  rows = rows.map((r) => ({ ...r, attributes: shownAttributes(defs, r.attributes) }));
  const links = await db
    .select({ memberId: candidacies.memberId, positionId: candidacies.positionId })
    .from(candidacies)
    .where(
      inArray(
        candidacies.memberId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(candidacies.positionId));
  const byMember = new Map<number, number[]>();
  for (const l of links) (byMember.get(l.memberId) ?? byMember.set(l.memberId, []).get(l.memberId)!).push(l.positionId);
  return rows.map((r) => ({ ...r, psk_position_ids: byMember.get(r.id) ?? [] }));
}

function filterConditions(f: MemberFilters): SQL[] {
  const out: SQL[] = [];
  const query = f.query?.trim();
  if (query) {
    const like = likeContains(query);
    out.push(or(ilike(members.memberNo, like), ilike(members.name, like), ilike(members.email, like), ilike(members.phone, like))!);
  }
  const county = f.county?.trim();
  // The pager's branch filter may come from a select (id) or be typed (name).
  if (county) out.push(DIGITS.test(county) ? eq(members.branchId, Number(county)) : ilike(branches.name, likeContains(county)));
  const phone = f.phone?.trim();
  if (phone) out.push(ilike(members.phone, likeContains(phone)));
  const email = f.email?.trim();
  if (email) out.push(ilike(members.email, likeContains(email)));
  return out;
}

/** Members by id, paginated, optionally filtered; every filter given must match. */
export async function searchMembers(ctx: MembersContext, query: PageQuery, filters: MemberFilters = {}): Promise<Paginated<Member>> {
  const { db } = ctx.database;
  const page = pageRequest(query);
  const where = and(...filterConditions(filters));
  const [total] = await db.select({ n: count() }).from(members).innerJoin(branches, eq(branches.id, members.branchId)).where(where);
  const rows = await db
    .select(memberColumns)
    .from(members)
    .innerJoin(branches, eq(branches.id, members.branchId))
    .where(where)
    .orderBy(asc(members.id))
    .limit(page.perPage)
    .offset(page.offset);
  return paginate(await withPositionIds(db, rows), total?.n ?? 0, page);
}

export async function getMember(db: Reader, id: number): Promise<Member | undefined> {
  const rows = await db
    .select(memberColumns)
    .from(members)
    .innerJoin(branches, eq(branches.id, members.branchId))
    .where(eq(members.id, id));
  return (await withPositionIds(db, rows))[0];
}

/** A branch given by id (number or digits) or by name (any case). */
export async function resolveBranch(db: Reader, ref: number | string): Promise<Branch | undefined> {
  if (typeof ref === 'number' || DIGITS.test(ref)) {
    const [byId] = await db
      .select({ id: branches.id, name: branches.name })
      .from(branches)
      .where(eq(branches.id, Number(ref)));
    if (byId || typeof ref === 'number') return byId;
  }
  const [byName] = await db
    .select({ id: branches.id, name: branches.name })
    .from(branches)
    .where(sql`lower(${branches.name}) = lower(${String(ref).trim()})`);
  return byName;
}

/** The refusal of a member number the organisation's `member_no_pattern` does not accept, or null. */
export async function memberNoProblem(db: Reader, memberNo: string): Promise<FieldMessage | null> {
  const pattern = await readMemberNoPattern(db);
  return followsMemberNoPattern(memberNo, pattern) ? null : fromContract(memberNoFormatMessage(pattern));
}

/** A member number or e-mail another member has. */
export const uniqueFieldErrors = {
  member_no: { id: 'field.memberNoTaken' },
  email: { id: 'field.emailTaken' },
} as const satisfies Record<string, Said>;

/**
 * Writes a member's own fields: the branch must exist and member number and email must stay
 * unique (422 per field). The pre-check gives both messages at once; the catch covers a race.
 */
export async function applyMemberEdit(
  tx: Tx,
  id: number,
  input: MemberEdit,
  now: Date,
  { confirmContactChange = false }: { confirmContactChange?: boolean } = {},
): Promise<ContactChanges> {
  // A register that has closed froze its roll before this edit lands (docs/api.md "The register").
  await freezeDueRolls(tx, now);
  const branch = await resolveBranch(tx, input.county);
  const email = input.email?.trim().toLowerCase() || null;
  const phone = input.phone.trim();
  const name = input.name.trim();
  const memberNo = input.member_no.trim();
  const errors: Record<string, FieldMessage[]> = {};
  if (!branch) errors.county = [{ id: 'field.countyInvalid' }];
  let attributePatch: Attributes = {};
  try {
    attributePatch = checkMemberAttributes(await readAttributeDefs(tx), input.attributes);
  } catch (error) {
    if (!(error instanceof AppError) || !error.errors) throw error;
    Object.assign(errors, error.fieldMessages);
  }
  const [current] = await tx.select({ memberNo: members.memberNo, attributes: members.attributes }).from(members).where(eq(members.id, id));
  // A number kept as it is stays valid when the organisation's pattern changes later.
  if (current && current.memberNo !== memberNo) {
    const problem = await memberNoProblem(tx, memberNo);
    if (problem) errors.member_no = [problem];
  }
  const clashes = await tx
    .select({ memberNo: members.memberNo, email: members.email })
    .from(members)
    .where(
      and(
        ne(members.id, id),
        email === null ? eq(members.memberNo, memberNo) : or(eq(members.memberNo, memberNo), eq(members.email, email)),
      ),
    );
  if (clashes.some((c) => c.memberNo === memberNo)) errors.member_no = [uniqueFieldErrors.member_no];
  if (email !== null && clashes.some((c) => c.email === email)) errors.email = [uniqueFieldErrors.email];
  if (Object.keys(errors).length > 0 || !branch) throw AppError.fields(errors);
  if ((await membersLockedToBranch(tx, new Map([[id, branch.id]]))).has(id)) {
    throw AppError.say('CONFLICT', 'error.branchAfterVote', undefined, { issue: BRANCH_LOCKED_AFTER_VOTE });
  }
  const [old] = await tx
    .select({ phone: members.phone, email: members.email, language: members.language })
    .from(members)
    .where(eq(members.id, id));
  if (!old) throw AppError.say('NOT_FOUND', 'error.memberNotFound');
  const contacts = await checkContactChanges(
    tx,
    [{ id, memberNo, name, old: { phone: old.phone, email: old.email }, new: { phone, email }, language: old.language }],
    confirmContactChange,
  );
  if (contacts.refused.length > 0) throw contactChangeRefused();
  try {
    await tx
      .update(members)
      .set({
        name,
        phone,
        email,
        memberNo,
        branchId: branch.id,
        ...(input.language !== undefined ? { language: input.language } : {}),
        ...(input.attributes !== undefined ? { attributes: mergeAttributes(current?.attributes ?? {}, attributePatch) } : {}),
        updatedAt: now,
      })
      .where(eq(members.id, id));
  } catch (error) {
    const constraint = uniqueViolation(error);
    if (constraint === undefined) throw error;
    throw AppError.fieldsSaid(
      constraint.includes('email') ? { email: [uniqueFieldErrors.email] } : { member_no: [uniqueFieldErrors.member_no] },
    );
  }
  return contacts;
}

export const BRANCH_LOCKED_AFTER_VOTE = 'has already voted for a branch position, so their branch cannot change until the election is over';

/**
 * Of these members (id → the branch they would move to), the ones who voted for a branch position
 * of an election not closed yet and would change branch: such a move would let them vote for the new branch's positions too.
 * Takes each moving member's vote lock first (the lock cast_vote takes), so a vote in flight
 * finishes before the check and a later one sees the new branch.
 */
export async function membersLockedToBranch(tx: Tx, moves: Map<number, number>): Promise<Set<number>> {
  if (moves.size === 0) return new Set();
  const current = await tx
    .select({ id: members.id, branchId: members.branchId })
    .from(members)
    .where(inArray(members.id, [...moves.keys()]));
  const changing = current.filter((m) => m.branchId !== moves.get(m.id)).map((m) => m.id);
  if (changing.length === 0) return new Set();
  await lockMemberVotes(tx, changing);
  // Only votes in an election not closed yet hold them: a closed one takes no more votes.
  const closed = await closedElectionIds(tx);
  const voted = await tx
    .selectDistinct({ id: participation.memberId })
    .from(participation)
    .innerJoin(positions, eq(positions.id, participation.positionId))
    .where(
      and(
        inArray(participation.memberId, changing),
        sql`${positions.branchId} is not null`,
        closed.length > 0 ? notInArray(positions.electionId, closed) : undefined,
      ),
    );
  return new Set(voted.map((r) => r.id));
}

/** Locks the member row for the rest of the transaction, so two edits of one member queue up. */
async function lockMember(tx: Tx, where: SQL): Promise<{ id: number; memberNo: string }> {
  const [row] = await tx.select({ id: members.id, memberNo: members.memberNo }).from(members).where(where).for('update');
  if (!row) throw AppError.say('NOT_FOUND', 'error.memberNotFound');
  return row;
}

/**
 * The id, member number and name of every member who stands in an election that has closed
 * (archived ones included): what a declared result shows of them, so they keep it for good. A
 * member who stands only in elections still in set-up or voting may still change. `memberIds`
 * narrows to those members. Candidates are few, so the callers compare in memory, whatever the
 * size of their change.
 */
export async function declaredCandidateIdentities(tx: Tx, memberIds?: number[]): Promise<{ id: number; memberNo: string; name: string }[]> {
  const closed = await closedElectionIds(tx);
  if (closed.length === 0 || memberIds?.length === 0) return [];
  return tx
    .selectDistinct({ id: members.id, memberNo: members.memberNo, name: members.name })
    .from(members)
    .innerJoin(candidacies, eq(candidacies.memberId, members.id))
    .innerJoin(positions, eq(positions.id, candidacies.positionId))
    .where(and(inArray(positions.electionId, closed), memberIds ? inArray(members.id, memberIds) : undefined));
}

/** 409 when the edit would change the name or member number a closed election's declared result shows. */
export async function assertDeclaredIdentityKept(tx: Tx, id: number, edit: { name: string; member_no: string }): Promise<void> {
  const [candidate] = await declaredCandidateIdentities(tx, [id]);
  if (candidate && (candidate.name !== edit.name.trim() || candidate.memberNo !== edit.member_no.trim()))
    throw AppError.say('CONFLICT', 'error.closed.candidateIdentity');
}

export async function updateMember(
  ctx: MembersContext,
  actor: Actor,
  id: number,
  input: MemberEdit & { confirm_contact_change?: boolean },
): Promise<Member> {
  return auditedTransaction(
    ctx,
    { actor, activity: 'Member updated', data: `member id ${id}, member no ${input.member_no}` },
    async (tx, note) => {
      await lockMember(tx, eq(members.id, id));
      await assertDeclaredIdentityKept(tx, id, input);
      const contacts = await applyMemberEdit(tx, id, input, ctx.now(), { confirmContactChange: input.confirm_contact_change === true });
      await recordContactChanges(ctx, actor, contacts, tx);
      const updated = (await getMember(tx, id))!;
      note.afterCommit(() => {
        sendContactChangeNotices(ctx, contacts);
        ctx.events.emit('members.changed');
        if (updated.psk_position_ids.length > 0) ctx.events.emit('candidates.changed');
      });
      return updated;
    },
  );
}

export type PositionChange = { added: number[]; removed: number[] };

/**
 * The lock of the election whose candidacies change, which its votes hold shared, taken
 * exclusively (as a position edit and a close take it; db/ballot-box.ts `lockElection`): a vote in
 * flight in that election finishes before a candidacy change looks for votes, and a later one sees
 * the new list; votes in other elections never wait for it. Take it first in the transaction,
 * before any member row lock: a vote holds it while it writes rows that reference its member, so
 * the other order could deadlock with a candidate's own vote.
 */
export async function lockElectionForCandidacies(tx: Tx, electionId: ElectionId): Promise<void> {
  await lockElection(tx, electionId);
}

/**
 * Makes the member's positions exactly `positionIds`. Unknown positions are a 422. Once a
 * position has ballots its candidate list is frozen (409): adding or removing a candidate then
 * would change what voters already chose between (docs/decisions/004-the-election-is-data.md).
 * The caller takes `lockElectionForCandidacies` first, so the check sees every vote.
 */
export async function replacePositions(tx: Tx, memberId: number, positionIds: number[], electionId: ElectionId): Promise<PositionChange> {
  const wanted = [...new Set(positionIds)];
  if (wanted.length > 0) {
    // Another election's position is no position of this one (422).
    const found = await tx
      .select({ id: positions.id, kind: positions.kind })
      .from(positions)
      .where(and(inArray(positions.id, wanted), eq(positions.electionId, electionId)));
    const known = new Set(found.map((p) => p.id));
    const unknown = wanted.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw AppError.fieldsSaid({
        position_ids: [{ id: 'field.positionsMissing', values: { many: unknown.length > 1 ? 'yes' : 'no', ids: unknown.join(', ') } }],
      });
    }
    // A motion's options are Yes, No and Abstain: nobody stands for it.
    const motions = found.filter((p) => p.kind === 'motion').map((p) => p.id);
    if (motions.length > 0)
      throw AppError.fieldsSaid({
        position_ids: [{ id: 'field.positionsAreMotions', values: { many: motions.length > 1 ? 'yes' : 'no', ids: motions.join(', ') } }],
      });
  }
  // The member's candidacies in this election: those in other elections stay.
  const current = (
    await tx
      .select({ id: candidacies.positionId })
      .from(candidacies)
      .innerJoin(positions, eq(positions.id, candidacies.positionId))
      .where(and(eq(candidacies.memberId, memberId), eq(positions.electionId, electionId)))
  ).map((r) => r.id);
  const added = wanted.filter((id) => !current.includes(id));
  const removed = current.filter((id) => !wanted.includes(id));
  const changed = [...added, ...removed];
  if (changed.length === 0) return { added, removed };
  // Held already when the caller took it first, as it should (advisory locks nest in a transaction).
  await lockElectionForCandidacies(tx, electionId);
  const voted = await tx
    .selectDistinct({ id: participation.positionId })
    .from(participation)
    .where(inArray(participation.positionId, changed));
  if (voted.length > 0) {
    throw AppError.say('CONFLICT', 'error.positionHasVotes');
  }
  if (removed.length > 0)
    await tx.delete(candidacies).where(and(eq(candidacies.memberId, memberId), inArray(candidacies.positionId, removed)));
  if (added.length > 0) await tx.insert(candidacies).values(added.map((positionId) => ({ memberId, positionId })));
  return { added, removed };
}

export async function assignPositions(
  ctx: Core,
  actor: Actor,
  memberNo: string,
  positionIds: number[],
  electionId: ElectionId,
  overrideReason?: string,
): Promise<PositionChange> {
  await assertNotClosed(ctx, 'its candidates', electionId);
  const change = await auditedTransaction(
    ctx,
    { actor, activity: 'Positions assigned', data: `member no ${memberNo}, positions [${positionIds.join(', ')}]` },
    async (tx, note) => {
      await lockElectionForCandidacies(tx, electionId);
      // Under the lock a close takes: one that committed since the check above is seen.
      await assertNotClosedIn(tx, 'its candidates', electionId);
      const member = await lockMember(tx, eq(members.memberNo, memberNo.trim()));
      const change = await replacePositions(tx, member.id, positionIds, electionId);
      // docs/api.md "Eligibility to stand": each added position's rules, on the values now.
      const unmet: string[] = [];
      for (const positionId of change.added) {
        const checks = await eligibilityChecks(ctx, positionId, member.id, tx);
        const failed = checks.filter((c) => !c.met);
        if (failed.length === 0) continue;
        const [p] = await tx.select({ name: positions.name, level: positions.level }).from(positions).where(eq(positions.id, positionId));
        for (const c of failed) unmet.push(`${p?.name ?? positionId} ${p?.level ?? ''}: ${c.text}`.replace(/ +:/, ':'));
      }
      if (unmet.length > 0 && !overrideReason)
        throw AppError.fields(
          { position_ids: unmet.map((which) => ({ id: 'field.notEligible', values: { which } })) },
          { id: 'error.notEligible', values: { list: unmet.join('; ') } },
        );
      if (unmet.length > 0)
        note.data(
          `member no ${memberNo}, positions [${positionIds.join(', ')}]; eligibility overridden (${unmet.join('; ')}): ${overrideReason}`,
        );
      if (change.added.length + change.removed.length > 0)
        note.afterCommit(() => {
          ctx.events.emit('candidates.changed');
          ctx.events.emit('members.changed');
        });
      return change;
    },
  );
  return change;
}

export async function listBranches(ctx: Core): Promise<Branch[]> {
  return ctx.database.db.select({ id: branches.id, name: branches.name }).from(branches).orderBy(asc(branches.name));
}

/** National positions first, then branch positions by branch; the admin's order within each. */
export const positionOrder = [sql`${positions.level} <> 'National'`, asc(positions.sortOrder), asc(positions.level), asc(positions.id)];

export const positionColumns = {
  id: positions.id,
  name: positions.name,
  level: positions.level,
  seats: positions.seats,
  description: positions.description,
  branch_id: positions.branchId,
  kind: positions.kind,
  // The method belongs to candidates positions, the threshold and quorum to motions (null otherwise).
  method: sql<'plurality' | 'approval' | 'ranked' | null>`case when ${positions.kind} = 'candidates' then ${positions.method} end`,
  threshold: sql<
    'majority' | 'two_thirds' | 'three_quarters' | null
  >`case when ${positions.kind} = 'motion' then ${positions.threshold} end`,
  quorum_percent: positions.quorumPercent,
};

/** The position columns with the translations of its name and description (the set-up page edits them). */
export const translatedPositionColumns = {
  ...positionColumns,
  rotate_candidates: positions.rotateCandidates,
  translations: positions.translations,
  eligibility: positions.eligibility,
  nomination: positions.nomination,
};

/** A row of `translatedPositionColumns` as the API answers it: `translations` only when there is one. */
export function asPosition<R extends { translations: Translations | null }>(
  row: R,
): Omit<R, 'translations'> & { translations?: TranslatedText } {
  const { translations, ...rest } = row;
  const stored = storedTranslations(translations);
  return stored ? { ...rest, translations: stored } : rest;
}

export async function listPositions(ctx: Core, electionId: ElectionId): Promise<Position[]> {
  const rows = await ctx.database.db
    .select(translatedPositionColumns)
    .from(positions)
    .where(eq(positions.electionId, electionId))
    .orderBy(...positionOrder);
  return rows.map(asPosition);
}
