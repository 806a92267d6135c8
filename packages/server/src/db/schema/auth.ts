import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** Bearer sessions. Only the SHA-256 of the token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    role: text('role', { enum: ['voter', 'agent', 'admin'] }).notNull(),
    /** members.id for voters, staff.id for agents and admins. */
    subjectId: integer('subject_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
  },
  (t) => [index('sessions_subject_idx').on(t.role, t.subjectId), index('sessions_expires_idx').on(t.expiresAt)],
);

/** One-time codes (SMS for voters, email for admins and agents), stored hashed. */
export const otpChallenges = pgTable(
  'otp_challenges',
  {
    id: serial('id').primaryKey(),
    purpose: text('purpose', { enum: ['voter', 'admin', 'agent'] }).notNull(),
    subjectId: integer('subject_id').notNull(),
    channel: text('channel', { enum: ['sms', 'email'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    tries: integer('tries').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** A newer code for the same subject kills this one. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('otp_subject_idx').on(t.purpose, t.subjectId, t.createdAt)],
);

/** Failed sign-in attempts per account, for the per-account ceiling that rotating IPs cannot dodge. */
export const authFailures = pgTable(
  'auth_failures',
  {
    id: serial('id').primaryKey(),
    accountKey: text('account_key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('auth_failures_account_idx').on(t.accountKey, t.at)],
);

/**
 * Google ID tokens already accepted, by SHA-256, until they expire: a token signs in or starts a
 * sign-up once. Rows past `expires_at` are useless (Google's check refuses the token) and are purged.
 */
export const usedIdTokens = pgTable(
  'used_id_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('used_id_tokens_expires_idx').on(t.expiresAt)],
);
