import type { Translations } from '@kura/contract';
import { bigint, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { branches, positions } from './reference';

/** Registered members (voters). Emails are optional and stored lower-cased; phones in E.164. */
export const members = pgTable(
  'members',
  {
    id: serial('id').primaryKey(),
    memberNo: text('member_no').notNull().unique(),
    name: text('name').notNull(),
    /** Null when the member gave none (they sign in by SMS). */
    email: text('email').unique(),
    /** E.164 (`+254712345678`), whatever spelling the admin typed (docs/api.md "Register formats"). */
    phone: text('phone').notNull(),
    branchId: integer('branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'restrict' }),
    /** Set by the first verified sign-in (SMS, Google, authenticator) or sign-up. */
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** scrypt hash of the member's pin; null means the configured default pin. */
    pinHash: text('pin_hash'),
    /** TOTP secret, encrypted with the server key. */
    totpSecretEnc: text('totp_secret_enc'),
    totpConfirmedAt: timestamp('totp_confirmed_at', { withTimezone: true }),
    /** Last accepted TOTP step: each 30 s step is accepted once (speakeasy has no replay protection). */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    googleSub: text('google_sub').unique(),
    /** Profile photo URL (uploaded candidate photo under /uploads, or the Google picture). */
    photoUrl: text('photo_url'),
    /** A candidate's statement to voters (at most 2,000 characters), shown on the ballot. */
    statement: text('statement'),
    /** The statement in other languages: language → {statement} (docs/i18n.md "Ballot content"). */
    translations: jsonb('translations').$type<Translations<'statement'>>().notNull().default({}),
    /** A shipped language code (`en`, `sw`); null: the organisation's default (docs/architecture.md "Languages"). */
    language: text('language'),
    /** The organisation's attributes (docs/api.md "The register"): key → number, "YYYY-MM-DD", text or boolean. */
    attributes: jsonb('attributes').$type<Record<string, number | string | boolean>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('members_branch_idx').on(t.branchId), index('members_phone_idx').on(t.phone)],
);

/** A member standing for a position. */
export const candidacies = pgTable(
  'candidacies',
  {
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    positionId: integer('position_id')
      .notNull()
      .references(() => positions.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.positionId] }), index('candidacies_position_idx').on(t.positionId)],
);

/** Admins and agents. Admins sign in with a password then an emailed code; agents with an emailed code. */
export const staff = pgTable('staff', {
  id: serial('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  role: text('role', { enum: ['admin', 'agent'] }).notNull(),
  passwordHash: text('password_hash'),
  googleSub: text('google_sub').unique(),
  photoUrl: text('photo_url'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
