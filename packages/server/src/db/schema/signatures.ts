import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Staff members' Ed25519 signing keys (docs/operations.md "After the close: certifying the
 * result"). A new key replaces the caller's key for elections that close afterwards; earlier rows
 * stay, so a signature names the key it was checked with. Only public keys: the private key never
 * reaches the server.
 */
export const signingKeys = pgTable(
  'signing_keys',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    staffId: integer('staff_id').notNull(),
    /** base64 of the raw 32-byte key */
    publicKey: text('public_key').notNull(),
    /** the first 16 hex digits of SHA-256 of the raw key */
    fingerprint: text('fingerprint').notNull(),
    registeredAt: timestamp('registered_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('signing_keys_staff_idx').on(t.staffId, t.id)],
);

/** A signer's certification or dispute of an election's result: verified before it is stored; one per signer and election. */
export const declarationSignatures = pgTable(
  'declaration_signatures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    electionId: integer('election_id').notNull(),
    staffId: integer('staff_id').notNull(),
    keyId: integer('key_id').notNull(),
    name: text('name').notNull(),
    role: text('role', { enum: ['admin', 'agent'] }).notNull(),
    fingerprint: text('fingerprint').notNull(),
    publicKey: text('public_key').notNull(),
    kind: text('kind', { enum: ['certify', 'dispute'] }).notNull(),
    statement: text('statement').notNull(),
    /** the digest signed (the pack's, fixed at the close) */
    digest: text('digest').notNull(),
    signature: text('signature').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('declaration_signatures_signer_uq').on(t.electionId, t.staffId)],
);
