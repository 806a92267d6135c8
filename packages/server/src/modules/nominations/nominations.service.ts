import type { Core } from '../../core';
import type { MembersContext } from '../members';
import type {
  AcceptNominationBody,
  CreateNominationBody,
  DecideNominationBody,
  Nomination,
  NominationStatus,
  Paginated,
  PublicNomination,
} from '@kura/contract';
import { and, eq, ne, notInArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { nominations, nominationSupporters } from '../../db/schema';
import { lockForShare, readNominationsWindow, readState, type ElectionId } from '../../db/election-store';
import { memberName, membersNamed, updateMemberRow } from '../../db/member-store';
import { memberPositionsIn } from '../../db/candidacy-store';
import { lockPositionIn, positionSeatsOf } from '../../db/position-store';
import { AppError } from '../../errors';
import type { Actor, SignedInActor } from '../../auth/actor';
import { auditedTransaction } from '../../lib/audited-transaction';
import { REFUSED_PER_SUBJECT, refusalsSince } from '../../lib/activity-log';
import { positionTitle } from '../../lib/position-title';
import { pageRequest } from '../../lib/pagination';
import { removeUploads, storeImages, uploadUrl, type UploadFile } from '../../lib/uploads';
import { assertNotClosedIn } from '../lifecycle';
import { lockElectionForCandidacies, replacePositions } from '../members';
import { eligibilityChecks, isOnRoll } from './roll-port';
import {
  nominationById,
  nominationsOfMember,
  nominationsPage,
  publicNominations,
  supportersOf,
  type SupporterRow,
} from '../../db/nomination-store';
import { sendNominationNotices, type NominationNotice } from './notify';

/**
 * Nominations (docs/api.md "Nominations"): each use case one audited transaction that locks the
 * nomination's row first, so two supporters answering at once, or an answer and a withdrawal, are
 * applied one after the other and the status follows from all of them. The register is read
 * through `roll-port.ts` only. Members named are told after the commit (`notify.ts`).
 */

type Window = { opensAt: Date; closesAt: Date; appealDays: number };

/** The election's window, and whether voting has opened (which ends nominations, decisions and appeals). */
async function electionOf(tx: Tx, id: ElectionId): Promise<{ window: Window | null; opened: boolean; closed: boolean }> {
  const e = await readState(tx, id);
  const w = e.nominations;
  return {
    window: w ? { opensAt: new Date(w.opens_at), closesAt: new Date(w.closes_at), appealDays: w.appeal_days } : null,
    opened: e.openedAt !== null,
    closed: e.closedAt !== null,
  };
}

/** Nominating, supporting and accepting happen inside the window, before voting opens (403 otherwise). */
async function assertWindowOpen(ctx: MembersContext, tx: Tx, id: ElectionId): Promise<Window> {
  const e = await electionOf(tx, id);
  const now = ctx.now().getTime();
  if (!e.window || e.opened || e.closed || now < e.window.opensAt.getTime() || now >= e.window.closesAt.getTime())
    throw AppError.say('FORBIDDEN', 'nominations.closed');
  return e.window;
}

/** The refusal once voting has opened, by what was tried. */
const OPENED = {
  withdrawn: 'nominations.openedWithdraw',
  appealed: 'nominations.openedAppeal',
  decided: 'nominations.openedDecide',
} as const;

/** Decisions and appeals go on until voting opens (409 after). */
async function assertNotOpened(tx: Tx, id: ElectionId, what: 'withdrawn' | 'appealed' | 'decided'): Promise<Window | null> {
  // Share-locked: an opening in flight (which holds the row for update) commits first and is seen.
  await lockForShare(tx, id);
  const e = await electionOf(tx, id);
  if (e.opened || e.closed) throw AppError.say('CONFLICT', OPENED[what]);
  return e.window;
}

type Row = typeof nominations.$inferSelect;

/** The nomination's row, locked for the change (404 when there is none). */
/**
 * Takes the candidacy lock of the nomination's election (a nomination never moves to another
 * election), then the nomination's row: a decision or withdrawal changes that election's candidates.
 */
async function lockNominationAndElection(tx: Tx, id: number): Promise<Row> {
  const [owner] = await tx.select({ electionId: nominations.electionId }).from(nominations).where(eq(nominations.id, id));
  if (!owner) throw AppError.say('NOT_FOUND', 'nominations.notFound');
  await lockElectionForCandidacies(tx, owner.electionId);
  return lockNomination(tx, id);
}

async function lockNomination(tx: Tx, id: number): Promise<Row> {
  const [row] = await tx.select().from(nominations).where(eq(nominations.id, id)).for('update');
  if (!row) throw AppError.say('NOT_FOUND', 'nominations.notFound');
  return row;
}

async function supportersLocked(tx: Tx, id: number): Promise<SupporterRow[]> {
  return (await supportersOf(tx, [id])).get(id) ?? [];
}

const firstProposer = (supporters: SupporterRow[]) => supporters.find((s) => s.role === 'proposer');

async function positionOf(tx: Tx, id: number) {
  return (await positionSeatsOf(tx, id))!;
}

/**
 * Where the supporters' answers and the nominee's acceptance leave it: waiting for support until
 * every supporter confirmed, then for the nominee, then submitted, with the position's
 * eligibility checks run on the nominee.
 */
async function advance(ctx: Core, tx: Tx, row: Row, supporters: SupporterRow[], now: Date): Promise<NominationStatus> {
  const status: NominationStatus = supporters.some((s) => !s.confirmed)
    ? 'awaiting_support'
    : row.accepted === true
      ? 'submitted'
      : 'awaiting_acceptance';
  const checks = status === 'submitted' ? await eligibilityChecks(ctx, tx, row.positionId, row.nomineeId) : row.checks;
  await tx.update(nominations).set({ status, checks, updatedAt: now }).where(eq(nominations.id, row.id));
  return status;
}

/**
 * A refusal names the member a member number belongs to, and a nomination made tells everyone it
 * names: so a member's refused nominations are limited (REFUSED_NOMINATIONS_PER_HOUR, counted from
 * the activity log, so across processes: a script cannot read the register's names through the
 * refusals), and so are the nominations a member makes for one position, withdrawn ones included
 * (`seats + MADE_BEYOND_SEATS`: making and withdrawing cannot text the same members again and again).
 */
// The log keeps at most REFUSED_PER_SUBJECT of one member's refusals per activity and ten minutes,
// so that is the most this count can see at once.
export const REFUSED_NOMINATIONS_PER_HOUR = REFUSED_PER_SUBJECT;
export const MADE_BEYOND_SEATS = 2;
const HOUR_MS = 3_600_000;

async function assertRefusalsBelowLimit(ctx: MembersContext, actor: SignedInActor): Promise<void> {
  const since = new Date(ctx.now().getTime() - HOUR_MS);
  const row = await refusalsSince(ctx.database.db, 'Nomination made', actor, since);
  if ((row?.n ?? 0) < REFUSED_NOMINATIONS_PER_HOUR) return;
  const first = row?.first ? Date.parse(row.first) : ctx.now().getTime();
  const retryAfter = Math.max(1, Math.ceil((first + HOUR_MS - ctx.now().getTime()) / 1000));
  throw AppError.say('TOO_MANY_REQUESTS', 'nominations.tooManyRefused', undefined, { retryAfter });
}

export const TOO_MANY_REFUSED = 'Too many of your nominations were refused in the last hour; please try again later';

/** POST psk/nominations: every rule, each refusal naming the member or field; nothing is created on any. */
export async function createNomination(
  ctx: MembersContext,
  actor: SignedInActor,
  electionId: ElectionId,
  input: CreateNominationBody,
): Promise<Nomination> {
  await assertRefusalsBelowLimit(ctx, actor);
  const created = await auditedTransaction(
    ctx,
    {
      actor,
      activity: 'Nomination made',
      data: (n: Nomination) =>
        `election ${electionId}: nomination ${n.id} of ${n.nominee.member_no} for ${n.position} (election ${electionId}), supporters ${n.supporters.map((s) => `${s.member_no} ${s.role}`).join(', ')}`,
    },
    async (tx, note) => {
      // Told once it committed, from this attempt's own list (a re-run after a conflict starts a new one).
      const notices: NominationNotice[] = [];
      note.afterCommit(() => announce(ctx, notices, false));
      note.data(`election ${electionId}: nomination of ${input.nominee_member_no} for position ${input.position_id}`);
      await assertWindowOpen(ctx, tx, electionId);
      // The position's row for update: supports for it are counted and added one nomination at a time.
      const position = await lockPositionIn(tx, input.position_id, electionId);
      if (!position) throw AppError.fieldsSaid({ position_id: [{ id: 'vote.positionMissing' }] });
      const rule = position.kind === 'candidates' ? position.nomination : null;
      if (!rule)
        throw AppError.fieldsSaid({
          position_id: [{ id: 'nominations.positionTakesNone', values: { position: positionTitle(position) } }],
        });
      const [made] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(nominations)
        .where(and(eq(nominations.positionId, position.id), eq(nominations.createdBy, actor.id)));
      const most = position.seats + MADE_BEYOND_SEATS;
      if ((made?.n ?? 0) >= most)
        throw AppError.fieldsSaid({
          position_id: [{ id: 'nominations.mostMade', values: { count: most, position: positionTitle(position) } }],
        });

      const wanted = [input.nominee_member_no, ...input.supporters.map((s) => s.member_no)];
      const found = await membersNamed(tx, wanted);
      const byNo = new Map(found.map((m) => [m.memberNo, m]));
      const nominee = byNo.get(input.nominee_member_no);
      if (!nominee)
        throw AppError.fieldsSaid({ nominee_member_no: [{ id: 'nominations.noMember', values: { memberNo: input.nominee_member_no } }] });

      // Who may nominate: a proposer, or the nominee where the position allows self-nomination.
      const callerIsProposer = input.supporters.some((s) => s.role === 'proposer' && byNo.get(s.member_no)?.id === actor.id);
      const callerIsNominee = nominee.id === actor.id;
      if (!callerIsProposer && !(callerIsNominee && rule.self))
        throw AppError.say('FORBIDDEN', rule.self ? 'nominations.onlyProposerOrNominee' : 'nominations.onlyProposer');

      if (!(await isOnRoll(ctx, tx, electionId, nominee.id)))
        throw AppError.fieldsSaid({
          nominee_member_no: [{ id: 'nominations.offRoll', values: { who: `${nominee.memberNo} ${nominee.name}` } }],
        });
      const [standing] = await tx
        .select({ id: nominations.id })
        .from(nominations)
        .where(
          and(
            eq(nominations.positionId, position.id),
            eq(nominations.nomineeId, nominee.id),
            notInArray(nominations.status, ['withdrawn', 'invalid']),
          ),
        )
        .limit(1);
      if (standing)
        throw AppError.fieldsSaid({
          nominee_member_no: [
            {
              id: 'nominations.alreadyNominated',
              values: { who: `${nominee.memberNo} ${nominee.name}`, position: positionTitle(position) },
            },
          ],
        });

      const proposers = input.supporters.filter((s) => s.role === 'proposer').length;
      const seconders = input.supporters.length - proposers;
      if (proposers !== rule.proposers || seconders !== rule.seconders)
        throw AppError.fieldsSaid({
          supporters: [
            {
              id: 'nominations.needs',
              values: { position: positionTitle(position), proposers: rule.proposers, seconders: rule.seconders },
            },
          ],
        });

      const seen = new Set<number>();
      const branchId = position.branchId ?? nominee.branchId;
      for (const [i, s] of input.supporters.entries()) {
        const field = `supporters.${i}.member_no`;
        const m = byNo.get(s.member_no);
        if (!m) throw AppError.fieldsSaid({ [field]: [{ id: 'nominations.noMember', values: { memberNo: s.member_no } }] });
        const who = `${m.memberNo} ${m.name}`;
        if (m.id === nominee.id) throw AppError.fieldsSaid({ [field]: [{ id: 'nominations.nomineeSupports', values: { who } }] });
        if (seen.has(m.id)) throw AppError.fieldsSaid({ [field]: [{ id: 'nominations.namedTwice', values: { who } }] });
        seen.add(m.id);
        if (!(await isOnRoll(ctx, tx, electionId, m.id)))
          throw AppError.fieldsSaid({ [field]: [{ id: 'nominations.offRoll', values: { who } }] });
        if (rule.same_branch && m.branchId !== branchId)
          throw AppError.fieldsSaid({
            [field]: [
              { id: position.branchId !== null ? 'nominations.notPositionBranch' : 'nominations.notNomineeBranch', values: { who } },
            ],
          });
        const [count] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(nominationSupporters)
          .innerJoin(nominations, eq(nominations.id, nominationSupporters.nominationId))
          .where(
            and(eq(nominationSupporters.memberId, m.id), eq(nominations.positionId, position.id), ne(nominations.status, 'withdrawn')),
          );
        if (Number(count?.n ?? 0) >= position.seats)
          throw AppError.fieldsSaid({
            [field]: [{ id: 'nominations.tooManySupports', values: { who, count: position.seats, position: positionTitle(position) } }],
          });
      }

      const now = ctx.now();
      const [row] = await tx
        .insert(nominations)
        .values({
          electionId,
          positionId: position.id,
          nomineeId: nominee.id,
          createdBy: actor.id,
          statement: input.statement || null,
          status: 'awaiting_support',
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const sortOf = { proposer: 0, seconder: 0 };
      await tx.insert(nominationSupporters).values(
        input.supporters.map((s) => {
          const m = byNo.get(s.member_no)!;
          return { nominationId: row!.id, memberId: m.id, role: s.role, sort: sortOf[s.role]++, confirmed: m.id === actor.id };
        }),
      );
      // The caller's own support counts as given: a nomination with no one else to confirm moves on at once.
      await advance(ctx, tx, row!, await supportersLocked(tx, row!.id), now);

      const title = positionTitle(position);
      const by = actor.name;
      for (const s of input.supporters) {
        const m = byNo.get(s.member_no)!;
        if (m.id !== actor.id)
          notices.push({ memberId: m.id, id: 'nomination.named', values: { by, role: s.role, nominee: nominee.name, position: title } });
      }
      if (nominee.id !== actor.id) notices.push({ memberId: nominee.id, id: 'nomination.nominated', values: { by, position: title } });
      return nominationById(tx, row!.id);
    },
  );
  return created;
}

export async function listMyNominations(ctx: MembersContext, memberId: number, electionId: ElectionId): Promise<Nomination[]> {
  return nominationsOfMember(ctx.database.db, electionId, memberId);
}

/** A decline withdraws the nomination: its nominee and first proposer are told. */
function withdrawalNotices(row: Row, supporters: SupporterRow[], title: string, nomineeName: string, except: number): NominationNotice[] {
  const told = [row.nomineeId, firstProposer(supporters)?.memberId].filter((id): id is number => id !== undefined && id !== except);
  return [...new Set(told)].map((memberId) => ({
    memberId,
    id: 'nomination.withdrawn',
    values: { nominee: nomineeName, position: title },
  }));
}

async function nomineeName(tx: Tx, row: Row): Promise<string> {
  return (await memberName(tx, row.nomineeId)) ?? '';
}

const OPEN_FOR_ANSWERS: NominationStatus[] = ['awaiting_support', 'awaiting_acceptance'];

/** POST psk/nominations/{id}/support: a named supporter confirms or declines. */
export async function supportNomination(ctx: MembersContext, actor: SignedInActor, id: number, confirm: boolean): Promise<Nomination> {
  const detail = `nomination ${id}`;
  const answer = await auditedTransaction(
    ctx,
    { actor, activity: confirm ? 'Nomination supported' : 'Nomination support declined', data: detail },
    async (tx, note) => {
      // Told once it committed, from this attempt's own list (a re-run after a conflict starts a new one).
      const notices: NominationNotice[] = [];
      note.afterCommit(() => announce(ctx, notices, false));
      const row = await lockNomination(tx, id);
      note.data(`election ${row.electionId}: ${detail}`);
      const supporters = await supportersLocked(tx, id);
      const mine = supporters.find((s) => s.memberId === actor.id);
      if (!mine) throw AppError.say('FORBIDDEN', 'nominations.onlySupporters');
      await assertWindowOpen(ctx, tx, row.electionId);
      if (!OPEN_FOR_ANSWERS.includes(row.status)) throw AppError.say('CONFLICT', 'nominations.notAwaitingSupport');
      const now = ctx.now();
      if (confirm) {
        await tx
          .update(nominationSupporters)
          .set({ confirmed: true })
          .where(and(eq(nominationSupporters.nominationId, id), eq(nominationSupporters.memberId, actor.id)));
        await advance(ctx, tx, row, await supportersLocked(tx, id), now);
      } else {
        await tx.update(nominations).set({ status: 'withdrawn', updatedAt: now }).where(eq(nominations.id, id));
        const title = positionTitle(await positionOf(tx, row.positionId));
        notices.push(...withdrawalNotices(row, supporters, title, await nomineeName(tx, row), actor.id));
      }
      return nominationById(tx, id);
    },
  );
  return answer;
}

/**
 * POST psk/nominations/{id}/accept: the nominee accepts (statement, photo) or declines. The photo
 * is checked and written before the transaction (a bad image changes nothing) and removed again if
 * the transaction refuses; a photo it replaces is removed once it commits.
 */
export async function acceptNomination(
  ctx: MembersContext,
  actor: SignedInActor,
  id: number,
  input: AcceptNominationBody,
  photo?: UploadFile,
): Promise<Nomination> {
  const [stored] = photo ? await storeImages(ctx, [photo]) : [];
  const photoUrl = stored ? uploadUrl(stored) : undefined;
  let previous: string | null = null;
  const detail = `nomination ${id}${input.statement !== undefined ? ', statement' : ''}${photoUrl ? ', photo' : ''}`;
  try {
    const answer = await auditedTransaction(
      ctx,
      {
        actor,
        activity: input.accept ? 'Nomination accepted' : 'Nomination declined',
        data: detail,
      },
      async (tx, note) => {
        // Told once it committed, from this attempt's own list (a re-run after a conflict starts a new one).
        const notices: NominationNotice[] = [];
        note.afterCommit(() => announce(ctx, notices, false));
        const row = await lockNomination(tx, id);
        note.data(`election ${row.electionId}: ${detail}`);
        if (row.nomineeId !== actor.id) throw AppError.say('FORBIDDEN', 'nominations.onlyNominee');
        await assertWindowOpen(ctx, tx, row.electionId);
        if (!OPEN_FOR_ANSWERS.includes(row.status)) throw AppError.say('CONFLICT', 'nominations.notAwaitingNominee');
        const now = ctx.now();
        const supporters = await supportersLocked(tx, id);
        if (!input.accept) {
          await tx.update(nominations).set({ status: 'withdrawn', accepted: false, updatedAt: now }).where(eq(nominations.id, id));
          const title = positionTitle(await positionOf(tx, row.positionId));
          notices.push(...withdrawalNotices(row, supporters, title, await nomineeName(tx, row), actor.id));
          return nominationById(tx, id);
        }
        previous = photoUrl ? row.photoUrl : null;
        const [updated] = await tx
          .update(nominations)
          .set({
            accepted: true,
            ...(input.statement !== undefined ? { statement: input.statement || null } : {}),
            ...(photoUrl ? { photoUrl } : {}),
            updatedAt: now,
          })
          .where(eq(nominations.id, id))
          .returning();
        await advance(ctx, tx, updated!, supporters, now);
        return nominationById(tx, id);
      },
    );
    if (previous) await removeUploads(ctx, [previous]);
    return answer;
  } catch (error) {
    if (stored) await removeUploads(ctx, [stored]);
    throw error;
  }
}

/** The nominee's candidacy for the position, as `assign/psk/position` adds it, with the nomination's statement and photo. */
async function makeCandidate(tx: Tx, row: Row): Promise<void> {
  await assertNotClosedIn(tx, 'its candidates', row.electionId);
  const current = await memberPositionsIn(tx, row.nomineeId, row.electionId);
  await replacePositions(tx, row.nomineeId, [...current, row.positionId], row.electionId);
  const set = {
    ...(row.statement !== null ? { statement: row.statement } : {}),
    ...(row.photoUrl !== null ? { photoUrl: row.photoUrl } : {}),
  };
  if (Object.keys(set).length > 0) await updateMemberRow(tx, row.nomineeId, set);
}

/** The nominee stops standing for the position (refused, 409, once votes were cast for it). */
async function removeCandidate(tx: Tx, row: Row): Promise<void> {
  const current = await memberPositionsIn(tx, row.nomineeId, row.electionId);
  await replacePositions(
    tx,
    row.nomineeId,
    current.filter((p) => p !== row.positionId),
    row.electionId,
  );
}

/**
 * What a committed withdrawal or decision does next: tells the members named, and when the
 * position's candidates changed, the staff screens and ballots that follow them.
 */
async function announce(ctx: MembersContext, notices: NominationNotice[], candidatesChanged: boolean): Promise<void> {
  ctx.events.emit('nominations.changed');
  await sendNominationNotices(ctx, notices);
  if (candidatesChanged) {
    ctx.events.emit('candidates.changed');
    ctx.events.emit('members.changed');
  }
}

/** POST psk/nominations/{id}/withdraw: the nominee or the first proposer; a valid one stops being a candidate, until voting opens. */
export async function withdrawNomination(ctx: MembersContext, actor: SignedInActor, id: number): Promise<Nomination> {
  const detail = `nomination ${id}`;
  const answer = await auditedTransaction(ctx, { actor, activity: 'Nomination withdrawn', data: detail }, async (tx, note) => {
    // Told once it committed, from this attempt's own list (a re-run after a conflict starts a new one).
    const notices: NominationNotice[] = [];
    let wasValid = false;
    note.afterCommit(() => announce(ctx, notices, wasValid));
    // The candidacy lock before any row lock, as a candidacy change takes it (docs/architecture.md).
    const row = await lockNominationAndElection(tx, id);
    note.data(`election ${row.electionId}: ${detail}`);
    const supporters = await supportersLocked(tx, id);
    if (row.nomineeId !== actor.id && firstProposer(supporters)?.memberId !== actor.id)
      throw AppError.say('FORBIDDEN', 'nominations.onlyWithdrawer');
    if (row.status === 'withdrawn') throw AppError.say('CONFLICT', 'nominations.alreadyWithdrawn');
    wasValid = row.status === 'valid';
    if (wasValid) {
      await assertNotOpened(tx, row.electionId, 'withdrawn');
      await removeCandidate(tx, row);
    }
    await tx.update(nominations).set({ status: 'withdrawn', updatedAt: ctx.now() }).where(eq(nominations.id, id));
    const title = positionTitle(await positionOf(tx, row.positionId));
    notices.push(...withdrawalNotices(row, supporters, title, await nomineeName(tx, row), actor.id));
    return nominationById(tx, id);
  });
  return answer;
}

/** POST psk/nominations/{id}/appeal: the nominee, once, within appeal_days of an invalid decision, before voting opens. */
export async function appealNomination(ctx: MembersContext, actor: SignedInActor, id: number, grounds: string): Promise<Nomination> {
  const detail = `nomination ${id}`;
  const answer = await auditedTransaction(ctx, { actor, activity: 'Nomination appealed', data: detail }, async (tx, note) => {
    note.afterCommit(() => ctx.events.emit('nominations.changed'));
    const row = await lockNomination(tx, id);
    note.data(`election ${row.electionId}: ${detail}`);
    if (row.nomineeId !== actor.id) throw AppError.say('FORBIDDEN', 'nominations.onlyNomineeAppeals');
    if (row.appealStatus !== null) throw AppError.say('CONFLICT', 'nominations.alreadyAppealed');
    if (row.status !== 'invalid' || !row.decisionAt) throw AppError.say('CONFLICT', 'nominations.onlyInvalidAppeals');
    const window = await assertNotOpened(tx, row.electionId, 'appealed');
    const days = window?.appealDays ?? 0;
    if (ctx.now().getTime() > row.decisionAt.getTime() + days * 86_400_000)
      throw AppError.say('CONFLICT', 'nominations.appealTooLate', { days });
    await tx
      .update(nominations)
      .set({ appealGrounds: grounds, appealStatus: 'pending', appealedAt: ctx.now(), updatedAt: ctx.now() })
      .where(eq(nominations.id, id));
    return nominationById(tx, id);
  });
  return answer;
}

/** GET nominations: the returning officer's queue. */
export async function listNominations(
  ctx: MembersContext,
  electionId: ElectionId,
  query: { position_id?: number; status?: NominationStatus; page?: number; per_page?: number },
): Promise<Paginated<Nomination>> {
  return nominationsPage(
    ctx.database.db,
    { electionId, positionId: query.position_id, status: query.status },
    pageRequest({ page: query.page, per_page: query.per_page }),
  );
}

function decisionNotices(row: Row, supporters: SupporterRow[], id: NominationNotice['id'], values: NominationNotice['values']) {
  const told = [row.nomineeId, firstProposer(supporters)?.memberId].filter((m): m is number => m !== undefined);
  return [...new Set(told)].map((memberId) => ({ memberId, id, values }));
}

/** POST nominations/{id}/decision: a submitted one, before voting opens; valid makes a candidate. */
export async function decideNomination(ctx: MembersContext, actor: Actor, id: number, input: DecideNominationBody): Promise<Nomination> {
  const detail = `nomination ${id}${input.reason ? `: ${input.reason}` : ''}${input.override_reason ? `; override: ${input.override_reason}` : ''}`;
  const answer = await auditedTransaction(
    ctx,
    {
      actor,
      activity: input.valid ? 'Nomination decided valid' : 'Nomination decided invalid',
      data: detail,
    },
    async (tx, note) => {
      // Told once it committed, from this attempt's own list (a re-run after a conflict starts a new one).
      const notices: NominationNotice[] = [];
      note.afterCommit(() => announce(ctx, notices, input.valid));
      const row = await lockNominationAndElection(tx, id);
      note.data(`election ${row.electionId}: ${detail}`);
      await assertNotOpened(tx, row.electionId, 'decided');
      if (row.status !== 'submitted') throw AppError.say('CONFLICT', 'nominations.onlySubmitted');
      const failed = row.checks.filter((c) => !c.met).map((c) => c.rule);
      if (input.valid && failed.length > 0 && !input.override_reason)
        throw AppError.fieldsSaid({ override_reason: [{ id: 'nominations.checkFailed', values: { rules: failed.join(', ') } }] });
      const now = ctx.now();
      const [decided] = await tx
        .update(nominations)
        .set({
          status: input.valid ? 'valid' : 'invalid',
          decisionValid: input.valid,
          decisionReason: input.reason || null,
          decisionAt: now,
          overrideReason: input.valid && failed.length > 0 ? input.override_reason! : null,
          updatedAt: now,
        })
        .where(eq(nominations.id, id))
        .returning();
      if (input.valid) await makeCandidate(tx, decided!);
      const title = positionTitle(await positionOf(tx, row.positionId));
      notices.push(
        ...decisionNotices(row, await supportersLocked(tx, id), 'nomination.decided', {
          nominee: await nomineeName(tx, row),
          position: title,
          outcome: input.valid ? 'valid' : 'invalid',
          reason: input.reason || '-',
        }),
      );
      return nominationById(tx, id);
    },
  );
  return answer;
}

/** POST nominations/{id}/appeal/decision: a pending appeal, before voting opens; upheld makes it valid (and a candidate). */
export async function decideAppeal(
  ctx: MembersContext,
  actor: Actor,
  id: number,
  input: { upheld: boolean; reason: string },
): Promise<Nomination> {
  const detail = `nomination ${id}: ${input.reason}`;
  const answer = await auditedTransaction(
    ctx,
    { actor, activity: input.upheld ? 'Nomination appeal upheld' : 'Nomination appeal dismissed', data: detail },
    async (tx, note) => {
      // Told once it committed, from this attempt's own list (a re-run after a conflict starts a new one).
      const notices: NominationNotice[] = [];
      note.afterCommit(() => announce(ctx, notices, input.upheld));
      const row = await lockNominationAndElection(tx, id);
      note.data(`election ${row.electionId}: ${detail}`);
      await assertNotOpened(tx, row.electionId, 'decided');
      if (row.appealStatus !== 'pending' || row.status !== 'invalid') throw AppError.say('CONFLICT', 'nominations.noAppeal');
      const now = ctx.now();
      const [decided] = await tx
        .update(nominations)
        .set({
          appealStatus: input.upheld ? 'upheld' : 'dismissed',
          appealReason: input.reason,
          ...(input.upheld ? { status: 'valid' as const, decisionValid: true, decisionReason: input.reason, decisionAt: now } : {}),
          updatedAt: now,
        })
        .where(eq(nominations.id, id))
        .returning();
      if (input.upheld) await makeCandidate(tx, decided!);
      notices.push(
        ...decisionNotices(row, await supportersLocked(tx, id), 'nomination.appealDecided', {
          nominee: await nomineeName(tx, row),
          position: positionTitle(await positionOf(tx, row.positionId)),
          outcome: input.upheld ? 'upheld' : 'dismissed',
          reason: input.reason,
        }),
      );
      return nominationById(tx, id);
    },
  );
  return answer;
}

export const NOT_PUBLISHED = 'The nominations are published when nominations close';

/** GET elections/{id}/nominations: after the window closes (403 before, and for an election without nominations). */
export async function listPublicNominations(ctx: MembersContext, electionId: ElectionId): Promise<PublicNomination[]> {
  const e = await readNominationsWindow(ctx.database.db, electionId);
  if (!e) throw AppError.say('NOT_FOUND', 'election.noSuch');
  if (!e.nominations || ctx.now().getTime() < Date.parse(e.nominations.closes_at))
    throw AppError.say('FORBIDDEN', 'nominations.notPublished');
  return publicNominations(ctx.database.db, electionId);
}
