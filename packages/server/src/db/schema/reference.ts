import { integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** The organisation's branches (Kenya's counties in the demo). */
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
  },
  (t) => [uniqueIndex('positions_name_level_uq').on(t.name, t.level)],
);

/** Voting items shown on the nominate page (spec: the Vote button there only logs). */
export const items = pgTable('items', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  description: text('description').notNull(),
});

/** Key-value settings; `election_active` holds '1' or '0'. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
