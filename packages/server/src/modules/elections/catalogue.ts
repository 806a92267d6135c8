import type {
  CopyElectionBody,
  CreateElectionBody,
  Election,
  Organisation,
  UpdateElectionByIdBody,
  UpdateOrganisationBody,
} from '@kura/contract';
import { eq } from 'drizzle-orm';
import type { Core } from '../../core';
import type { Tx } from '../../db/client';
import {
  deleteElectionRow,
  freezeDueRolls,
  insertElection,
  lockForUpdate,
  markArchived,
  nameElection,
  readAllStates,
  rollSizes,
  readOrganisation,
  readState,
  updateConfiguration,
  updateOrganisation,
  type ElectionConfiguration,
  type ElectionId,
  type ElectionRecord,
} from '../../db/election-store';
import { election } from '../../db/schema';
import { keyShareBranchIds } from '../../db/member-store';
import { copyPosition, positionRowsOf } from '../../db/position-store';
import { copyCandidacies } from '../../db/candidacy-store';
import { electionHasVotes } from '../../db/participation-store';
import { lockElection } from '../../db/locks';
import { AppError } from '../../errors';
import type { Actor } from '../../auth/actor';
import { auditedTransaction } from '../../lib/audited-transaction';
import { toElection } from './election.service';
import { defaultLanguage } from '../../i18n';
import { checkElectedIn, checkRules, freezeDue } from '../register';

/**
 * The organisation and its elections (docs/api.md "Many elections, motions and ranked counts"):
 * create, edit, delete (only while no vote was ever cast), copy, archive (closed ones only).
 */

/** An election as `elections` and `elections/{id}` answer it: GET election's shape and its own fields. */
export function toElectionWithId(row: ElectionRecord, now: Date, rollSize?: number): Election {
  return {
    ...toElection(row, now),
    id: row.id,
    description: row.description,
    archived: row.archived,
    created_at: row.createdAt.toISOString(),
    electorate: { branch_ids: row.electorateBranchIds, rules: row.electorateRules ?? [], elected_in: row.electedIn ?? null },
    register:
      row.registerOpensAt && row.registerClosesAt
        ? { opens_at: row.registerOpensAt.toISOString(), closes_at: row.registerClosesAt.toISOString() }
        : null,
    roll_frozen_at: row.rollFrozenAt?.toISOString() ?? null,
    roll_hash: row.rollFrozenAt ? row.rollHash : null,
    closed_at: row.closedAt?.toISOString() ?? null,
    ...(rollSize !== undefined ? { roll_size: rollSize } : {}),
    nominations: row.nominations ?? null,
  };
}

function toOrganisation(row: Awaited<ReturnType<typeof readOrganisation>>): Organisation {
  return {
    name: row.name,
    website: row.website,
    support_email: row.supportEmail,
    time_zone: row.timeZone,
    current_election_id: row.currentElectionId,
    default_language: defaultLanguage(row.defaultLanguage),
    member_no_pattern: row.memberNoPattern,
  };
}

export async function getOrganisation(ctx: Core): Promise<Organisation> {
  return toOrganisation(await readOrganisation(ctx.database.db));
}

/** Edits the organisation; the current election must be an election that is not archived (422). */
export async function editOrganisation(ctx: Core, actor: Actor, input: UpdateOrganisationBody): Promise<Organisation> {
  const fields = Object.keys(input).filter((k) => input[k as keyof UpdateOrganisationBody] !== undefined);
  const row = await auditedTransaction(
    ctx,
    { actor, activity: 'Organisation updated', data: fields.join(', ') || 'nothing' },
    async (tx, note) => {
      note.afterCommit(() => ctx.events.emit('election.changed'));
      if (input.current_election_id !== undefined && input.current_election_id !== null) {
        // Share-locked, as a foreign key would: an archive in flight (which holds the row for
        // update) commits first and is seen; one that starts later waits and then clears it.
        const [found] = await tx
          .select({ archived: election.archived })
          .from(election)
          .where(eq(election.id, input.current_election_id))
          .for('share');
        if (!found || found.archived) throw AppError.fieldsSaid({ current_election_id: [{ id: 'error.currentNotArchived' }] });
      }
      await updateOrganisation(
        tx,
        {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.website !== undefined ? { website: input.website } : {}),
          ...(input.support_email !== undefined ? { supportEmail: input.support_email } : {}),
          ...(input.time_zone !== undefined ? { timeZone: input.time_zone } : {}),
          ...(input.current_election_id !== undefined ? { currentElectionId: input.current_election_id } : {}),
          ...(input.default_language !== undefined ? { defaultLanguage: input.default_language } : {}),
          ...(input.member_no_pattern !== undefined ? { memberNoPattern: input.member_no_pattern } : {}),
        },
        ctx.now(),
      );
      return readOrganisation(tx);
    },
  );
  return toOrganisation(row);
}

/** Every election, newest first; archived ones only for staff. */
export async function listElections(ctx: Core, staff: boolean): Promise<Election[]> {
  const now = ctx.now();
  const rows = (await readAllStates(ctx.database.db)).filter((e) => staff || !e.archived);
  await freezeDue(ctx);
  const sizes = await rollSizes(
    ctx.database.db,
    rows.map((e) => e.id),
    now,
  );
  return rows.map((e) => toElectionWithId(e, now, sizes.get(e.id)));
}

/** One election, archived or not (404 when there is none with this id). */
export async function getElectionById(ctx: Core, id: ElectionId): Promise<Election> {
  await freezeDue(ctx);
  const row = await readExisting(ctx.database.db, id);
  return toElectionWithId(row, ctx.now(), (await rollSizes(ctx.database.db, [id], ctx.now())).get(id));
}

async function readExisting(db: Core['database']['db'] | Tx, id: ElectionId): Promise<ElectionRecord> {
  const [found] = await db.select({ id: election.id }).from(election).where(eq(election.id, id));
  if (!found) throw AppError.say('NOT_FOUND', 'election.noSuch');
  return readState(db, id);
}

/**
 * The electorate's ids that name no branch. Key-share locks the branches that exist as a foreign
 * key would: a branch deletion in flight (which locks the row for update) finishes first and the
 * branch is unknown here, and one that starts later waits for this change and counts its electorate.
 */
async function unknownBranches(tx: Tx, ids: number[] | null | undefined): Promise<number[]> {
  if (!ids || ids.length === 0) return [];
  const known = new Set(await keyShareBranchIds(tx, ids));
  return [...new Set(ids)].filter((id) => !known.has(id));
}

/** The electorate's branches exist (else 422), locked as `unknownBranches` says. */
async function checkBranches(tx: Tx, ids: number[] | null | undefined): Promise<void> {
  const unknown = await unknownBranches(tx, ids);
  if (unknown.length)
    throw AppError.fieldsSaid({ 'electorate.branch_ids': [{ id: 'field.noBranchIds', values: { ids: unknown.join(', ') } }] });
}

const date = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : new Date(v));
/** The electorate as stored: null (every member) or the branches, each once, in order. */
const branchIds = (e: { branch_ids: number[] | null } | undefined) =>
  e === undefined ? undefined : e.branch_ids === null ? null : [...new Set(e.branch_ids)].sort((a, b) => a - b);

export async function createElection(ctx: Core, actor: Actor, input: CreateElectionBody): Promise<Election> {
  const id = await auditedTransaction(
    ctx,
    { actor, activity: 'Election created', data: (created: number) => `election ${created}: ${input.title}` },
    async (tx, note) => {
      note.afterCommit(() => ctx.events.emit('election.changed'));
      await checkBranches(tx, input.electorate?.branch_ids);
      await checkRules(tx, input.electorate?.rules, 'electorate.rules');
      await checkElectedIn(tx, input.electorate?.elected_in);
      return insertElection(
        tx,
        {
          title: input.title,
          description: input.description ?? null,
          opensAt: date(input.opens_at) ?? null,
          closesAt: date(input.closes_at) ?? null,
          resultsVisibility: input.results_visibility ?? 'live',
          electorateBranchIds: branchIds(input.electorate) ?? null,
          electorateRules: input.electorate?.rules ?? [],
          electedIn: input.electorate?.elected_in ?? null,
          registerOpensAt: date(input.register?.opens_at) ?? null,
          registerClosesAt: date(input.register?.closes_at) ?? null,
          nominations: input.nominations ?? null,
        },
        ctx.now(),
      );
    },
  );
  return getElectionById(ctx, id);
}

/** Edits an election; schedule, visibility and electorate are refused once it closed (409). */
export async function editElection(ctx: Core, actor: Actor, id: ElectionId, input: UpdateElectionByIdBody): Promise<Election> {
  const fields = (Object.keys(input) as (keyof UpdateElectionByIdBody)[]).filter((k) => input[k] !== undefined);
  await auditedTransaction(
    ctx,
    { actor, activity: 'Election updated', data: `election ${id}: ${fields.join(', ') || 'nothing'}` },
    async (tx, note) => {
      note.afterCommit(() => ctx.events.emit('election.changed'));
      // Read under the row's lock: an opening (which freezes the roll) or a close that commits
      // while this edit waits must be what it judges, never the row as it was before.
      await lockForUpdate(tx, id);
      // A register that has closed froze the roll, whether or not the scheduler got to it yet.
      await freezeDueRolls(tx, ctx.now());
      const row = await readExisting(tx, id);
      const locked = fields.filter((f) => f !== 'title' && f !== 'description');
      if (row.closedAt && locked.length > 0) throw AppError.say('CONFLICT', 'error.closed.schedule');
      // The roll is frozen once voting opened: its electorate no longer changes.
      if (row.rollFrozenAt && input.electorate !== undefined)
        throw AppError.say(
          'CONFLICT',
          // the register's close froze it only where there is a window that closed by the freeze
          row.registerClosesAt && row.registerClosesAt.getTime() <= row.rollFrozenAt.getTime()
            ? 'error.rollFrozen.registerClosed'
            : 'error.rollFrozen.votingOpened',
        );
      // The inspection window belongs before voting (docs/api.md "The register").
      if (input.register !== undefined && (row.openedAt || row.rollFrozenAt)) throw AppError.say('CONFLICT', 'error.rollFrozen.window');
      const registerClosesAt =
        input.register === undefined ? row.registerClosesAt : input.register ? new Date(input.register.closes_at) : null;
      const opensAt = date(input.opens_at) === undefined ? row.opensAt : date(input.opens_at)!;
      const closesAt = date(input.closes_at) === undefined ? row.closesAt : date(input.closes_at)!;
      if (opensAt && closesAt && closesAt.getTime() <= opensAt.getTime())
        throw AppError.fieldsSaid({ closes_at: [{ id: 'field.closesAfterOpens' }] });
      if (opensAt && registerClosesAt && registerClosesAt.getTime() > opensAt.getTime())
        throw AppError.fieldsSaid({ 'register.closes_at': [{ id: 'field.registerClosesBeforeVoting' }] });
      await checkBranches(tx, input.electorate?.branch_ids);
      await checkRules(tx, input.electorate?.rules, 'electorate.rules');
      await checkElectedIn(tx, input.electorate?.elected_in, id);
      const patch: ElectionConfiguration = {
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.results_visibility !== undefined ? { resultsVisibility: input.results_visibility } : {}),
        ...(input.electorate !== undefined ? { electorateBranchIds: branchIds(input.electorate) } : {}),
        ...(input.electorate?.rules !== undefined ? { electorateRules: input.electorate.rules } : {}),
        ...(input.electorate?.elected_in !== undefined ? { electedIn: input.electorate.elected_in } : {}),
        ...(input.register !== undefined
          ? {
              registerOpensAt: input.register ? new Date(input.register.opens_at) : null,
              registerClosesAt: input.register ? new Date(input.register.closes_at) : null,
            }
          : {}),
        ...(input.nominations !== undefined ? { nominations: input.nominations } : {}),
        opensAt,
        closesAt,
      };
      await updateConfiguration(tx, patch, ctx.now(), id);
    },
  );
  return getElectionById(ctx, id);
}

/** Deletes an election with its positions and candidacies, while no vote was ever cast in it (else 409); the last one too. */
export async function deleteElection(ctx: Core, actor: Actor, id: ElectionId): Promise<void> {
  await auditedTransaction(ctx, { actor, activity: 'Election deleted', data: nameElection(id, null) }, async (tx, note) => {
    note.afterCommit(() => {
      ctx.events.emit('election.changed');
      ctx.events.emit('candidates.changed');
    });
    // This election's lock exclusively: no vote in it is in flight while it goes (votes in other
    // elections never wait for it), and two deletions of it run one after the other.
    // Its (empty) ballot partitions stay: dropping one would lock the whole ballot tables (ADR 009).
    await lockElection(tx, id);
    // Named as it goes: the log is all that keeps its title.
    note.data(nameElection(id, (await readExisting(tx, id)).title));
    if (await electionHasVotes(tx, id)) throw AppError.say('CONFLICT', 'error.electionHasVotes');
    // The last one too: an installation starts and serves with no election at all (docs/api.md
    // "Deleting elections"), an empty list and dashboard until the admin creates one.
    await deleteElectionRow(tx, id);
  });
}

/**
 * A new election in set-up with the same positions (with their eligibility and nomination rules),
 * motions (their options), seats, methods, results visibility and electorate (its branches, rules
 * and elected_in), and the candidacies when asked; no schedule (nor nominations or register
 * window), votes or receipts.
 * The electorate's branches are checked as an edit's are, and one that no longer exists (an id
 * left by a branch deletion from before deletions counted electorates) is left out and the log
 * says so: no member was ever in it when it went (members.branch_id restricts the deletion), so
 * the copy's roll is the same, and refusing would leave no way to copy an election whose own
 * electorate is frozen.
 */
export async function copyElection(ctx: Core, actor: Actor, id: ElectionId, input: CopyElectionBody): Promise<Election> {
  const created = await auditedTransaction(
    ctx,
    {
      actor,
      activity: 'Election copied',
      data: ({ to, leftOut }: { to: number; leftOut: number[] }) =>
        `election ${id} to ${to}: ${input.title}${input.candidates ? ', with candidates' : ''}` +
        (leftOut.length ? `; left out of the electorate: no branch has the id ${leftOut.join(', ')}` : ''),
    },
    async (tx, note) => {
      note.afterCommit(() => {
        ctx.events.emit('election.changed');
        ctx.events.emit('candidates.changed');
      });
      const source = await readExisting(tx, id);
      const leftOut = await unknownBranches(tx, source.electorateBranchIds);
      const to = await insertElection(
        tx,
        {
          title: input.title,
          description: source.description,
          resultsVisibility: source.resultsVisibility,
          electorateBranchIds: source.electorateBranchIds?.filter((b) => !leftOut.includes(b)) ?? null,
          electorateRules: source.electorateRules ?? [],
          electedIn: source.electedIn ?? null,
        },
        ctx.now(),
      );
      for (const p of await positionRowsOf(tx, id)) {
        const copy = await copyPosition(tx, p, to);
        if (p.kind !== 'motion' && input.candidates) await copyCandidacies(tx, p.id, copy);
      }
      return { to, leftOut };
    },
  );
  return getElectionById(ctx, created.to);
}

/** Archives a closed election (else 409): it leaves the public list and stops being the current one. */
export async function archiveElection(ctx: Core, actor: Actor, id: ElectionId): Promise<Election> {
  await auditedTransaction(ctx, { actor, activity: 'Election archived', data: nameElection(id, null) }, async (tx, note) => {
    note.afterCommit(() => ctx.events.emit('election.changed'));
    // Read under the row's lock: the log names the election as the archive found it.
    await lockForUpdate(tx, id);
    const row = await readExisting(tx, id);
    note.data(nameElection(id, row.title));
    if (!row.closedAt) throw AppError.say('CONFLICT', 'error.archiveOnlyClosed');
    await markArchived(tx, ctx.now(), id);
  });
  return getElectionById(ctx, id);
}
