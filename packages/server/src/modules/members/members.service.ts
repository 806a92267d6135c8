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
} from '@kura/contract';
import { freezeDueRolls, readMemberNoPattern } from '../../db/election-store';
import type { Core } from '../../core';
import type { Db, Tx } from '../../db/client';
import {
  listBranches as branchesByName,
  lockMemberRow,
  memberBranches,
  memberContacts,
  memberNoAndAttributes,
  memberRecords,
  membersHolding,
  resolveBranch,
  searchMemberRecords,
  updateMemberRow,
  type MemberFilters,
  type MemberKey,
  type MemberRecord,
} from '../../db/member-store';
import { addCandidacies, memberPositionsIn, positionIdsOf, removeCandidacies, standingIdentities } from '../../db/candidacy-store';
import { electionPositions, positionKindsIn, positionName } from '../../db/position-store';
import { positionsWithVotes, votersForBranchPositions } from '../../db/participation-store';
import { AppError, fromContract, type FieldMessage } from '../../errors';
import type { Said } from '../../i18n';
import type { Actor } from '../../auth/actor';
import { auditedTransaction } from '../../lib/audited-transaction';
import { uniqueViolation } from '../../db/errors';
import { pageRequest, paginate } from '../../lib/pagination';
import { lockElection, lockMemberVotes } from '../../db/locks';
import {
  checkContactChanges,
  contactChangeRefused,
  recordContactChanges,
  sendContactChangeNotices,
  type ContactChanges,
} from './contact-changes';
import { closedElectionIds, type ElectionId } from '../elections';
import { assertNotClosed, assertNotClosedIn } from '../lifecycle';
import { checkMemberAttributes, eligibilityChecks, mergeAttributes, readAttributeDefs, shownAttributes } from '../register';

type Reader = Db | Tx;

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

/** Attaches each member's position ids (one query for the whole page). */
async function withPositionIds(db: Reader, rows: MemberRecord[]): Promise<Member[]> {
  if (rows.length === 0) return [];
  // Every attribute the organisation defines, null where the member has no value.
  const defs = await readAttributeDefs(db);
  rows = rows.map((r) => ({ ...r, attributes: shownAttributes(defs, r.attributes) }));
  const links = await positionIdsOf(
    db,
    rows.map((r) => r.id),
  );
  const byMember = new Map<number, number[]>();
  for (const l of links) (byMember.get(l.memberId) ?? byMember.set(l.memberId, []).get(l.memberId)!).push(l.positionId);
  return rows.map((r) => ({ ...r, psk_position_ids: byMember.get(r.id) ?? [] }));
}

/** Members by id, paginated, optionally filtered; every filter given must match. */
export async function searchMembers(ctx: MembersContext, query: PageQuery, filters: MemberFilters = {}): Promise<Paginated<Member>> {
  const { db } = ctx.database;
  const page = pageRequest(query);
  const { total, rows } = await searchMemberRecords(db, filters, page);
  return paginate(await withPositionIds(db, rows), total, page);
}

export async function getMember(db: Reader, id: number): Promise<Member | undefined> {
  return (await withPositionIds(db, await memberRecords(db, id)))[0];
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
  const current = await memberNoAndAttributes(tx, id);
  // A number kept as it is stays valid when the organisation's pattern changes later.
  if (current && current.memberNo !== memberNo) {
    const problem = await memberNoProblem(tx, memberNo);
    if (problem) errors.member_no = [problem];
  }
  const clashes = await membersHolding(tx, memberNo, email, id);
  if (clashes.some((c) => c.memberNo === memberNo)) errors.member_no = [uniqueFieldErrors.member_no];
  if (email !== null && clashes.some((c) => c.email === email)) errors.email = [uniqueFieldErrors.email];
  if (Object.keys(errors).length > 0 || !branch) throw AppError.fields(errors);
  if ((await membersLockedToBranch(tx, new Map([[id, branch.id]]))).has(id)) {
    throw AppError.say('CONFLICT', 'error.branchAfterVote', undefined, { issue: BRANCH_LOCKED_AFTER_VOTE });
  }
  const old = await memberContacts(tx, id);
  if (!old) throw AppError.say('NOT_FOUND', 'error.memberNotFound');
  const contacts = await checkContactChanges(
    tx,
    [{ id, memberNo, name, old: { phone: old.phone, email: old.email }, new: { phone, email }, language: old.language }],
    confirmContactChange,
  );
  if (contacts.refused.length > 0) throw contactChangeRefused();
  try {
    await updateMemberRow(tx, id, {
      name,
      phone,
      email,
      memberNo,
      branchId: branch.id,
      ...(input.language !== undefined ? { language: input.language } : {}),
      ...(input.attributes !== undefined ? { attributes: mergeAttributes(current?.attributes ?? {}, attributePatch) } : {}),
      updatedAt: now,
    });
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
  const current = await memberBranches(tx, [...moves.keys()]);
  const changing = current.filter((m) => m.branchId !== moves.get(m.id)).map((m) => m.id);
  if (changing.length === 0) return new Set();
  await lockMemberVotes(tx, changing);
  // Only votes in an election not closed yet hold them: a closed one takes no more votes.
  const closed = await closedElectionIds(tx);
  return new Set(await votersForBranchPositions(tx, changing, closed));
}

/** Locks the member row for the rest of the transaction, so two edits of one member queue up. */
async function lockMember(tx: Tx, key: MemberKey): Promise<{ id: number; memberNo: string }> {
  const row = await lockMemberRow(tx, key);
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
  return standingIdentities(tx, closed, memberIds);
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
      await lockMember(tx, { id });
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
    const found = await positionKindsIn(tx, wanted, electionId);
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
  const current = await memberPositionsIn(tx, memberId, electionId);
  const added = wanted.filter((id) => !current.includes(id));
  const removed = current.filter((id) => !wanted.includes(id));
  const changed = [...added, ...removed];
  if (changed.length === 0) return { added, removed };
  // Held already when the caller took it first, as it should (advisory locks nest in a transaction).
  await lockElectionForCandidacies(tx, electionId);
  const voted = await positionsWithVotes(tx, changed);
  if (voted.length > 0) {
    throw AppError.say('CONFLICT', 'error.positionHasVotes');
  }
  if (removed.length > 0) await removeCandidacies(tx, memberId, removed);
  if (added.length > 0) await addCandidacies(tx, memberId, added);
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
      const member = await lockMember(tx, { memberNo: memberNo.trim() });
      const change = await replacePositions(tx, member.id, positionIds, electionId);
      // docs/api.md "Eligibility to stand": each added position's rules, on the values now.
      const unmet: string[] = [];
      for (const positionId of change.added) {
        const checks = await eligibilityChecks(ctx, positionId, member.id, tx);
        const failed = checks.filter((c) => !c.met);
        if (failed.length === 0) continue;
        const p = await positionName(tx, positionId);
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
  return branchesByName(ctx.database.db);
}

export async function listPositions(ctx: Core, electionId: ElectionId): Promise<Position[]> {
  return electionPositions(ctx.database.db, electionId);
}
