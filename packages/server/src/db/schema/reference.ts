import type { AttributeDef, ElectedIn, ElectionNominations, PositionNomination, Rule, Translations } from '@kura/contract';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
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
    /** The election the position belongs to (ballots, participation and candidacies follow it). */
    electionId: integer('election_id')
      .notNull()
      .references((): AnyPgColumn => election.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    level: text('level').notNull(),
    branchId: integer('branch_id').references(() => branches.id, { onDelete: 'restrict' }),
    sortOrder: integer('sort_order').notNull().default(0),
    /** How many candidates are elected; a ballot takes 1..seats distinct candidates. */
    seats: integer('seats').notNull().default(1),
    description: text('description'),
    /** `candidates` elects members standing for it; `motion` decides Yes, No or Abstain (its `motion_options`). */
    kind: text('kind', { enum: ['candidates', 'motion'] })
      .notNull()
      .default('candidates'),
    /** Candidates positions: plurality (1..seats), approval (1..all), ranked (1..all in order, counted by STV). */
    method: text('method', { enum: ['plurality', 'approval', 'ranked'] })
      .notNull()
      .default('plurality'),
    /** Motions: the share of Yes ÷ (Yes + No) needed. */
    threshold: text('threshold', { enum: ['majority', 'two_thirds', 'three_quarters'] })
      .notNull()
      .default('majority'),
    /** Motions: the share (percent) of the roll that must vote on it; null: no quorum. */
    quorumPercent: integer('quorum_percent'),
    /**
     * Ranked positions: each voter's ballot lists the candidates in an order of its own, fixed for that
     * voter (docs/api.md "Rotating the candidates' order"); false (and for every other method): by name.
     */
    rotateCandidates: boolean('rotate_candidates').notNull().default(false),
    /** The name and description in other languages: language → {name?, description?} (docs/i18n.md "Ballot content"). */
    translations: jsonb('translations').$type<Translations<'name' | 'description'>>().notNull().default({}),
    /** Rules every candidate must meet when assigned (docs/api.md "The register"): Rule[]. */
    eligibility: jsonb('eligibility').$type<Rule[]>().notNull().default([]),
    /** How members nominate its candidates (docs/api.md "Nominations"), as the API shows it; null: staff enter them. */
    nomination: jsonb('nomination').$type<PositionNomination>(),
  },
  (t) => [
    uniqueIndex('positions_election_name_level_uq').on(t.electionId, t.name, t.level),
    check('positions_seats_ck', sql`${t.seats} >= 1`),
    check('positions_kind_ck', sql`${t.kind} in ('candidates', 'motion')`),
    check('positions_method_ck', sql`${t.method} in ('plurality', 'approval', 'ranked')`),
    check('positions_threshold_ck', sql`${t.threshold} in ('majority', 'two_thirds', 'three_quarters')`),
    check('positions_quorum_ck', sql`${t.quorumPercent} is null or (${t.quorumPercent} between 1 and 100)`),
    check('positions_motion_seats_ck', sql`${t.kind} <> 'motion' or ${t.seats} = 1`),
    check('positions_rotate_ck', sql`not ${t.rotateCandidates} or (${t.kind} = 'candidates' and ${t.method} = 'ranked')`),
  ],
);

/**
 * A motion's three options (Yes, No, Abstain), created with the motion: on the ballot and in
 * `ballots` they stand where a candidate would (candidate_id is the option's id).
 */
export const motionOptions = pgTable(
  'motion_options',
  {
    id: serial('id').primaryKey(),
    positionId: integer('position_id')
      .notNull()
      .references(() => positions.id, { onDelete: 'cascade' }),
    name: text('name', { enum: ['Yes', 'No', 'Abstain'] }).notNull(),
    /** Ballot order: Yes 0, No 1, Abstain 2. */
    sortOrder: smallint('sort_order').notNull(),
  },
  (t) => [
    index('motion_options_position_idx').on(t.positionId, t.id),
    uniqueIndex('motion_options_position_name_uq').on(t.positionId, t.name),
  ],
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
 * The organisation this installation serves: its texts, time zone and current election
 * (docs/architecture.md "Where state lives"). Exactly one row (id 1), created by migration 0013.
 * Read and written only through the election store (db/election-store.ts).
 */
export const organisation = pgTable(
  'organisation',
  {
    id: integer('id').primaryKey().default(1),
    name: text('name').notNull().default(''),
    website: text('website'),
    supportEmail: text('support_email'),
    /** The organisation's IANA time zone: the back office and the public pages show times in it. */
    timeZone: text('time_zone').notNull().default('UTC'),
    /** The election the calls without `?election_id` act on; null: the only open one, else the newest not archived. */
    currentElectionId: integer('current_election_id').references(() => election.id, { onDelete: 'set null' }),
    /** A shipped language code: members without a language of their own get it (docs/api.md "Languages"). */
    defaultLanguage: text('default_language').notNull().default('en'),
    /** A regular expression member numbers must match as a whole; null: 1-32 letters, digits, "-", "/", "." (docs/api.md "Register formats"). */
    memberNoPattern: text('member_no_pattern'),
    /** The member attributes the organisation keeps (docs/api.md "The register"): AttributeDef[]. */
    attributes: jsonb('attributes').$type<AttributeDef[]>().notNull().default([]),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('organisation_single_row_ck', sql`${t.id} = 1`)],
);

/**
 * The organisation's elections: each one's title, schedule and results visibility, edited by
 * admins (docs/decisions/004), its electorate and the voting switch. Migration 0013 made the
 * single election of earlier releases election 1. Read and written only through the election
 * store (db/election-store.ts).
 */
export const election = pgTable(
  'election',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    title: text('title').notNull().default(''),
    description: text('description'),
    opensAt: timestamp('opens_at', { withTimezone: true }),
    closesAt: timestamp('closes_at', { withTimezone: true }),
    resultsVisibility: text('results_visibility', { enum: ['live', 'staff', 'after_close'] })
      .notNull()
      .default('live'),
    /** The branches whose members are on the roll; null: every member. */
    electorateBranchIds: integer('electorate_branch_ids').array(),
    /** Rules every member of the roll meets (docs/api.md "The register"): Rule[]. */
    electorateRules: jsonb('electorate_rules').$type<Rule[]>().notNull().default([]),
    /** A delegates' meeting: only the members declared elected in that election (those positions, or any). */
    electedIn: jsonb('elected_in').$type<ElectedIn>(),
    /** The inspection window: claims are filed inside it, and the roll freezes when it closes. */
    registerOpensAt: timestamp('register_opens_at', { withTimezone: true }),
    registerClosesAt: timestamp('register_closes_at', { withTimezone: true }),
    /** The frozen roll's hash: SHA-256 (hex) of its member numbers, sorted, each followed by "\n". */
    rollHash: text('roll_hash'),
    /** The nominations window (docs/api.md "Nominations"), as the API shows it; null: no nominations. */
    nominations: jsonb('nominations').$type<ElectionNominations>(),
    /** Archived elections leave the public list; their results stay reachable by id. */
    archived: boolean('archived').notNull().default(false),
    /** The voting switch: votes are taken while it is on (cast_vote reads it). */
    votingActive: boolean('voting_active').notNull().default(false),
    /** When voting was first switched on (setup before that). */
    openedAt: timestamp('opened_at', { withTimezone: true }),
    /** When the roll was frozen: the register's close or the first opening, whichever came first. Members who joined it later are not on it. */
    rollFrozenAt: timestamp('roll_frozen_at', { withTimezone: true }),
    /** When the election closed for good. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** The `opens_at` the scheduler last opened voting for: each opening time opens once, across processes and restarts. */
    scheduledOpenFor: timestamp('scheduled_open_for', { withTimezone: true }),
    /** The commitment recorded when the election closed (the closing statements ran). */
    finalCommitmentId: bigint('final_commitment_id', { mode: 'number' }),
    /** `audit:verify` at close: {ok, problems, at}. */
    audit: jsonb('audit').$type<{ ok: boolean; problems: string[]; at: string }>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('election_results_visibility_ck', sql`${t.resultsVisibility} in ('live', 'staff', 'after_close')`)],
);

/**
 * An election's roll, frozen when voting first opens: the members of its electorate then (every
 * member when `electorate_branch_ids` is null). A member created or moved into its branches
 * afterwards is not on it, and cast_vote refuses them in this election (docs/api.md "The roll").
 */
export const electionRoll = pgTable(
  'election_roll',
  {
    electionId: integer('election_id')
      .notNull()
      .references(() => election.id, { onDelete: 'cascade' }),
    memberId: integer('member_id').notNull(),
    /**
     * The member's branch at the freeze: the quorum of a branch motion and the turnout per branch
     * count it, so a later move does not change them (rows frozen before migration 0017 hold the
     * branch at that migration).
     */
    branchId: integer('branch_id').notNull(),
    /**
     * The member's number and branch name at the freeze: roll.csv, the roll's hash, the declaration
     * and the evidence pack read these, so renumbering a member or renaming a branch afterwards
     * changes nothing a signature covers (rows frozen before migration 0025 hold the values at it).
     */
    memberNo: text('member_no').notNull(),
    branch: text('branch').notNull(),
  },
  (t) => [primaryKey({ columns: [t.electionId, t.memberId] })],
);

/**
 * Claims on an election's register, filed by members while its register is open and ruled on by
 * the returning officer (docs/api.md "The register"): part of the election's evidence.
 */
export const registerClaims = pgTable(
  'register_claims',
  {
    id: serial('id').primaryKey(),
    electionId: integer('election_id')
      .notNull()
      .references(() => election.id, { onDelete: 'cascade' }),
    /** The claimant; kept if the member is later removed (the claim is evidence). */
    memberId: integer('member_id').notNull(),
    memberNo: text('member_no').notNull(),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['correction', 'inclusion', 'objection'] }).notNull(),
    subjectMemberNo: text('subject_member_no'),
    details: text('details').notNull(),
    status: text('status', { enum: ['pending', 'upheld', 'dismissed'] })
      .notNull()
      .default('pending'),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    index('register_claims_election_idx').on(t.electionId, t.status, t.id),
    index('register_claims_member_idx').on(t.memberId, t.electionId),
  ],
);
