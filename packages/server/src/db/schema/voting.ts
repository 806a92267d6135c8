import { bigserial, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The secret ballot box. A row is (receipt, position, candidate) and nothing else: no voter id,
 * no serial id, no timestamp. Rows arrive here from `ballot_queue` in shuffled batches written by
 * the mixer in its own transactions, so neither physical order nor transaction ids (xmin) tie a
 * ballot to the participation row of the vote that cast it.
 */
export const ballots = pgTable(
  'ballots',
  {
    receipt: text('receipt').notNull(),
    positionId: integer('position_id').notNull(),
    candidateId: integer('candidate_id').notNull(),
    /**
     * A ranked position's ballot is one receipt with a row per ranked candidate: `rank` is its place
     * in the voter's order (1 = first preference). 0 for every other method (no order is kept).
     */
    rank: smallint('rank').notNull().default(0),
  },
  // A ballot for a position with several seats is one receipt with a row per chosen candidate.
  (t) => [primaryKey({ columns: [t.receipt, t.candidateId] })],
);

/**
 * Ballots cast but not yet mixed: each row is {receipt, position, candidate} sealed with BALLOT_KEY
 * (AES-256-GCM) under a random id. Written in the vote transaction together with `participation`,
 * so an acknowledged vote is durable; readable only with the key, which lives outside the database.
 */
export const ballotQueue = pgTable('ballot_queue', {
  id: text('id').primaryKey(),
  sealed: text('sealed').notNull(),
});

/**
 * Who has voted for which position: the primary key is what makes "one vote per position" hold
 * under concurrency. `receiptEnc` is that voter's receipt code for the position, sealed with BALLOT_KEY,
 * so the voter can see their own vvpat rows while a dump alone links nobody to a choice.
 */
export const participation = pgTable(
  'participation',
  {
    memberId: integer('member_id').notNull(),
    positionId: integer('position_id').notNull(),
    receiptEnc: text('receipt_enc').notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.positionId] })],
);

/** Append-only public commitments to the ballot set (count + SHA-256 over sorted ballots). */
export const commitments = pgTable('commitments', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** The election whose ballot set this commits to. No foreign key: commitments are append-only and outlive nothing they name. */
  electionId: integer('election_id').notNull(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  count: integer('count').notNull(),
  hash: text('hash').notNull(),
  reason: text('reason').notNull(),
});
