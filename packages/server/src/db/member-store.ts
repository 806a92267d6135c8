import type { Branch, Member } from '@kura/contract';
import { and, asc, count, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
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
