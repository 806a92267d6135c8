import { bigint, bigserial, integer, json, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The secret ballot box. A row is (receipt, position, candidate) and nothing else: no voter id,
 * no serial id, no timestamp. Rows arrive here from `ballot_queue` in shuffled batches written by
 * the mixer in its own transactions, so neither physical order nor transaction ids (xmin) tie a
 * ballot to the participation row of the vote that cast it.
 */
export const ballots = pgTable(
  'ballots',
  {
    /**
     * The election of the ballot's position. The table is partitioned by it (LIST, a partition
     * `ballots_e<id>` per election, migration 0018, docs/decisions/009-a-ballot-box-per-election.md):
     * the close re-mixes its own election's partition and never touches another's.
     */
    electionId: integer('election_id').notNull(),
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
  (t) => [primaryKey({ columns: [t.electionId, t.receipt, t.candidateId] })],
);

/**
 * Ballots cast but not yet mixed: each row is {receipt, position, candidate} sealed with BALLOT_KEY
 * (AES-256-GCM) under a random id. Written in the vote transaction together with `participation`,
 * so an acknowledged vote is durable; readable only with the key, which lives outside the database.
 */
export const ballotQueue = pgTable(
  'ballot_queue',
  {
    /**
     * The election the ballot was cast in: no secret (`participation` says which position a member
     * voted for). Partitioned by it like `ballots` (`ballot_queue_e<id>`); partition 0 holds rows
     * queued before the partitioning, until the mixer files them under their election.
     */
    electionId: integer('election_id').notNull(),
    id: text('id').notNull(),
    sealed: text('sealed').notNull(),
  },
  (t) => [primaryKey({ columns: [t.electionId, t.id] })],
);

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

/**
 * The declaration of a close (`psk/results/final` without the parts read at serve time: the final
 * commitment, `closed_at` and the audit), counted once in the transaction that records its final
 * commitment and served from here by every process. Append-only like the commitments (a trigger
 * refuses UPDATE and DELETE). `json`, not `jsonb`: the text is kept as written, keys in order, so
 * what is served is what was counted, byte for byte (docs/architecture.md "The declaration").
 */
export const declarations = pgTable('declarations', {
  /** The final commitment this declaration was counted with (its hash seeds a ranked count's lot). */
  commitmentId: bigint('commitment_id', { mode: 'number' }).primaryKey(),
  electionId: integer('election_id').notNull(),
  declaration: json('declaration').notNull(),
});
