import {
  ruleMet,
  type AttributeDef,
  type Claim,
  type ClaimBody,
  type MyRegisterEntry,
  type Paginated,
  type RollMember,
  type RollSummary,
  type Rule,
  type RulingBody,
} from '@kura/contract';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Core } from '../../core';
import {
  electionTitle,
  freezeDueRolls,
  nameElection,
  readOrganisation,
  readState,
  rollEntries,
  rollsDueToFreeze,
  shareOpenedAtAndTitle,
  shareRegisterWindow,
  type ElectionId,
} from '../../db/election-store';
import { memberContacts, memberIdByNumber, memberNoAndName, memberWithBranch } from '../../db/member-store';
import { registerClaims } from '../../db/schema';
import { lockMemberClaims } from '../../db/locks';
import { AppError } from '../../errors';
import type { Actor, SignedInActor } from '../../auth/actor';
import { auditedTransaction } from '../../lib/audited-transaction';
import { paginate, type PageRequest } from '../../lib/pagination';
import { DeliveryError } from '../../delivery';
import { memberLanguage, t, type Language } from '../../i18n';
import type { RegisterContext } from './context';
import { declaredElected, isOnRoll, readAttributeDefs, referenceDay, rollMembers, rollMembersCount, type RollFilter } from './roll';
import { inTransaction } from '../../lib/unit-of-work';

/** At most this many claims of one member wait for a ruling in one election. */
export const MAX_PENDING_CLAIMS = 10;
export const REGISTER_NOT_OPEN = 'The register is not open for claims';

const iso = (d: Date) => d.toISOString();

/** Freezes the rolls whose register has closed (`freezeDueRolls`), when there is one: a read then sees the frozen roll. */
export async function freezeDue(ctx: Core): Promise<void> {
  const now = ctx.now();
  if ((await rollsDueToFreeze(ctx.database.db, now)) === 0) return;
  await inTransaction(ctx, 'Rolls frozen at the register close', async (tx, unit) => {
    if ((await freezeDueRolls(tx, now)).length) unit.afterCommit(() => ctx.events.emit('election.changed'));
  });
}

/** `GET elections/{id}/roll`: size by branch, and once frozen when and its hash. */
export async function getRoll(ctx: Core, id: ElectionId): Promise<RollSummary> {
  await freezeDue(ctx);
  const row = await readState(ctx.database.db, id);
  const byBranch = await ctx.database.db.execute<{ branch: string; size: number }>(sql`
    select roll.branch, count(*)::int as size from (${rollEntries(id, ctx.now())}) roll
    group by roll.branch order by roll.branch`);
  return {
    frozen_at: row.rollFrozenAt ? iso(row.rollFrozenAt) : null,
    size: byBranch.reduce((n, b) => n + Number(b.size), 0),
    hash: row.rollFrozenAt ? row.rollHash : null,
    by_branch: byBranch.map((b) => ({ branch: b.branch, size: Number(b.size) })),
  };
}

/** `GET elections/{id}/roll/members`: the roll as it stands (frozen or not), by member number, filtered. */
export async function getRollMembers(
  ctx: Core,
  id: ElectionId,
  page: PageRequest,
  filter: RollFilter = {},
): Promise<Paginated<RollMember>> {
  await freezeDue(ctx);
  const rows = await rollMembers(ctx, id, { limit: page.perPage, offset: page.offset }, ctx.database.db, filter);
  const total = await rollMembersCount(ctx, id, filter);
  return paginate(
    rows.map((r) => ({ member_no: r.memberNo, name: r.name, branch: r.branch })),
    total,
    page,
  );
}

/** A rule's value in words, in a language. */
function valueWords(language: Language, rule: Rule): string {
  const v = rule.value;
  if (Array.isArray(v)) return v.join(', ');
  if (typeof v === 'boolean') return t(language, v ? 'register.yes' : 'register.no');
  if (typeof v === 'object' && v !== null)
    return 'years_before' in v
      ? t(language, 'register.yearsBefore', { n: v.years_before })
      : t(language, 'register.daysBefore', { n: v.days_before });
  return String(v);
}

/** Why a rule is not met, in the member's language: "Subscription paid: no value", "Shares (KSh): must be at least 20000". */
export function reasonFor(language: Language, rule: Rule, defs: readonly AttributeDef[], value: unknown): string {
  const label = defs.find((d) => d.key === rule.attribute)?.label ?? rule.attribute;
  if (value === undefined || value === null) return t(language, 'register.noValue', { label });
  return t(language, 'register.ruleNotMet', { label, op: rule.op, value: valueWords(language, rule) });
}

/** `GET psk/register`: am I on the roll, and if not, why (in the member's language). */
export async function getMyEntry(ctx: Core, memberId: number, id: ElectionId): Promise<MyRegisterEntry> {
  await freezeDue(ctx);
  const db = ctx.database.db;
  const me = await memberWithBranch(db, memberId);
  if (!me) throw new AppError('UNAUTHENTICATED');
  const row = await readState(db, id);
  const org = await readOrganisation(db);
  const language = memberLanguage(me, org.defaultLanguage);
  const onRoll = await isOnRoll(ctx, id, memberId);
  const reasons: string[] = [];
  if (!onRoll) {
    if (row.rollFrozenAt) {
      reasons.push(t(language, 'register.frozenWithout'));
    } else {
      if (row.electorateBranchIds && !row.electorateBranchIds.includes(me.branchId))
        reasons.push(t(language, 'register.branchOutside', { branch: me.branch }));
      const defs = org.attributes ?? [];
      const ref = await referenceDay(ctx, id);
      for (const rule of row.electorateRules ?? [])
        if (!ruleMet(rule, me.attributes[rule.attribute], ref))
          reasons.push(reasonFor(language, rule, defs, me.attributes[rule.attribute]));
      if (row.electedIn && !(await declaredElected(db, row.electedIn, memberId))) {
        const source = await electionTitle(db, row.electedIn.election_id);
        reasons.push(t(language, 'register.notElected', { election: source || `${row.electedIn.election_id}` }));
      }
    }
  }
  // The branch shown is the one the roll records once frozen.
  return {
    on_roll: onRoll,
    frozen: row.rollFrozenAt !== null,
    member_no: me.memberNo,
    name: me.name,
    branch: me.branch,
    reasons,
    register:
      row.registerOpensAt && row.registerClosesAt ? { opens_at: iso(row.registerOpensAt), closes_at: iso(row.registerClosesAt) } : null,
  };
}

type ClaimRow = typeof registerClaims.$inferSelect;
const toClaim = (c: ClaimRow): Claim => ({
  id: c.id,
  election_id: c.electionId,
  member_no: c.memberNo,
  name: c.name,
  kind: c.kind,
  subject_member_no: c.subjectMemberNo,
  details: c.details,
  status: c.status,
  reason: c.reason,
  created_at: iso(c.createdAt),
  decided_at: c.decidedAt ? iso(c.decidedAt) : null,
});

/**
 * `POST psk/register/claims`: only while the register is open (403 otherwise, the roll frozen
 * included); an objection names a member on the roll (422 otherwise); at most MAX_PENDING_CLAIMS
 * pending per member and election (409), counted under the member's claims lock.
 */
export async function fileClaim(ctx: Core, actor: SignedInActor, id: ElectionId, body: ClaimBody): Promise<Claim> {
  await freezeDue(ctx);
  const created = await auditedTransaction(
    ctx,
    {
      actor,
      activity: 'Register claim filed',
      data: (c: ClaimRow) =>
        `${nameElection(id, null)}; claim ${c.id}: ${c.kind}${c.subjectMemberNo ? ` against ${c.subjectMemberNo}` : ''}`,
    },
    async (tx) => {
      await lockMemberClaims(tx, actor.id);
      const row = await shareRegisterWindow(tx, id);
      const now = ctx.now();
      if (!row || !row.opens || !row.closes || row.frozen || now < row.opens || now >= row.closes)
        throw AppError.say('FORBIDDEN', 'error.registerNotOpen');
      const me = await memberNoAndName(tx, actor.id);
      if (!me) throw new AppError('UNAUTHENTICATED');
      let subject: string | null = null;
      if (body.kind === 'objection') {
        const other = await memberIdByNumber(tx, body.subject_member_no!.trim());
        if (!other || !(await isOnRoll(ctx, id, other.id, tx)))
          throw AppError.fieldsSaid({ subject_member_no: [{ id: 'error.objectionOnRoll' }] });
        if (other.id === actor.id) throw AppError.fieldsSaid({ subject_member_no: [{ id: 'error.objectionOther' }] });
        subject = other.memberNo;
      }
      const [pending] = await tx
        .select({ n: count() })
        .from(registerClaims)
        .where(and(eq(registerClaims.memberId, actor.id), eq(registerClaims.electionId, id), eq(registerClaims.status, 'pending')));
      if ((pending?.n ?? 0) >= MAX_PENDING_CLAIMS) throw AppError.say('CONFLICT', 'error.claimsPending', { n: MAX_PENDING_CLAIMS });
      const [inserted] = await tx
        .insert(registerClaims)
        .values({
          electionId: id,
          memberId: actor.id,
          memberNo: me.memberNo,
          name: me.name,
          kind: body.kind,
          subjectMemberNo: subject,
          details: body.details,
          createdAt: now,
        })
        .returning();
      return inserted!;
    },
  );
  return toClaim(created);
}

/** `GET psk/register/claims`: the caller's own claims in the election, newest first. */
export async function myClaims(ctx: Core, memberId: number, id: ElectionId): Promise<Claim[]> {
  const rows = await ctx.database.db
    .select()
    .from(registerClaims)
    .where(and(eq(registerClaims.memberId, memberId), eq(registerClaims.electionId, id)))
    .orderBy(sql`${registerClaims.id} desc`);
  return rows.map(toClaim);
}

/** `GET register/claims`: the election's claims (of one status), oldest first. */
export async function listClaims(
  ctx: Core,
  id: ElectionId,
  status: Claim['status'] | undefined,
  page: PageRequest,
): Promise<Paginated<Claim>> {
  const where = and(eq(registerClaims.electionId, id), status ? eq(registerClaims.status, status) : undefined);
  const [total] = await ctx.database.db.select({ n: count() }).from(registerClaims).where(where);
  const rows = await ctx.database.db
    .select()
    .from(registerClaims)
    .where(where)
    .orderBy(asc(registerClaims.id))
    .limit(page.perPage)
    .offset(page.offset);
  return paginate(rows.map(toClaim), total?.n ?? 0, page);
}

/**
 * `POST register/claims/{id}/ruling`: upheld or dismissed with a reason, until voting opens (409
 * after, or when already ruled). The claimant is told by e-mail (when they have one) or SMS, in
 * their language, after the commit. A ruling never edits the register by itself.
 */
export async function ruleOnClaim(ctx: RegisterContext, actor: Actor, claimId: number, body: RulingBody): Promise<Claim> {
  const claim = await auditedTransaction(
    ctx,
    { actor, activity: 'Register claim ruled', data: `claim ${claimId}: ${body.decision}; ${body.reason.slice(0, 200)}` },
    async (tx, note) => {
      const [claim] = await tx.select().from(registerClaims).where(eq(registerClaims.id, claimId)).for('update');
      if (!claim) throw AppError.say('NOT_FOUND', 'error.noSuchClaim');
      const e = await shareOpenedAtAndTitle(tx, claim.electionId);
      if (e?.openedAt) throw AppError.say('CONFLICT', 'error.claimsAfterOpening');
      if (claim.status !== 'pending') throw AppError.say('CONFLICT', 'error.claimRuled');
      const [updated] = await tx
        .update(registerClaims)
        .set({ status: body.decision, reason: body.reason, decidedAt: ctx.now() })
        .where(eq(registerClaims.id, claimId))
        .returning();
      const who = await memberContacts(tx, claim.memberId);
      const org = await readOrganisation(tx);
      if (who) note.afterCommit(() => tellClaimant(ctx, updated!, who, org, e?.title ?? ''));
      return updated!;
    },
  );
  return toClaim(claim);
}

/** The ruling, told to the claimant in their language by e-mail (when they have one) or SMS, on the notices queue. */
function tellClaimant(
  ctx: RegisterContext,
  claim: typeof registerClaims.$inferSelect,
  who: { phone: string; email: string | null; language: string | null },
  org: Awaited<ReturnType<typeof readOrganisation>>,
  electionTitle: string,
): void {
  const language = memberLanguage(who, org.defaultLanguage);
  const orgName = org.name.trim() || ctx.env.APP_NAME;
  const values = {
    org: orgName,
    election: electionTitle || `${claim.electionId}`,
    kind: claim.kind,
    decision: claim.status,
    reason: claim.reason ?? '',
  };
  const text = t(language, 'register.ruling.text', values);
  const subject = t(language, 'register.ruling.subject', { org: orgName });
  ctx.notices.enqueue(async () => {
    try {
      if (who.email) await ctx.delivery.sendEmail({ to: who.email, subject, text });
      else await ctx.delivery.sendSms({ to: who.phone, message: text });
    } catch (error) {
      const reason = error instanceof DeliveryError ? error.message : 'delivery failed';
      ctx.logger.warn({ claimId: claim.id, reason }, 'ruling notice not delivered');
    }
  });
}

/** `GET organisation/attributes`. */
export async function getAttributeDefs(ctx: Core): Promise<AttributeDef[]> {
  return readAttributeDefs(ctx.database.db);
}
