import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { members } from './people';
import { election, positions } from './reference';

/**
 * A nomination (docs/api.md "Nominations"): a member proposed for a position of an election by
 * members on its roll, accepted by the nominee, decided by the returning officer, maybe appealed.
 * `status` is stored (each step moves it under the row's lock); the checks are the position's
 * eligibility rules on the nominee as they stood when it was submitted.
 */
export const nominations = pgTable(
  'nominations',
  {
    id: serial('id').primaryKey(),
    electionId: integer('election_id')
      .notNull()
      .references(() => election.id, { onDelete: 'cascade' }),
    positionId: integer('position_id')
      .notNull()
      .references(() => positions.id, { onDelete: 'cascade' }),
    nomineeId: integer('nominee_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    /** The member who made it (a proposer, or the nominee themselves). */
    createdBy: integer('created_by')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    statement: text('statement'),
    photoUrl: text('photo_url'),
    accepted: boolean('accepted'),
    status: text('status', {
      enum: ['awaiting_support', 'awaiting_acceptance', 'submitted', 'valid', 'invalid', 'withdrawn'],
    }).notNull(),
    checks: jsonb('checks').$type<{ rule: string; met: boolean }[]>().notNull().default([]),
    decisionValid: boolean('decision_valid'),
    decisionReason: text('decision_reason'),
    decisionAt: timestamp('decision_at', { withTimezone: true }),
    /** Why a valid decision went against a failed check (logged too). */
    overrideReason: text('override_reason'),
    appealGrounds: text('appeal_grounds'),
    appealStatus: text('appeal_status', { enum: ['pending', 'upheld', 'dismissed'] }),
    appealReason: text('appeal_reason'),
    appealedAt: timestamp('appealed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('nominations_election_idx').on(t.electionId, t.status),
    index('nominations_position_idx').on(t.positionId),
    index('nominations_nominee_idx').on(t.nomineeId),
    check(
      'nominations_status_ck',
      sql`${t.status} in ('awaiting_support', 'awaiting_acceptance', 'submitted', 'valid', 'invalid', 'withdrawn')`,
    ),
    check('nominations_appeal_ck', sql`${t.appealStatus} is null or ${t.appealStatus} in ('pending', 'upheld', 'dismissed')`),
  ],
);

/** The proposers and seconders a nomination names, in the order given, and whether each confirmed. */
export const nominationSupporters = pgTable(
  'nomination_supporters',
  {
    nominationId: integer('nomination_id')
      .notNull()
      .references(() => nominations.id, { onDelete: 'cascade' }),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['proposer', 'seconder'] }).notNull(),
    /** The order given: the first proposer is sort 0 among the proposers' rows. */
    sort: smallint('sort').notNull(),
    confirmed: boolean('confirmed').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.nominationId, t.memberId] }),
    index('nomination_supporters_member_idx').on(t.memberId),
    check('nomination_supporters_role_ck', sql`${t.role} in ('proposer', 'seconder')`),
  ],
);
