import { closedElectionIds, type ElectionId } from '../elections';
import { assertNotClosed, assertNotClosedIn } from '../lifecycle';
import { MOTION_OPTIONS, type Agent, type Branch, type CreatePositionBody, type Position, type UpdatePositionBody } from '@kura/contract';
import type { Core } from '../../core';
import type { Tx } from '../../db/client';
import { electoratesNaming } from '../../db/election-store';
import {
  branchNameTaken,
  deleteBranchRow,
  insertBranches,
  keyShareBranches,
  lockBranch,
  membersInBranch,
  renameBranchRow,
} from '../../db/member-store';
import { branchHasVotes, firstPositionWithVotes, positionHasVotes } from '../../db/participation-store';
import { AppError } from '../../errors';
import { t, type Said } from '../../i18n';
import { checkRules } from '../register';
import type { Actor } from '../../auth/actor';
import { uniqueViolation } from '../../db/errors';
import { auditedTransaction } from '../../lib/audited-transaction';
import { lockAllElections, lockElection } from '../../db/locks';
import {
  asPosition,
  branchTitlesPositionIn,
  deletePositionRow,
  electionOfPositionRow,
  insertMotionOptions,
  insertPositions,
  lastSortOrder,
  levelsWithName,
  lockElectionPositions,
  lockPositionRow,
  positionColumnsIn,
  positionColumnsOf,
  positionNameTaken,
  positionsOfBranch,
  setBranchLevel,
  setPositionOrder,
  updatePositionRow,
  type PositionRow,
} from '../../db/position-store';
import { listAgents as agentsByEmail } from '../staff';

/**
 * Branches and positions, as an admin sets up their organisation's election. Every change is one
 * audited transaction (one activity-log line, success or refusal). A position is frozen once a vote
 * is cast for it: the change takes the election lock exclusively, as a toggle does, so no vote is
 * in flight while it checks `participation` and writes.
 */

export const NATIONAL = 'National';

/** The agents (observers), by email; the operator creates them (AGENT_EMAILS, `agent:create`). */
export async function listAgents(ctx: Core): Promise<Agent[]> {
  return agentsByEmail(ctx.database.db);
}

const duplicateBranch = (name: string) =>
  AppError.say('CONFLICT', 'error.branchExists', { name }, { errors: { name: [t('en', 'field.branchNameTaken')] } });

async function findBranch(tx: Tx, id: number): Promise<Branch> {
  const row = await lockBranch(tx, id);
  if (!row) throw AppError.say('NOT_FOUND', 'error.noSuchBranch');
  return row;
}

async function assertBranchNameFree(tx: Tx, name: string, exceptId?: number): Promise<void> {
  if (await branchNameTaken(tx, name, exceptId)) throw duplicateBranch(name);
}

/**
 * Branches are the organisation's, not one election's: a closed election does not stop the next
 * election's set-up. What a declared result shows stays: a branch whose positions a closed
 * election holds keeps its name (it titles them), and a branch in use cannot be deleted.
 */
export async function createBranch(ctx: Core, actor: Actor, name: string): Promise<Branch> {
  try {
    const branch = await auditedTransaction(ctx, { actor, activity: 'Branch created', data: name }, async (tx, note) => {
      note.afterCommit(() => ctx.events.emit('members.changed'));
      await assertBranchNameFree(tx, name);
      const [row] = await insertBranches(tx, [name]);
      return row!;
    });
    return branch;
  } catch (error) {
    if (uniqueViolation(error) !== undefined) throw duplicateBranch(name);
    throw error;
  }
}

/** Renames a branch; its branch positions' level (their title on ballots and results) follows. */
export async function renameBranch(ctx: Core, actor: Actor, id: number, name: string): Promise<Branch> {
  try {
    const branch = await auditedTransaction(
      ctx,
      { actor, activity: 'Branch renamed', data: `branch ${id} to ${name}` },
      async (tx, note) => {
        note.afterCommit(() => ctx.events.emit('members.changed'));
        const current = await findBranch(tx, id);
        await assertBranchNameFree(tx, name, id);
        if (current.name === name) return current;
        // The election lock before the closed elections are read: a close holds it, so one in flight
        // commits first and is seen (and votes in flight finish before the check below).
        await lockAllElections(tx);
        const closed = await closedElectionIds(tx);
        if (closed.length > 0) {
          if (await branchTitlesPositionIn(tx, id, closed)) throw AppError.say('CONFLICT', 'error.closed.setup');
        }
        if (await branchHasVotes(tx, id)) throw AppError.say('CONFLICT', 'error.branchHasVotes');
        await renameBranchRow(tx, id, name);
        await setBranchLevel(tx, id, name);
        return { id, name };
      },
    );
    return branch;
  } catch (error) {
    if (uniqueViolation(error) !== undefined) throw duplicateBranch(name);
    throw error;
  }
}

export async function deleteBranch(ctx: Core, actor: Actor, id: number): Promise<void> {
  await auditedTransaction(ctx, { actor, activity: 'Branch deleted', data: `branch ${id}` }, async (tx, note) => {
    note.afterCommit(() => ctx.events.emit('members.changed'));
    const branch = await findBranch(tx, id);
    const m = await membersInBranch(tx, id);
    const p = await positionsOfBranch(tx, id);
    // Electorates hold branch ids without a foreign key. Every election counts, closed and
    // archived ones too: their roll is frozen, so the id no longer decides who votes there, but
    // GET elections/{id} still shows the electorate and copying the election carries it into a new
    // one (a copy leaves out, and logs, an id that names no branch: catalogue.ts copyElection). An
    // electorate change checks its branches under a key-share lock (catalogue.ts `checkBranches`),
    // which the branch row lock `findBranch` took waits for, so none slips in after this count.
    const e = await electoratesNaming(tx, id);
    if (m > 0 || p > 0 || e > 0) {
      const uses = (
        [
          ['error.branchUse.members', m],
          ['error.branchUse.positions', p],
          ['error.branchUse.electorates', e],
        ] as const
      )
        .filter(([, n]) => n > 0)
        .map(([id, n]) => ({ id, values: { n } }));
      throw AppError.say('CONFLICT', 'error.branchInUse', { branch: branch.name, uses: { list: uses, join: 'and' } });
    }
    await deleteBranchRow(tx, id);
  });
}

const duplicatePosition = (title: string) =>
  AppError.say(
    'CONFLICT',
    'error.positionExists',
    { position: title },
    {
      errors: { name: [t('en', 'field.positionNameTaken')] },
    },
  );

/** One position (national or one branch's), or one per branch with `every_branch`. */
export async function createPositions(ctx: Core, actor: Actor, input: CreatePositionBody, electionId: ElectionId): Promise<Position[]> {
  await assertNotClosed(ctx, 'the set-up', electionId);
  const scope = input.every_branch ? 'every branch' : input.branch_id ? `branch ${input.branch_id}` : NATIONAL;
  try {
    const created = await auditedTransaction(
      ctx,
      {
        actor,
        activity: 'Position created',
        data: (rows: Position[]) => `${input.name} (${scope}, ${input.seats ?? 1} seat(s)); ids [${rows.map((r) => r.id).join(', ')}]`,
      },
      async (tx, note) => {
        note.afterCommit(() => ctx.events.emit('candidates.changed'));
        // The branches key-share locked, as the foreign key would: a rename or deletion in flight
        // (which holds the row for update) commits first and is seen, the new name as the level or
        // the branch gone (422); one that starts later waits for this change.
        await checkRules(tx, input.eligibility, 'eligibility');
        if (input.kind === 'motion' && input.eligibility?.length)
          throw AppError.fieldsSaid({ eligibility: [{ id: 'field.motionNoEligibility' }] });
        let levels: { level: string; branchId: number | null }[];
        if (input.every_branch) {
          const all = await keyShareBranches(tx);
          if (all.length === 0) throw AppError.fieldsSaid({ every_branch: [{ id: 'field.createBranchesFirst' }] });
          levels = all.map((b) => ({ level: b.name, branchId: b.id }));
        } else if (input.branch_id) {
          const [b] = await keyShareBranches(tx, input.branch_id);
          if (!b) throw AppError.fieldsSaid({ branch_id: [{ id: 'field.branchMissing' }] });
          levels = [{ level: b.name, branchId: b.id }];
        } else {
          levels = [{ level: NATIONAL, branchId: null }];
        }
        // Then the election's row, share-locked: a close that committed since the check above is
        // seen. After the branches, never before: a rename holds its branch while it waits for the
        // election lock, and a close holding that lock waits for this row.
        await assertNotClosedIn(tx, 'the set-up', electionId);
        const existing = await levelsWithName(
          tx,
          electionId,
          input.name,
          levels.map((l) => l.level),
        );
        if (existing.length > 0) throw duplicatePosition(`${input.name} ${existing[0]!.level}`);
        const sortOrder = ((await lastSortOrder(tx, electionId)) ?? 0) + 1;
        const kind = input.kind ?? 'candidates';
        const created = await insertPositions(
          tx,
          levels.map((l) => ({
            electionId,
            name: input.name,
            level: l.level,
            branchId: l.branchId,
            seats: kind === 'motion' ? 1 : (input.seats ?? 1),
            description: input.description ?? null,
            sortOrder,
            kind,
            method: input.method ?? 'plurality',
            rotateCandidates: kind === 'candidates' && input.method === 'ranked' && input.rotate_candidates === true,
            threshold: input.threshold ?? 'majority',
            quorumPercent: kind === 'motion' ? (input.quorum_percent ?? null) : null,
            translations: input.translations ?? {},
            eligibility: input.eligibility ?? [],
            nomination: kind === 'motion' ? null : (input.nomination ?? null),
          })),
        );
        // A motion gets its three options at once (docs/api.md "Motions").
        if (kind === 'motion')
          await insertMotionOptions(
            tx,
            created.flatMap((p) => MOTION_OPTIONS.map((name, sortOrder) => ({ positionId: p.id, name, sortOrder }))),
          );
        return created.map(asPosition);
      },
    );
    return created;
  } catch (error) {
    if (uniqueViolation(error) !== undefined) throw duplicatePosition(input.name);
    throw error;
  }
}

async function lockPositionForChange(tx: Tx, id: number, what: 'changed' | 'deleted'): Promise<PositionRow> {
  // The position's election's lock exclusively (a position never moves to another election): its
  // votes in flight finish first, later ones wait for this change; other elections' never wait.
  const owner = await electionOfPositionRow(tx, id);
  if (owner === undefined) throw AppError.say('NOT_FOUND', 'error.noPositionWithId');
  await lockElection(tx, owner);
  const row = await lockPositionRow(tx, id);
  if (!row) throw AppError.say('NOT_FOUND', 'error.noPositionWithId');
  // Under the lock a close takes: one that committed since the caller's check is seen.
  await assertNotClosedIn(tx, 'the set-up', row.electionId);
  if (await positionHasVotes(tx, id))
    throw AppError.say('CONFLICT', `error.positionVoted.${what}`, { position: `${row.name} ${row.level}` });
  return row;
}

/** Renames, describes, reorders or re-seats a position; refused (409) once it has votes, whatever the field. */
/** The election a position belongs to; 404 for an unknown id (whichever elections exist). */
async function electionOfPosition(ctx: Core, id: number): Promise<ElectionId> {
  const electionId = await electionOfPositionRow(ctx.database.db, id);
  if (electionId === undefined) throw AppError.say('NOT_FOUND', 'error.noPositionWithId');
  return electionId;
}

export async function updatePosition(ctx: Core, actor: Actor, id: number, input: UpdatePositionBody): Promise<Position> {
  await assertNotClosed(ctx, 'the set-up', await electionOfPosition(ctx, id));
  const fields = (Object.keys(input) as (keyof UpdatePositionBody)[]).filter((k) => input[k] !== undefined);
  try {
    const updated = await auditedTransaction(
      ctx,
      { actor, activity: 'Position updated', data: `position ${id}: ${fields.join(', ') || 'nothing'}` },
      async (tx, note) => {
        note.afterCommit(() => ctx.events.emit('candidates.changed'));
        const current = await lockPositionForChange(tx, id, 'changed');
        if (input.name !== undefined && input.name.toLowerCase() !== current.name.toLowerCase()) {
          if (await positionNameTaken(tx, current.electionId, input.name, current.level, id))
            throw duplicatePosition(`${input.name} ${current.level}`);
        }
        await checkRules(tx, input.eligibility, 'eligibility');
        const kindErrors: Record<string, Said[]> = {};
        if (current.kind === 'motion') {
          if (input.eligibility?.length) kindErrors.eligibility = [{ id: 'field.motionNoEligibility' }];
          if (input.method !== undefined) kindErrors.method = [{ id: 'field.motionNoMethod' }];
          if (input.seats !== undefined && input.seats !== 1) kindErrors.seats = [{ id: 'field.motionOneSeat' }];
          if (input.nomination) kindErrors.nomination = [{ id: 'nominations.motionTakesNone' }];
        } else {
          if (input.threshold !== undefined) kindErrors.threshold = [{ id: 'field.onlyMotionThreshold' }];
          if (input.quorum_percent !== undefined && input.quorum_percent !== null)
            kindErrors.quorum_percent = [{ id: 'field.onlyMotionQuorum' }];
        }
        // Only a ranked position rotates (the method after this change); another method turns it off.
        const ranked = current.kind === 'candidates' && (input.method ?? current.method) === 'ranked';
        if (input.rotate_candidates && !ranked) kindErrors.rotate_candidates = [{ id: 'field.rotateRankedOnly' }];
        if (Object.keys(kindErrors).length > 0) throw AppError.fieldsSaid(kindErrors);
        // A body with nothing to change answers the position as it is (an UPDATE needs a column).
        if (fields.length === 0) return asPosition((await positionColumnsOf(tx, id))!);
        const row = await updatePositionRow(tx, id, {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.seats !== undefined ? { seats: input.seats } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.sort_order !== undefined ? { sortOrder: input.sort_order } : {}),
          ...(input.method !== undefined ? { method: input.method } : {}),
          ...(input.rotate_candidates !== undefined ? { rotateCandidates: input.rotate_candidates } : {}),
          ...(!ranked && current.rotateCandidates ? { rotateCandidates: false } : {}),
          ...(input.threshold !== undefined ? { threshold: input.threshold } : {}),
          ...(input.quorum_percent !== undefined ? { quorumPercent: input.quorum_percent } : {}),
          ...(input.translations !== undefined ? { translations: input.translations } : {}),
          ...(input.eligibility !== undefined ? { eligibility: input.eligibility } : {}),
          ...(input.nomination !== undefined ? { nomination: input.nomination } : {}),
        });
        return asPosition(row!);
      },
    );
    return updated;
  } catch (error) {
    if (uniqueViolation(error) !== undefined) throw duplicatePosition(input.name ?? '');
    throw error;
  }
}

/**
 * Sets the order of all the positions at once (sort_order = place in the list): one transaction,
 * one election lock, one log line, all or nothing. `ids` must be exactly the election's positions
 * (the contract refuses a repeated id; a missing or unknown one is a 422 here). A position with
 * votes keeps its number (409 otherwise), as `updatePosition` refuses its sort_order.
 */
export async function reorderPositions(ctx: Core, actor: Actor, ids: number[], electionId: ElectionId): Promise<Position[]> {
  await assertNotClosed(ctx, 'the set-up', electionId);
  const ordered = await auditedTransaction(
    ctx,
    { actor, activity: 'Positions reordered', data: `[${ids.join(', ')}]` },
    async (tx, note) => {
      note.afterCommit(() => ctx.events.emit('candidates.changed'));
      // This election's lock exclusively: its votes in flight finish first, later ones wait for this change.
      await lockElection(tx, electionId);
      await assertNotClosedIn(tx, 'the set-up', electionId);
      const current = await lockElectionPositions(tx, electionId);
      const known = new Map(current.map((p) => [p.id, p]));
      const unknown = ids.find((id) => !known.has(id));
      if (unknown !== undefined) throw AppError.fieldsSaid({ position_ids: [{ id: 'field.noPositionId', values: { id: unknown } }] });
      const listed = new Set(ids);
      const missing = current.filter((p) => !listed.has(p.id)).map((p) => p.id);
      if (missing.length > 0)
        throw AppError.fieldsSaid({ position_ids: [{ id: 'field.orderMissing', values: { ids: missing.join(', ') } }] });
      const moving = ids.filter((id, place) => known.get(id)!.sortOrder !== place);
      if (moving.length > 0) {
        const voted = await firstPositionWithVotes(tx, moving);
        if (voted !== undefined) {
          const p = known.get(voted)!;
          throw AppError.say('CONFLICT', 'error.positionVoted.moved', { position: `${p.name} ${p.level}` });
        }
        // One statement for the whole list: each id gets its place (ids are checked whole numbers).
        await setPositionOrder(tx, ids);
      }
      const rows = new Map((await positionColumnsIn(tx, electionId)).map((p) => [p.id, asPosition(p)]));
      return ids.map((id) => rows.get(id)!);
    },
  );
  return ordered;
}

/** Deletes a position and its candidacies; refused (409) once it has votes. */
export async function deletePosition(ctx: Core, actor: Actor, id: number): Promise<void> {
  await assertNotClosed(ctx, 'the set-up', await electionOfPosition(ctx, id));
  await auditedTransaction(ctx, { actor, activity: 'Position deleted', data: `position ${id}` }, async (tx, note) => {
    note.afterCommit(() => {
      ctx.events.emit('candidates.changed');
      ctx.events.emit('members.changed');
    });
    await lockPositionForChange(tx, id, 'deleted');
    await deletePositionRow(tx, id);
  });
}
