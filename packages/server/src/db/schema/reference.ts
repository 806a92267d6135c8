import { bigint, boolean, check, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/** The organisation's branches, as the admin defines them (Kenya's counties in the demo). */
export const branches = pgTable('branches', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
});

/** A position is national (level "National", no branch) or belongs to one branch (level = branch name). */
export const positions = pgTable(
  'positions',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    level: text('level').notNull(),
    branchId: integer('branch_id').references(() => branches.id, { onDelete: 'restrict' }),
    sortOrder: integer('sort_order').notNull().default(0),
    /** How many candidates are elected; a ballot takes 1..seats distinct candidates. */
    seats: integer('seats').notNull().default(1),
    description: text('description'),
  },
  (t) => [uniqueIndex('positions_name_level_uq').on(t.name, t.level), check('positions_seats_ck', sql`${t.seats} >= 1`)],
);

/** Voting items shown on the nominate page (spec: the Vote button there only logs). */
export const items = pgTable('items', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  description: text('description').notNull(),
});

/** Key-value settings of the installation (none in use; the election's state is on `election`). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The one election this installation runs: its texts, schedule and results visibility, edited by
 * admins (docs/decisions/004), and the voting switch. Exactly one row (id 1), created by the
 * migration. Read and written only through the election store (modules/elections/election-store.ts).
 */
export const election = pgTable(
  'election',
  {
    id: integer('id').primaryKey().default(1),
    title: text('title').notNull().default(''),
    organisation: text('organisation').notNull().default(''),
    website: text('website'),
    supportEmail: text('support_email'),
    opensAt: timestamp('opens_at', { withTimezone: true }),
    closesAt: timestamp('closes_at', { withTimezone: true }),
    /** The organisation's IANA time zone: the back office and the public pages show times in it. */
    timeZone: text('time_zone').notNull().default('UTC'),
    resultsVisibility: text('results_visibility', { enum: ['live', 'staff', 'after_close'] })
      .notNull()
      .default('live'),
    /** The voting switch: votes are taken while it is on (cast_vote reads it). */
    votingActive: boolean('voting_active').notNull().default(false),
    /** When voting was first switched on (setup before that). */
    openedAt: timestamp('opened_at', { withTimezone: true }),
    /** When the election closed for good. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** The `opens_at` the scheduler last opened voting for: each opening time opens once, across processes and restarts. */
    scheduledOpenFor: timestamp('scheduled_open_for', { withTimezone: true }),
    /** The commitment recorded when the election closed (the closing statements ran). */
    finalCommitmentId: bigint('final_commitment_id', { mode: 'number' }),
    /** `audit:verify` at close: {ok, problems, at}. */
    audit: jsonb('audit').$type<{ ok: boolean; problems: string[]; at: string }>(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('election_single_row_ck', sql`${t.id} = 1`),
    check('election_results_visibility_ck', sql`${t.resultsVisibility} in ('live', 'staff', 'after_close')`),
  ],
);
