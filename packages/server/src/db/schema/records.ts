import { bigserial, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** Activity log: who did what, from where, with what outcome. Never a code, password, token or choice. */
export const activityLogs = pgTable(
  'activity_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    activity: text('activity').notNull(),
    userId: integer('user_id'),
    /** Whose id user_id is: members (voter) and staff (admin, agent) number their ids separately. */
    userType: text('user_type', { enum: ['voter', 'agent', 'admin'] }),
    /** Free-form, non-secret context (searchable as `data`). */
    data: text('data'),
    ipAddress: text('ip_address').notNull().default(''),
    status: text('status').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('activity_logs_created_idx').on(t.createdAt)],
);

/** "Report an issue or help" submissions. */
export const issueReports = pgTable('issue_reports', {
  id: serial('id').primaryKey(),
  details: text('details').notNull(),
  role: text('role', { enum: ['voter', 'agent', 'admin'] }).notNull(),
  reporterId: integer('reporter_id').notNull(),
  reporterName: text('reporter_name').notNull(),
  /** Stored file names under DATA_DIR/uploads (served at /uploads/<name>). */
  images: jsonb('images').$type<string[]>().notNull().default([]),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
