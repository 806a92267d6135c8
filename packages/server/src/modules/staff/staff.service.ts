import type { Agent, CreateStaffBody, SetStaffPasswordBody, Staff } from '@kura/contract';
import type { Db, Tx } from '../../db/client';
import type { Actor, SignedInActor } from '../../auth/actor';
import { readDefaultLanguage } from '../../db/election-store';
import { uniqueViolation } from '../../db/errors';
import {
  agentRows,
  allStaff,
  anyAdmin,
  deleteStaffRow,
  insertStaffUnlessTaken,
  lockAdminRows,
  replacePasswordHashIfUnchanged,
  setStaffName,
  staffRow,
} from '../../db/staff-store';
import { endStaffSessions } from '../../auth/sessions';
import { DeliveryError } from '../../delivery';
import { AppError } from '../../errors';
import { defaultLanguage, t } from '../../i18n';
import { recordActivity } from '../../lib/activity-log';
import { auditedTransaction } from '../../lib/audited-transaction';
import type { StaffContext } from './context';
import { passwordToken, readPasswordToken, tokenMatches } from './password-link';
import { staffRecord } from './staff-record';

export const STAFF_EXISTS = 'This e-mail address is already a member of staff';
export const LAST_ADMIN = 'The last admin cannot be removed';
export const NOT_YOURSELF = 'You cannot remove yourself';
export const BAD_PASSWORD_LINK = 'This link is invalid, expired or already used; ask an admin for a new one';

/** The page of the web app a set-password link opens; the token rides in the fragment, never sent to a server log. */
export const SET_PASSWORD_PATH = '/admin/set-password';

/** Whether any admin exists: until one does, the first screens say how to create one. */
export async function adminExists(ctx: StaffContext): Promise<boolean> {
  return anyAdmin(ctx.database.db);
}

export async function listStaff(ctx: StaffContext): Promise<Staff[]> {
  return (await allStaff(ctx.database.db)).map(staffRecord);
}

/**
 * Adds an admin or agent. An agent signs in by e-mailed code at once (sign-in reads the table).
 * An admin has no password yet: the e-mail (sent after the commit) carries a link to set one.
 */
export async function createStaff(ctx: StaffContext, actor: SignedInActor, input: CreateStaffBody, origin: string): Promise<Staff> {
  const email = input.email.trim().toLowerCase();
  const name = input.name?.trim() || email.split('@')[0]!;
  let created: Staff;
  try {
    created = await auditedTransaction(ctx, { actor, activity: 'Staff added', data: (s: Staff) => `${s.role} ${s.email}` }, async (tx) => {
      const row = await insertStaffUnlessTaken(tx, { email, name, role: input.role, createdAt: ctx.now() });
      if (!row) throw AppError.say('CONFLICT', 'error.staff.exists');
      return staffRecord(row);
    });
  } catch (error) {
    if (uniqueViolation(error) !== undefined) throw AppError.say('CONFLICT', 'error.staff.exists');
    throw error;
  }
  if (created.role === 'admin') await sendPasswordLink(ctx, created, origin);
  return created;
}

/** The new admin's e-mail, through the background sender: the answer does not wait for the relay. */
async function sendPasswordLink(ctx: StaffContext, admin: Staff, origin: string): Promise<void> {
  const language = defaultLanguage(await readDefaultLanguage(ctx.database.db));
  const token = passwordToken(ctx, admin.id, null, ctx.now());
  const link = `${origin}${SET_PASSWORD_PATH}#token=${token}`;
  const app = ctx.env.APP_NAME;
  ctx.notices.enqueue(async () => {
    try {
      await ctx.delivery.sendEmail({
        to: admin.email,
        subject: t(language, 'staffInvite.subject', { app }),
        text: t(language, 'staffInvite.text', { app, link, email: admin.email }),
      });
    } catch (error) {
      const reason = error instanceof DeliveryError ? error.message : 'delivery failed';
      ctx.logger.warn({ staffId: admin.id, reason }, 'set-password e-mail not delivered');
    }
  });
}

/** Removes an admin or agent and ends their sessions; never the last admin, never oneself (409). */
export async function deleteStaff(ctx: StaffContext, actor: SignedInActor, id: number): Promise<void> {
  await auditedTransaction(ctx, { actor, activity: 'Staff removed', data: `staff #${id}` }, async (tx, note) => {
    // Every admin row locked: two admins removing each other cannot both pass the last-admin check.
    const admins = await lockAdminRows(tx);
    const row = await staffRow(tx, id);
    if (!row) throw AppError.say('NOT_FOUND', 'error.noSuchStaff');
    note.data(`${row.role} ${row.email}`);
    if (row.id === actor.id && actor.role !== 'voter') throw AppError.say('CONFLICT', 'error.staff.notYourself');
    if (row.role === 'admin' && admins.length <= 1) throw AppError.say('CONFLICT', 'error.staff.lastAdmin');
    await deleteStaffRow(tx, id);
    const ended = await endStaffSessions(tx, id);
    // After the commit: open sockets of those sessions lose their staff rooms (realtime/session-expiry.ts).
    note.afterCommit(() => {
      for (const { tokenHash } of ended) ctx.events.emit('session.revoked', { tokenHash });
    });
  });
}

/** An admin's or agent's own display name. */
export async function setOwnName(ctx: StaffContext, actor: SignedInActor, name: string): Promise<Staff> {
  const trimmed = name.trim();
  return auditedTransaction(ctx, { actor, activity: 'Staff display name changed', data: trimmed }, async (tx) => {
    const row = await setStaffName(tx, actor.id, trimmed);
    if (!row) throw AppError.say('NOT_FOUND', 'error.noSuchStaff');
    return staffRecord(row);
  });
}

/** Sets an admin's password with the token of their e-mailed link; the token is spent by it. */
export async function setPasswordWithLink(ctx: StaffContext, input: SetStaffPasswordBody, ip: string): Promise<void> {
  const token = readPasswordToken(input.token);
  const refuse = async (data: string, who?: { id: number; name: string }) => {
    await recordActivity(ctx, {
      name: who?.name ?? 'unknown',
      activity: 'Admin password set by e-mailed link',
      userId: who?.id,
      userType: 'admin',
      ip,
      status: 'failed',
      data,
    });
    throw AppError.say('VALIDATION', 'error.staff.badPasswordLink', undefined, { errors: { token: [BAD_PASSWORD_LINK] } });
  };
  if (!token) return refuse('malformed link');
  const row = await staffRow(ctx.database.db, token.staffId);
  if (!row || row.role !== 'admin') return refuse('no such admin');
  if (!tokenMatches(ctx, token, row.passwordHash, ctx.now())) return refuse('invalid, expired or used link', row);
  const passwordHash = await ctx.passwords.hash(input.password);
  const actor: Actor = { role: 'admin', id: row.id, name: row.name, ip };
  await auditedTransaction(ctx, { actor, activity: 'Admin password set by e-mailed link' }, async (tx) => {
    // Only if the hash is still the one the token was made for: two uses at once, one wins.
    const updated = await replacePasswordHashIfUnchanged(tx, row.id, row.passwordHash, passwordHash);
    if (!updated) throw AppError.say('VALIDATION', 'error.staff.badPasswordLink', undefined, { errors: { token: [BAD_PASSWORD_LINK] } });
  });
}

/** The agents (observers), by email (the set-up page lists them). */
export async function listAgents(db: Db | Tx): Promise<Agent[]> {
  return agentRows(db);
}
