import type { Agent } from '@kura/contract';
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db, Tx } from './client';
import { staff } from './schema';

/**
 * The staff store: the SQL of `staff` (admins and agents), which the staff module owns
 * (db/schema/owners.ts). The staff module's rules (the last admin, oneself, the set-password link)
 * and the auth module's sign-in flows call these; each function runs on the handle it is given,
 * inside the caller's unit of work, and opens no transaction and takes no advisory lock. Under
 * `db/` like the other stores: the auth module reads the table too, and reaches it here rather
 * than through the staff module.
 */

type Reader = Db | Tx;

export type StaffRow = typeof staff.$inferSelect;

// ---- the staff module ----

/** Whether any admin exists. */
export async function anyAdmin(db: Reader): Promise<boolean> {
  const [row] = await db.select({ id: staff.id }).from(staff).where(eq(staff.role, 'admin')).limit(1);
  return row !== undefined;
}

/** Every staff row, oldest first. */
export async function allStaff(db: Reader): Promise<StaffRow[]> {
  return db.select().from(staff).orderBy(asc(staff.createdAt), asc(staff.id));
}

/** Inserts a staff row; undefined when the e-mail is someone's already (no row written). */
export async function insertStaffUnlessTaken(
  tx: Tx,
  row: { email: string; name: string; role: StaffRow['role']; createdAt: Date },
): Promise<StaffRow | undefined> {
  const [inserted] = await tx.insert(staff).values(row).onConflictDoNothing({ target: staff.email }).returning();
  return inserted;
}

/** Every admin row, locked `for update` until the transaction ends (two removals cannot both pass the last-admin check). */
export async function lockAdminRows(tx: Tx): Promise<{ id: number }[]> {
  return tx.select({ id: staff.id }).from(staff).where(eq(staff.role, 'admin')).for('update');
}

/** The staff row with this id. */
export async function staffRow(db: Reader, id: number): Promise<StaffRow | undefined> {
  const [row] = await db.select().from(staff).where(eq(staff.id, id)).limit(1);
  return row;
}

export async function deleteStaffRow(tx: Tx, id: number): Promise<void> {
  await tx.delete(staff).where(eq(staff.id, id));
}

/** Sets the display name; the row after, undefined when there is none with this id. */
export async function setStaffName(tx: Tx, id: number, name: string): Promise<StaffRow | undefined> {
  const [row] = await tx.update(staff).set({ name }).where(eq(staff.id, id)).returning();
  return row;
}

/** Sets the password hash only if it is still `expected` (null: none yet); whether it was set. */
export async function replacePasswordHashIfUnchanged(tx: Tx, id: number, expected: string | null, passwordHash: string): Promise<boolean> {
  const updated = await tx
    .update(staff)
    .set({ passwordHash })
    .where(and(eq(staff.id, id), expected === null ? sql`${staff.passwordHash} is null` : eq(staff.passwordHash, expected)))
    .returning({ id: staff.id });
  return updated.length > 0;
}

/** The agents (observers), by email. */
export async function agentRows(db: Reader): Promise<Agent[]> {
  return db
    .select({ id: staff.id, name: staff.name, email: staff.email })
    .from(staff)
    .where(eq(staff.role, 'agent'))
    .orderBy(asc(staff.email));
}

// ---- sign-in (the auth module) ----

/** The staff member of this role with this e-mail (the caller normalises it). */
export async function staffByEmail(db: Reader, email: string, role: 'admin' | 'agent'): Promise<StaffRow | undefined> {
  const [row] = await db
    .select()
    .from(staff)
    .where(and(eq(staff.email, email), eq(staff.role, role)))
    .limit(1);
  return row;
}

/** A staff member's name and role (a session's holder). */
export async function staffNameAndRole(db: Reader, id: number): Promise<{ name: string; role: StaffRow['role'] } | undefined> {
  const [row] = await db.select({ name: staff.name, role: staff.role }).from(staff).where(eq(staff.id, id)).limit(1);
  return row;
}

/** A staff member's name (the sign-out's log line). */
export async function staffName(db: Reader, id: number): Promise<string | undefined> {
  const [row] = await db.select({ name: staff.name }).from(staff).where(eq(staff.id, id)).limit(1);
  return row?.name;
}

/** What a code sign-in finishing for a staff member needs: name, photo, role. */
export async function staffSubject(
  db: Reader,
  id: number,
): Promise<{ name: string; photoUrl: string | null; role: StaffRow['role'] } | undefined> {
  const [row] = await db
    .select({ name: staff.name, photoUrl: staff.photoUrl, role: staff.role })
    .from(staff)
    .where(eq(staff.id, id))
    .limit(1);
  return row;
}

/**
 * Links this Google account (and the photo) to the staff row, only while it is linked to none or
 * to this one; whether it was. Conditional: a link committed since the caller read the row is kept.
 */
export async function linkStaffGoogle(tx: Tx, id: number, googleSub: string, photoUrl: string | null): Promise<boolean> {
  const linked = await tx
    .update(staff)
    .set({ googleSub, photoUrl })
    .where(and(eq(staff.id, id), or(isNull(staff.googleSub), eq(staff.googleSub, googleSub))))
    .returning({ id: staff.id });
  return linked.length > 0;
}
