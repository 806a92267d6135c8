import type { Translations } from '@kura/contract';
import { sql } from 'drizzle-orm';
import type { RemindersContext } from './context';
import type { Delivery } from '../../delivery';
import type { Tx } from '../../db/client';
import { recordActivity } from '../../lib/activity-log';
import { createLoop, type Loop } from '../../lib/loop';
import { lockMemberReminders } from '../../db/locks';
import { memberContactsSql, memberName, memberNameSql } from '../../db/member-store';
import { votedInSql } from '../../db/participation-store';
import { REMINDER_QUIET_MS } from './reminders.service';
import { lockForShare, readState } from '../elections';
import { memberLanguage, t } from '../../i18n';
import { inTransaction } from '../../lib/unit-of-work';

/** How often an idle sender looks for campaigns queued by another process. */
const IDLE_POLL_MS = 2000;
/** Sends one process keeps in flight at once (a slow gateway must not hold the rate down). */
const MAX_IN_FLIGHT = 4;
/**
 * A claim older than this belonged to a process that stopped mid-send (sends time out after 10 s).
 * It is counted as failed rather than sent again: the member may already have the message, and a
 * reminder is never worth sending twice.
 */
export const STALE_CLAIM_MS = 60_000;

const iso = (d: Date) => d.toISOString();

type Claimed = {
  reminderId: number;
  channel: 'sms' | 'email';
  message: string;
  memberId: number;
  name: string;
  email: string;
  phone: string;
  /** The member's language (null: the organisation's default): the e-mail subject is written in it. */
  language: string | null;
  /** What the e-mail subject names: the election's title, else the organisation's name. */
  election: string;
  /** The message in other languages (language → {message}) and the organisation's default language. */
  translations: Translations<'message'>;
  defaultLanguage: string;
};

/**
 * The background sender (`ctx.reminders`). Every process runs one, with the app, so campaigns
 * queued before a restart, or by another process, resume; the database decides who sends what: a
 * send slot is taken by a conditional UPDATE of the campaign's `next_send_at` (so the rate holds
 * across processes), and a recipient by `FOR UPDATE SKIP LOCKED` (so each message goes out once).
 * A campaign queued here wakes it at once. Stopping waits for the sends in flight. It sends through
 * `delivery`, else `ctx.delivery` (read at send time: the composition root builds it after the sender).
 */
export function createReminderSender(ctx: RemindersContext, delivery?: Delivery): Loop {
  const intervalMs = 1000 / ctx.env.REMINDER_RATE_PER_SECOND;
  const inFlight = new Set<Promise<void>>();

  /** Takes the next send slot and a recipient; answers how long to wait when there is none. */
  async function next(): Promise<Claimed | { waitMs: number }> {
    const now = ctx.now();
    const [campaign] = await ctx.database.db.execute<{ id: number; next_send_at: string }>(
      sql`select id, next_send_at from reminders where status <> 'done' order by id limit 1`,
    );
    if (!campaign) return { waitMs: IDLE_POLL_MS };
    await failStaleClaims(ctx, now);
    // The slot is taken only while the campaign is not done: one finished since the read above
    // (by another pass or process) is never set back to sending.
    const [slot] = await ctx.database.db.execute<{ id: number }>(sql`
      update reminders set status = 'sending',
        next_send_at = greatest(next_send_at, ${iso(now)}::timestamptz) + ${intervalMs} * interval '1 millisecond'
      where id = ${campaign.id} and status <> 'done' and next_send_at <= ${iso(now)}::timestamptz
      returning id`);
    if (!slot) return { waitMs: Math.max(5, Math.min(IDLE_POLL_MS, new Date(campaign.next_send_at).getTime() - now.getTime())) };
    // The slot is spent on the first recipient who may be reminded; the ones passed over cost nothing.
    for (;;) {
      const outcome = await claimRecipient(ctx, campaign.id, now);
      if (outcome === 'none') {
        await finishIfComplete(ctx, campaign.id, now);
        return { waitMs: 0 };
      }
      if (outcome !== 'skipped') return outcome;
    }
  }

  async function send(claim: Claimed) {
    // docs/api.md "Languages": the member's language (else the organisation's default), its text when the admin gave one.
    const language = memberLanguage(claim, claim.defaultLanguage);
    const text = (claim.translations[language]?.message ?? claim.message).replaceAll('{name}', claim.name);
    let error: unknown;
    try {
      const transport = delivery ?? ctx.delivery;
      if (claim.channel === 'sms') await transport.sendSms({ to: claim.phone, message: text });
      else
        await transport.sendEmail({
          to: claim.email,
          subject: t(language, 'reminder.subject', { election: claim.election || ctx.env.APP_NAME }),
          text,
        });
    } catch (e) {
      error = e;
    }
    const now = ctx.now();
    const ok = error === undefined;
    await inTransaction(ctx, 'Reminder delivery recorded', async (tx) => {
      await tx.execute(sql`
        update reminder_recipients set status = ${ok ? 'sent' : 'failed'}, sent_at = ${ok ? iso(now) : null}::timestamptz
        where reminder_id = ${claim.reminderId} and member_id = ${claim.memberId} and status = 'sending'`);
      await tx.execute(
        ok
          ? sql`update reminders set sent = sent + 1 where id = ${claim.reminderId}`
          : sql`update reminders set failed = failed + 1 where id = ${claim.reminderId}`,
      );
      await recordActivity(
        ctx,
        {
          name: claim.name,
          activity: ok ? 'Reminder sent' : 'Reminder failed',
          userId: claim.memberId,
          userType: 'voter',
          data: `reminder ${claim.reminderId} by ${claim.channel}${ok ? '' : `: ${error instanceof Error ? error.message : 'delivery failed'}`}`,
          status: ok ? 'success' : 'failed',
        },
        tx,
      );
    });
    if (!ok) ctx.logger.warn({ err: error, reminder: claim.reminderId }, 'reminder not delivered');
    await finishIfComplete(ctx, claim.reminderId, now);
  }

  return createLoop({
    logger: ctx.logger,
    // A database hiccup: the campaign's state is in the database, so the next round resumes it.
    failure: 'reminder sender failed a round',
    intervalMs: IDLE_POLL_MS,
    runAtStart: true,
    /** One round: waits for a free send, or claims the next recipient and starts its send. */
    run: async () => {
      if (inFlight.size >= MAX_IN_FLIGHT) {
        await Promise.race(inFlight);
        return 0;
      }
      const step = await next();
      if ('waitMs' in step) return step.waitMs;
      const sending: Promise<void> = send(step)
        .catch((err: unknown) => ctx.logger.error({ err }, 'could not record a reminder send'))
        .finally(() => inFlight.delete(sending));
      inFlight.add(sending);
      return 0;
    },
    wakeOn: (wake) => ctx.events.subscribe({ 'reminders.queued': wake }),
    drain: () => Promise.allSettled(inFlight),
  });
}

/**
 * Claims the next pending recipient of the campaign, or passes over one who voted meanwhile or
 * was reached by another campaign within the hour (the member lock makes that check and the claim
 * one step for all processes), and every one once the campaign's election has closed (voting
 * paused but not closed does not stop a campaign: voting may resume, and the admin chose to send).
 */
async function claimRecipient(ctx: RemindersContext, reminderId: number, now: Date): Promise<Claimed | 'skipped' | 'none'> {
  return inTransaction(ctx, 'Reminder recipient claimed', async (tx) => {
    // The election as its lock finds it, first (a close takes the election lock, then this row):
    // a close in flight commits before this claim and is seen; one that starts later waits for it.
    // So no recipient is claimed after a close is visible. Deleted: its campaigns went with it.
    const [campaign] = await tx.execute<{ election_id: number }>(sql`select election_id from reminders where id = ${reminderId}`);
    if (!campaign) return 'none' as const;
    const election = await lockForShare(tx, campaign.election_id);
    const closed = !election || election.closedAt !== null;
    const [row] = await tx.execute<{
      member_id: number;
      channel: 'sms' | 'email';
      message: string;
      translations: Translations<'message'> | null;
      election_id: number;
    }>(sql`
      select r.member_id, c.channel, c.message, c.translations, c.election_id from reminder_recipients r join reminders c on c.id = r.reminder_id
      where r.reminder_id = ${reminderId} and r.status = 'pending'
      order by r.member_id limit 1 for update of r skip locked`);
    if (!row) return 'none' as const;
    if (closed) {
      await skip(ctx, tx, reminderId, row.member_id, 'election closed');
      return 'skipped' as const;
    }
    await lockMemberReminders(tx, row.member_id);
    const quietSince = iso(new Date(now.getTime() - REMINDER_QUIET_MS));
    const [member] = await tx.execute<{
      name: string;
      email: string;
      phone: string;
      language: string | null;
      voted: boolean;
      reminded: boolean;
    }>(sql`
      select m.name, m.email, m.phone, m.language,
        ${votedInSql(sql`m.id`, row.election_id)} as voted,
        exists (select 1 from reminder_recipients o where o.member_id = m.id and o.reminder_id <> ${reminderId}
                and (o.status = 'sending' or (o.status = 'sent' and o.sent_at > ${quietSince}::timestamptz))) as reminded
      from (${memberContactsSql(row.member_id)}) m`);
    if (!member || member.voted || member.reminded) {
      await skip(
        ctx,
        tx,
        reminderId,
        row.member_id,
        !member ? 'member removed' : member.voted ? 'voted meanwhile' : 'reminded within the hour',
        member?.name,
      );
      return 'skipped' as const;
    }
    const texts = await readState(tx, row.election_id);
    await tx.execute(
      sql`update reminder_recipients set status = 'sending', claimed_at = ${iso(now)}::timestamptz where reminder_id = ${reminderId} and member_id = ${row.member_id}`,
    );
    return {
      reminderId,
      channel: row.channel,
      message: row.message,
      memberId: row.member_id,
      name: member.name,
      email: member.email,
      phone: member.phone,
      language: member.language,
      election: texts.title || texts.organisation || '',
      translations: row.translations ?? {},
      defaultLanguage: texts.defaultLanguage,
    };
  });
}

/** Passes over a claimed recipient: counted as skipped, the reason logged. */
async function skip(ctx: RemindersContext, tx: Tx, reminderId: number, memberId: number, reason: string, name?: string) {
  await tx.execute(sql`update reminder_recipients set status = 'skipped' where reminder_id = ${reminderId} and member_id = ${memberId}`);
  await tx.execute(sql`update reminders set skipped = skipped + 1 where id = ${reminderId}`);
  if (name === undefined) name = await memberName(tx, memberId);
  await recordActivity(
    ctx,
    {
      name: name ?? `member #${memberId}`,
      activity: 'Reminder skipped',
      userId: memberId,
      userType: 'voter',
      data: `reminder ${reminderId}: ${reason}`,
      status: 'skipped',
    },
    tx,
  );
}

/** Marks the campaign done once no recipient is pending or being sent. */
async function finishIfComplete(ctx: RemindersContext, reminderId: number, now: Date) {
  await ctx.database.db.execute(sql`
    update reminders set status = 'done', finished_at = ${iso(now)}::timestamptz
    where id = ${reminderId} and status <> 'done'
      and not exists (select 1 from reminder_recipients where reminder_id = ${reminderId} and status in ('pending', 'sending'))`);
}

/** Claims left by a process that stopped mid-send count as failed (see STALE_CLAIM_MS). */
async function failStaleClaims(ctx: RemindersContext, now: Date) {
  const cutoff = iso(new Date(now.getTime() - STALE_CLAIM_MS));
  await inTransaction(ctx, 'Stale reminder claims failed', async (tx) => {
    const stale = await tx.execute<{ reminder_id: number; member_id: number; name: string | null }>(sql`
      with gone as (
        update reminder_recipients set status = 'failed'
        where status = 'sending' and claimed_at < ${cutoff}::timestamptz
        returning reminder_id, member_id)
      select g.reminder_id, g.member_id, ${memberNameSql(sql`g.member_id`)} as name from gone g`);
    for (const s of stale) {
      await tx.execute(sql`update reminders set failed = failed + 1 where id = ${s.reminder_id}`);
      await recordActivity(
        ctx,
        {
          name: s.name ?? `member #${s.member_id}`,
          activity: 'Reminder failed',
          userId: s.member_id,
          userType: 'voter',
          data: `reminder ${s.reminder_id}: interrupted (the sending process stopped)`,
          status: 'failed',
        },
        tx,
      );
    }
  });
}
