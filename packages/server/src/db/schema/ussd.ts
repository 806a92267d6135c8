import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * USSD sessions (docs/operations.md "Voting by USSD with Africa's Talking"): the state of one
 * gateway session by its `sessionId`, kept here so any server process answers the next request.
 * `version` is bumped by every write, so two processes answering the same session never both
 * act on one state; `held_until` marks a request being answered (a repeat waits for its answer).
 */
export const ussdSessions = pgTable(
  'ussd_sessions',
  {
    sessionId: text('session_id').primaryKey(),
    version: integer('version').notNull().default(1),
    /** The screen state and the answers given so far, by the request's `text` (modules/ussd/session-store.ts). */
    data: jsonb('data').notNull(),
    heldUntil: timestamp('held_until', { withTimezone: true }),
    touchedAt: timestamp('touched_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('ussd_sessions_touched_idx').on(t.touchedAt)],
);

/**
 * The positions a member voted for by USSD (statistics by channel): the same pair participation
 * holds, never a choice. Written after the vote commits; the web channel is every other ballot.
 */
export const ussdVotes = pgTable(
  'ussd_votes',
  {
    memberId: integer('member_id').notNull(),
    positionId: integer('position_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.positionId] })],
);
