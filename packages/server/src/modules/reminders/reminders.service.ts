import type { CreateReminderBody, Reminder } from '@kura/contract';
import { desc, eq, sql } from 'drizzle-orm';
import type { Core } from '../../core';
import type { Db, Tx } from '../../db/client';
import { rollMembersYetToVote } from '../../db/participation-store';
import { reminderRecipients, reminders } from '../../db/schema';
import { AppError } from '../../errors';
import type { Actor } from '../../auth/actor';
import { auditedTransaction } from '../../lib/audited-transaction';
import { type ElectionId } from '../elections';
import { assertNotClosed, assertNotClosedIn } from '../lifecycle';

/** A member reminded (by any campaign, on any channel) less than this long ago is not reminded again. */
export const REMINDER_QUIET_MS = 60 * 60 * 1000;

const iso = (d: Date) => d.toISOString();

/**
 * Members who would receive a reminder now: on the election's roll (the frozen roll once voting
 * opened, else its electorate now: docs/api.md "The roll"), no ballot cast in it yet, and no
 * reminder sent to them (or in flight) within the quiet hour. The sender checks the last two again
 * for each member at send time. One statement: the roll and the votes are the participation
 * store's (`rollMembersYetToVote`), the reminders this module's.
 */
function eligibleMembers(now: Date, electionId: ElectionId) {
  const quietSince = iso(new Date(now.getTime() - REMINDER_QUIET_MS));
  return sql`
    select m.id from (${rollMembersYetToVote(electionId)}) m
    where not exists (
        select 1 from reminder_recipients r
        where r.member_id = m.id and (r.status = 'sending' or (r.status = 'sent' and r.sent_at > ${quietSince}::timestamptz))
      )`;
}

async function countEligible(db: Db | Tx, now: Date, electionId: ElectionId): Promise<number> {
  const [row] = await db.execute<{ n: number }>(sql`select count(*)::int as n from (${eligibleMembers(now, electionId)}) e`);
  return row?.n ?? 0;
}

/**
 * Queues a reminder to every member of the election's roll who has not voted in it (or only counts
 * them for a dry run). The
 * recipients are fixed here, in the campaign's own rows; the sender (reminder-sender.ts) works
 * through them in the background at the configured rate.
 */
export async function createReminder(
  ctx: Core,
  actor: Actor,
  input: CreateReminderBody,
  electionId: ElectionId,
): Promise<{ id: number | null; recipients: number }> {
  // After the close there is nobody left to remind: voting ended for good.
  await assertNotClosed(ctx, 'reminders', electionId);
  const now = ctx.now();
  if (input.dry_run) return { id: null, recipients: await countEligible(ctx.database.db, now, electionId) };
  const created = await auditedTransaction(
    ctx,
    {
      actor,
      activity: 'Queued reminder',
      data: (r: { id: number; recipients: number }) => `reminder ${r.id}: ${input.channel} to ${r.recipients} members`,
    },
    async (tx, note) => {
      note.afterCommit(() => ctx.events.emit('reminders.queued'));
      // Again under the row's share lock: a close that committed since the check above is seen.
      await assertNotClosedIn(tx, 'reminders', electionId);
      const [row] = await tx
        .insert(reminders)
        .values({
          electionId,
          channel: input.channel,
          message: input.message,
          translations: input.translations ?? {},
          total: 0,
          nextSendAt: now,
          createdBy: actor.id,
          createdAt: now,
        })
        .returning({ id: reminders.id });
      const id = row!.id;
      const [inserted] = await tx.execute<{ n: number }>(sql`
        with added as (
          insert into reminder_recipients (reminder_id, member_id)
          select ${id}, e.id from (${eligibleMembers(now, electionId)}) e
          returning 1)
        select count(*)::int as n from added`);
      const total = inserted?.n ?? 0;
      await tx
        .update(reminders)
        .set({ total, ...(total === 0 ? { status: 'done' as const, finishedAt: now } : {}) })
        .where(eq(reminders.id, id));
      return { id, recipients: total };
    },
  );
  return created;
}

const toReminder = (r: typeof reminders.$inferSelect): Reminder => ({
  id: r.id,
  channel: r.channel,
  total: r.total,
  sent: r.sent,
  failed: r.failed,
  skipped: r.skipped,
  status: r.status,
});

export async function getReminder(ctx: Core, id: number): Promise<Reminder> {
  const [row] = await ctx.database.db.select().from(reminders).where(eq(reminders.id, id)).limit(1);
  if (!row) throw AppError.say('NOT_FOUND', 'error.noSuchReminder');
  return toReminder(row);
}

export async function listReminders(ctx: Core, electionId: ElectionId): Promise<Reminder[]> {
  const rows = await ctx.database.db
    .select()
    .from(reminders)
    .where(eq(reminders.electionId, electionId))
    .orderBy(desc(reminders.id))
    .limit(20);
  return rows.map(toReminder);
}

/** A removed member leaves the reminders' recipient lists (in the removal's transaction). */
export async function forgetRecipient(tx: Tx, memberId: number): Promise<void> {
  await tx.delete(reminderRecipients).where(eq(reminderRecipients.memberId, memberId));
}
