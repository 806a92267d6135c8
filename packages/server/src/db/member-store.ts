import type { Branch, Member } from '@kura/contract';
import { and, asc, count, eq, ilike, inArray, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from './client';
import { branches, members } from './schema';
import { organisationValue } from './election-store';
import { likeContains, type PageRequest } from '../lib/pagination';

/**
 * The member store: the SQL of the register's tables, `members` and `branches`, which the members
 * module owns (db/schema/owners.ts; docs/architecture.md "Where state lives"). Its rules (the
 * uniqueness refusals, the branch lock after a vote, contact changes, the import) stay in the
 * module and call these; each function runs on the handle it is given, inside the caller's unit of
 * work, and opens no transaction and takes no advisory lock. It sits under `db/` like the election
 * store because modules below the members module in the module order (elections, register, ballots)
 * read these tables too and could not import the module without a cycle.
 */

type Reader = Db | Tx;

export type MemberRow = typeof members.$inferSelect;

/** A member's attribute values as stored (a cleared value is no key). */
export type StoredAttributes = MemberRow['attributes'];

/** A member's own fields, as the member edit, the candidate edit and the import write them. */
export type MemberFields = Partial<Omit<typeof members.$inferInsert, 'id' | 'createdAt'>>;

export type MemberFilters = { query?: string; county?: string; phone?: string; email?: string };

/** Which member: by id or by member number. */
export type MemberKey = { id: number } | { memberNo: string };

const DIGITS = /^\d+$/;

const keyOf = (key: MemberKey): SQL => ('id' in key ? eq(members.id, key.id) : eq(members.memberNo, key.memberNo));

// ---- branches ----

/** Every branch, by name (the branch list). */
export async function listBranches(db: Reader): Promise<Branch[]> {
  return db.select({ id: branches.id, name: branches.name }).from(branches).orderBy(asc(branches.name));
}

/** Every branch, in no order (the import keys them by name and id). */
export async function allBranches(db: Reader): Promise<Branch[]> {
  return db.select({ id: branches.id, name: branches.name }).from(branches);
}

/** The names of the first `limit` branches by id (the import template's examples). */
export async function firstBranchNames(db: Reader, limit: number): Promise<string[]> {
  return (await db.select({ name: branches.name }).from(branches).orderBy(asc(branches.id)).limit(limit)).map((b) => b.name);
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

/** Creates these branches; answers them with their ids. */
export async function insertBranches(tx: Tx, names: string[]): Promise<Branch[]> {
  return tx
    .insert(branches)
    .values(names.map((name) => ({ name })))
    .returning({ id: branches.id, name: branches.name });
}

/** Locks the branch row for the rest of the transaction (`for update`: a rename or a deletion); undefined when there is none. */
export async function lockBranch(tx: Tx, id: number): Promise<Branch | undefined> {
  const [row] = await tx.select({ id: branches.id, name: branches.name }).from(branches).where(eq(branches.id, id)).for('update');
  return row;
}

/**
 * The branches `key share` locked, as a foreign key to them would: a rename or deletion in flight
 * commits first, one that starts later waits. Every branch by name, or the one with `id`.
 */
export async function keyShareBranches(tx: Tx, id?: number): Promise<Branch[]> {
  if (id === undefined)
    return tx.select({ id: branches.id, name: branches.name }).from(branches).orderBy(asc(branches.name)).for('key share');
  return tx.select({ id: branches.id, name: branches.name }).from(branches).where(eq(branches.id, id)).for('key share');
}

/** Whether another branch (but `exceptId`) has this name, in any case. */
export async function branchNameTaken(db: Reader, name: string, exceptId?: number): Promise<boolean> {
  const [taken] = await db
    .select({ id: branches.id })
    .from(branches)
    .where(and(sql`lower(${branches.name}) = lower(${name})`, exceptId ? ne(branches.id, exceptId) : undefined));
  return taken !== undefined;
}

export async function renameBranchRow(tx: Tx, id: number, name: string): Promise<void> {
  await tx.update(branches).set({ name }).where(eq(branches.id, id));
}

export async function deleteBranchRow(tx: Tx, id: number): Promise<void> {
  await tx.delete(branches).where(eq(branches.id, id));
}

/** How many members the branch has. */
export async function membersInBranch(db: Reader, id: number): Promise<number> {
  const [used] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(members)
    .where(eq(members.branchId, id));
  return used?.n ?? 0;
}

/** Of these branch ids, the ones a branch has, `key share` locked as a foreign key to them would (an electorate names them). */
export async function keyShareBranchIds(tx: Tx, ids: number[]): Promise<number[]> {
  const found = await tx.select({ id: branches.id }).from(branches).where(inArray(branches.id, ids)).for('key share');
  return found.map((b) => b.id);
}

// ---- members as the API answers them ----

/** A member row as the API answers it, without the positions (`Member` but `psk_position_ids`). */
export type MemberRecord = Omit<Member, 'psk_position_ids'>;

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

/** One page of members by id, filtered (every filter given must match), and how many match in all. */
export async function searchMemberRecords(
  db: Reader,
  filters: MemberFilters,
  page: PageRequest,
): Promise<{ total: number; rows: MemberRecord[] }> {
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
  return { total: total?.n ?? 0, rows };
}

/** The member with this id as the API answers it (none or one row). */
export async function memberRecords(db: Reader, id: number): Promise<MemberRecord[]> {
  return db.select(memberColumns).from(members).innerJoin(branches, eq(branches.id, members.branchId)).where(eq(members.id, id));
}

/** These members as candidates show them, by id. */
export async function candidateRecords(db: Reader, ids: number[]) {
  return db
    .select({
      id: members.id,
      member_no: members.memberNo,
      name: members.name,
      phone: members.phone,
      email: sql<string>`coalesce(${members.email}, '')`,
      county: branches.name,
      image_url: members.photoUrl,
      statement: members.statement,
      translations: members.translations,
    })
    .from(members)
    .innerJoin(branches, eq(branches.id, members.branchId))
    .where(inArray(members.id, ids))
    .orderBy(asc(members.id));
}

/** The public details lookup: the member with this e-mail (lower-cased) or member number, their branch, and the organisation's support address. */
export async function memberDetailsOf(db: Reader, identifier: { email: string } | { memberNo: string }) {
  const where = 'email' in identifier ? eq(members.email, identifier.email) : eq(members.memberNo, identifier.memberNo);
  const [row] = await db
    .select({
      id: members.id,
      phone: members.phone,
      email: members.email,
      branch: branches.name,
      supportEmail: organisationValue('supportEmail'),
    })
    .from(members)
    .innerJoin(branches, eq(branches.id, members.branchId))
    .where(where)
    .limit(1);
  return row;
}

// ---- member rows ----

/** Locks the member row for the rest of the transaction (`for update`), so two edits of one member queue up; undefined when there is none. */
export async function lockMemberRow(
  tx: Tx,
  key: MemberKey,
): Promise<{ id: number; memberNo: string; photoUrl: string | null } | undefined> {
  const [row] = await tx
    .select({ id: members.id, memberNo: members.memberNo, photoUrl: members.photoUrl })
    .from(members)
    .where(keyOf(key))
    .for('update');
  return row;
}

/** A member's number and attribute values (an edit compares and merges them). */
export async function memberNoAndAttributes(
  db: Reader,
  id: number,
): Promise<{ memberNo: string; attributes: StoredAttributes } | undefined> {
  const [row] = await db.select({ memberNo: members.memberNo, attributes: members.attributes }).from(members).where(eq(members.id, id));
  return row;
}

/** A member's contact details and language. */
export async function memberContacts(
  db: Reader,
  id: number,
): Promise<{ phone: string; email: string | null; language: string | null } | undefined> {
  const [row] = await db
    .select({ phone: members.phone, email: members.email, language: members.language })
    .from(members)
    .where(eq(members.id, id));
  return row;
}

/** The members (but `exceptId`) holding this member number or, when given, this e-mail: a clash of either. */
export async function membersHolding(
  db: Reader,
  memberNo: string,
  email: string | null,
  exceptId?: number,
): Promise<{ memberNo: string; email: string | null }[]> {
  const holds = email === null ? eq(members.memberNo, memberNo) : or(eq(members.memberNo, memberNo), eq(members.email, email));
  return db
    .select({ memberNo: members.memberNo, email: members.email })
    .from(members)
    .where(exceptId === undefined ? holds : and(ne(members.id, exceptId), holds));
}

/** The members holding these e-mails. */
export async function membersWithEmails(db: Reader, emails: string[]): Promise<{ memberNo: string; email: string | null }[]> {
  return db.select({ memberNo: members.memberNo, email: members.email }).from(members).where(inArray(members.email, emails));
}

/** The members with these member numbers: id, number, branch, contact details and language. */
export async function membersByNumber(
  db: Reader,
  memberNos: string[],
): Promise<{ id: number; memberNo: string; branchId: number; phone: string; email: string | null; language: string | null }[]> {
  return db
    .select({
      id: members.id,
      memberNo: members.memberNo,
      branchId: members.branchId,
      phone: members.phone,
      email: members.email,
      language: members.language,
    })
    .from(members)
    .where(inArray(members.memberNo, memberNos));
}

/** Of these member numbers, the ones a member holds. */
export async function existingMemberNos(db: Reader, memberNos: string[]): Promise<{ memberNo: string }[]> {
  return db.select({ memberNo: members.memberNo }).from(members).where(inArray(members.memberNo, memberNos));
}

/** The branch of each of these members. */
export async function memberBranches(db: Reader, ids: number[]): Promise<{ id: number; branchId: number }[]> {
  return db.select({ id: members.id, branchId: members.branchId }).from(members).where(inArray(members.id, ids));
}

/** Inserts a member; answers the new id. A unique violation (member number, e-mail) is the caller's to read. */
export async function insertMember(tx: Tx, row: typeof members.$inferInsert): Promise<number> {
  const [inserted] = await tx.insert(members).values(row).returning({ id: members.id });
  return inserted!.id;
}

/** Writes these fields of the member's row. A unique violation (member number, e-mail) is the caller's to read. */
export async function updateMemberRow(tx: Tx, id: number, fields: MemberFields): Promise<void> {
  await tx.update(members).set(fields).where(eq(members.id, id));
}

/** A line of the import, as `upsertMembers` writes it. */
export type MemberUpsert = {
  memberNo: string;
  name: string;
  /** undefined: the file has no email column. */
  email?: string | null;
  phone: string;
  branchId: number;
  /** undefined: the file has no language column. */
  language?: string | null;
  /** New members get these; existing ones these merged over theirs (see `attributeKeys`). */
  attributes: StoredAttributes;
};

/**
 * Inserts these members, or updates by member number the ones there are: name, phone and branch;
 * email and language when `withEmail` / `withLanguage`; with `attributeKeys` (a Postgres text[]
 * literal of the file's attribute columns), those attributes replaced by the line's values.
 */
export async function upsertMembers(
  tx: Tx,
  rows: MemberUpsert[],
  now: Date,
  options: { withEmail: boolean; withLanguage: boolean; attributeKeys: string | null },
): Promise<void> {
  const { withEmail, withLanguage, attributeKeys } = options;
  await tx
    .insert(members)
    .values(
      rows.map((r) => ({
        memberNo: r.memberNo,
        name: r.name,
        email: r.email ?? null,
        phone: r.phone,
        branchId: r.branchId,
        ...(withLanguage ? { language: r.language ?? null } : {}),
        attributes: r.attributes,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .onConflictDoUpdate({
      target: members.memberNo,
      set: {
        name: sql`excluded.name`,
        ...(withEmail ? { email: sql`excluded.email` } : {}),
        phone: sql`excluded.phone`,
        branchId: sql`excluded.branch_id`,
        ...(withLanguage ? { language: sql`excluded.language` } : {}),
        ...(attributeKeys !== null
          ? {
              attributes: sql`(${members.attributes} - ${attributeKeys}::text[]) || excluded.attributes`,
            }
          : {}),
        updatedAt: sql`excluded.updated_at`,
      },
    });
}

/** Deletes the member's row (the caller has checked that nothing names them). */
export async function deleteMemberRow(tx: Tx, id: number): Promise<void> {
  await tx.delete(members).where(eq(members.id, id));
}

/** The members with these member numbers: id, number, name and branch (a nomination names them). */
export async function membersNamed(
  db: Reader,
  memberNos: string[],
): Promise<{ id: number; memberNo: string; name: string; branchId: number }[]> {
  return db
    .select({ id: members.id, memberNo: members.memberNo, name: members.name, branchId: members.branchId })
    .from(members)
    .where(inArray(members.memberNo, memberNos));
}

/** A member's name (undefined when there is none with this id). */
export async function memberName(db: Reader, id: number): Promise<string | undefined> {
  const [m] = await db.select({ name: members.name }).from(members).where(eq(members.id, id));
  return m?.name;
}

/** A member's name as an SQL subquery (null when there is none), the member an SQL value: a column of the caller's statement. */
export function memberNameSql(id: SQL): SQL<string | null> {
  return sql<string | null>`(select ${members.name} from ${members} where ${members.id} = ${id})`;
}

/**
 * A member's contact details and language as SQL rows (id, name, email, phone, language: one row,
 * none when there is no member with this id), for a statement that reads other tables with them
 * (the reminder sender's claim).
 */
export function memberContactsSql(id: number): SQL {
  return sql`select ${members.id}, ${members.name}, ${members.email}, ${members.phone}, ${members.language} from ${members} where ${members.id} = ${id}`;
}

/** These members' contact details and language (a notice goes to them). */
export async function contactsOf(
  db: Reader,
  ids: number[],
): Promise<{ id: number; phone: string; email: string | null; language: string | null }[]> {
  return db
    .select({ id: members.id, phone: members.phone, email: members.email, language: members.language })
    .from(members)
    .where(inArray(members.id, ids));
}

// ---- sign-in and the member's own account (auth, ussd, ballots, register) ----
// The member rows the sign-in flows read and their conditional updates (the verified stamp, the
// authenticator's steps, the pin, the Google link); the timing- and enumeration-safety of each flow
// stays with its caller, which decides what to read and when.

/** The member with this e-mail (stored lower-cased: the caller lower-cases what it was given). */
export async function memberByEmail(db: Reader, email: string): Promise<MemberRow | undefined> {
  const [row] = await db.select().from(members).where(eq(members.email, email)).limit(1);
  return row;
}

/** The member with this member number. */
export async function memberByNumber(db: Reader, memberNo: string): Promise<MemberRow | undefined> {
  const [row] = await db.select().from(members).where(eq(members.memberNo, memberNo)).limit(1);
  return row;
}

/**
 * The member with member number `value` and at most two with phone `phone` (E.164), the number's
 * match first: one query, enough to tell one phone holder from several.
 */
export async function membersByNumberOrPhone(db: Reader, value: string, phone: string): Promise<MemberRow[]> {
  return db
    .select()
    .from(members)
    .where(or(eq(members.memberNo, value), eq(members.phone, phone)))
    .orderBy(sql`(${members.memberNo} = ${value}) desc`)
    .limit(3);
}

/** The member row with this id. */
export async function memberRow(db: Reader, id: number): Promise<MemberRow | undefined> {
  const [row] = await db.select().from(members).where(eq(members.id, id)).limit(1);
  return row;
}

/** The member linked to this Google account. */
export async function memberByGoogleSub(db: Reader, googleSub: string): Promise<MemberRow | undefined> {
  const [row] = await db.select().from(members).where(eq(members.googleSub, googleSub)).limit(1);
  return row;
}

/** The id of the member linked to this Google account, if any. */
export async function googleSubHolder(db: Reader, googleSub: string): Promise<number | undefined> {
  const [holder] = await db.select({ id: members.id }).from(members).where(eq(members.googleSub, googleSub)).limit(1);
  return holder?.id;
}

/** Stamps the member verified at `at`, unless they already are (the first verified sign-in counts). */
export async function markVerified(db: Reader, memberId: number, at: Date): Promise<void> {
  await db
    .update(members)
    .set({ verifiedAt: at })
    .where(and(eq(members.id, memberId), isNull(members.verifiedAt)));
}

/** A member's name and language (a session's holder). */
export async function memberNameAndLanguage(db: Reader, id: number): Promise<{ name: string; language: string | null } | undefined> {
  const [row] = await db.select({ name: members.name, language: members.language }).from(members).where(eq(members.id, id)).limit(1);
  return row;
}

/** What a code sign-in finishing for a member needs: name, photo, language. */
export async function memberSubject(
  db: Reader,
  id: number,
): Promise<{ name: string; photoUrl: string | null; language: string | null } | undefined> {
  const [row] = await db
    .select({ name: members.name, photoUrl: members.photoUrl, language: members.language })
    .from(members)
    .where(eq(members.id, id))
    .limit(1);
  return row;
}

/** A member's name and pin hash (null: the default pin). */
export async function memberPin(db: Reader, id: number): Promise<{ name: string; pinHash: string | null } | undefined> {
  const [row] = await db.select({ name: members.name, pinHash: members.pinHash }).from(members).where(eq(members.id, id)).limit(1);
  return row;
}

/** A member's phone. */
export async function memberPhone(db: Reader, id: number): Promise<string | undefined> {
  const [row] = await db.select({ phone: members.phone }).from(members).where(eq(members.id, id)).limit(1);
  return row?.phone;
}

/** A new authenticator secret (sealed) replaces any earlier one, unconfirmed, with no step accepted. */
export async function startTotpEnrolment(tx: Tx, id: number, totpSecretEnc: string, at: Date): Promise<void> {
  await tx.update(members).set({ totpSecretEnc, totpConfirmedAt: null, totpLastStep: null, updatedAt: at }).where(eq(members.id, id));
}

/**
 * Stores `step` as the member's last accepted authenticator step, only if the stored one is still
 * `lastStep` (null: none) and older than `step`; whether it did. The check and the store are one
 * statement, so a token raced twice is accepted once.
 */
export async function acceptTotpStep(db: Reader, id: number, lastStep: number | null, step: number): Promise<boolean> {
  const unchanged = lastStep === null ? isNull(members.totpLastStep) : eq(members.totpLastStep, lastStep);
  const rows = await db
    .update(members)
    .set({ totpLastStep: step })
    .where(and(eq(members.id, id), unchanged, or(isNull(members.totpLastStep), lt(members.totpLastStep, step))))
    .returning({ id: members.id });
  return rows.length > 0;
}

/** The member's authenticator is confirmed at `at`. */
export async function confirmTotp(tx: Tx, id: number, at: Date): Promise<void> {
  await tx.update(members).set({ totpConfirmedAt: at, updatedAt: at }).where(eq(members.id, id));
}

/** Replaces the pin hash only if it is still `expected` (null: the default pin); whether it did. */
export async function replacePinIfUnchanged(tx: Tx, id: number, expected: string | null, pinHash: string, at: Date): Promise<boolean> {
  const unchanged = expected === null ? isNull(members.pinHash) : eq(members.pinHash, expected);
  const rows = await tx
    .update(members)
    .set({ pinHash, updatedAt: at })
    .where(and(eq(members.id, id), unchanged))
    .returning({ id: members.id });
  return rows.length > 0;
}

/**
 * Links this Google account (and the photo) to the member, only while they are linked to none or
 * to this one; whether it did. Conditional: a link committed since the caller read the row is kept.
 */
export async function linkMemberGoogle(tx: Tx, id: number, googleSub: string, photoUrl: string | null, at: Date): Promise<boolean> {
  const linked = await tx
    .update(members)
    .set({ googleSub, photoUrl, updatedAt: at })
    .where(and(eq(members.id, id), or(isNull(members.googleSub), eq(members.googleSub, googleSub))))
    .returning({ id: members.id });
  return linked.length > 0;
}

/**
 * Links this Google account to the member only while they are linked to none; whether it did. A
 * unique violation (the account is another member's) is the caller's to read.
 */
export async function linkGoogleIfUnlinked(tx: Tx, id: number, googleSub: string, at: Date): Promise<boolean> {
  const rows = await tx
    .update(members)
    .set({ googleSub, updatedAt: at })
    .where(and(eq(members.id, id), isNull(members.googleSub)))
    .returning({ id: members.id });
  return rows.length > 0;
}

/** The branch of the member (the ballot's branch positions). */
export async function memberBranchId(db: Reader, id: number): Promise<number | undefined> {
  const [me] = await db.select({ branchId: members.branchId }).from(members).where(eq(members.id, id)).limit(1);
  return me?.branchId;
}

/** The member's number, name, branch (id and name), attributes and language (the register's own entry). */
export async function memberWithBranch(db: Reader, id: number) {
  const [me] = await db
    .select({
      memberNo: members.memberNo,
      name: members.name,
      branchId: members.branchId,
      branch: branches.name,
      attributes: members.attributes,
      language: members.language,
    })
    .from(members)
    .innerJoin(branches, eq(branches.id, members.branchId))
    .where(eq(members.id, id));
  return me;
}

/** The member's number and name (a claim records them). */
export async function memberNoAndName(db: Reader, id: number): Promise<{ memberNo: string; name: string } | undefined> {
  const [me] = await db.select({ memberNo: members.memberNo, name: members.name }).from(members).where(eq(members.id, id));
  return me;
}

/** The id and number of the member with this member number (an objection names them). */
export async function memberIdByNumber(db: Reader, memberNo: string): Promise<{ id: number; memberNo: string } | undefined> {
  const [other] = await db.select({ id: members.id, memberNo: members.memberNo }).from(members).where(eq(members.memberNo, memberNo));
  return other;
}

/** The member's attribute values (an eligibility check reads them). */
export async function memberAttributes(db: Reader, id: number): Promise<{ attributes: StoredAttributes } | undefined> {
  const [m] = await db.select({ attributes: members.attributes }).from(members).where(eq(members.id, id));
  return m;
}

/** These members' names, by id (a receipt names the candidate chosen). */
export async function memberNames(db: Reader, ids: number[]): Promise<{ id: number; name: string }[]> {
  return db.select({ id: members.id, name: members.name }).from(members).where(inArray(members.id, ids));
}

/** These members' names and numbers, by id (a candidate who holds ballots but no longer stands is named by them). */
export async function memberNamesAndNumbers(db: Reader, ids: number[]): Promise<{ id: number; name: string; memberNo: string }[]> {
  return db.select({ id: members.id, name: members.name, memberNo: members.memberNo }).from(members).where(inArray(members.id, ids));
}

/**
 * How many members a roll holds (`rows`: `rollRows` of the election store, member and branch ids)
 * and how many of them completed a verified sign-in (an election's statistics).
 */
export async function rollMemberCounts(db: Reader, rows: SQL): Promise<{ all: number; verified: number }> {
  const [row] = await db.execute<{ all: number; verified: number }>(sql`
          select count(*)::int as all, count(m.verified_at)::int as verified
          from (${rows}) roll(member_id, branch_id) join members m on m.id = roll.member_id`);
  return { all: Number(row?.all ?? 0), verified: Number(row?.verified ?? 0) };
}

// ---- the roll's listings (register) ----

/** Which members of a roll a listing keeps: number or name containing `query` (any case), of `branch`. */
export type RollFilter = { query?: string; branch?: string };

function rollFilterSql(filter: RollFilter): SQL {
  const query = filter.query?.trim();
  const branch = filter.branch?.trim();
  return sql`true
    ${query ? sql`and (roll.member_no ilike ${likeContains(query)} or m.name ilike ${likeContains(query)})` : sql``}
    ${branch ? sql`and roll.branch = ${branch}` : sql``}`;
}

/**
 * The members of a roll (`entries`: `rollEntries` of the election store) with their names, by
 * member number, filtered; a page of them when `page` is given.
 */
export async function rollMemberRows(db: Reader, entries: SQL, filter: RollFilter, page?: { limit: number; offset: number }) {
  return db.execute<{ member_id: number; member_no: string; name: string; branch_id: number; branch: string }>(sql`
    select roll.member_id, roll.member_no, m.name, roll.branch_id, roll.branch
    from (${entries}) roll join members m on m.id = roll.member_id
    where ${rollFilterSql(filter)}
    order by roll.member_no collate "C"
    ${page ? sql`limit ${page.limit} offset ${page.offset}` : sql``}`);
}

/** How many members of a roll (`entries`, as for `rollMemberRows`) a filter keeps. */
export async function rollMemberCount(db: Reader, entries: SQL, filter: RollFilter): Promise<number> {
  const [row] = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from (${entries}) roll join members m on m.id = roll.member_id
    where ${rollFilterSql(filter)}`);
  return Number(row?.n ?? 0);
}
