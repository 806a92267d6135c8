import type { Translations } from '@kura/contract';
import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { election } from './reference';

/**
 * A reminder campaign to members who had not voted when it was created. Its progress lives here
 * (not in a process), so a restart resumes it and several server processes share the work.
 */
export const reminders = pgTable('reminders', {
  id: serial('id').primaryKey(),
  /** The election whose non-voters it reminds. */
  electionId: integer('election_id')
    .notNull()
    .references(() => election.id, { onDelete: 'cascade' }),
  channel: text('channel', { enum: ['sms', 'email'] }).notNull(),
  message: text('message').notNull(),
  /** The message in other languages: language → {message}; a member whose language has one gets it. */
  translations: jsonb('translations').$type<Translations<'message'>>().notNull().default({}),
  status: text('status', { enum: ['queued', 'sending', 'done'] })
    .notNull()
    .default('queued'),
  total: integer('total').notNull(),
  sent: integer('sent').notNull().default(0),
  failed: integer('failed').notNull().default(0),
  skipped: integer('skipped').notNull().default(0),
  /** The next send slot: a process takes it with a conditional UPDATE, which keeps the rate across processes. */
  nextSendAt: timestamp('next_send_at', { withTimezone: true }).notNull(),
  createdBy: integer('created_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});

/** One member of a campaign. `sending` is claimed by one process; a claim that outlived its process counts as failed, never sent twice. */
export const reminderRecipients = pgTable(
  'reminder_recipients',
  {
    reminderId: integer('reminder_id')
      .notNull()
      .references(() => reminders.id, { onDelete: 'cascade' }),
    memberId: integer('member_id').notNull(),
    status: text('status', { enum: ['pending', 'sending', 'sent', 'failed', 'skipped'] })
      .notNull()
      .default('pending'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** When the message went out (the hourly rule reads it). */
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.reminderId, t.memberId] }),
    index('reminder_recipients_pending_idx').on(t.reminderId, t.status),
    index('reminder_recipients_member_idx').on(t.memberId, t.sentAt),
  ],
);
