import { dirname } from 'node:path';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { findUp } from '../lib/find-up';
import type { Database } from './client';
import { MIGRATION_LOCK } from './locks';

export function migrationsFolder(): string {
  const journal = findUp('migrations/meta/_journal.json');
  if (!journal) throw new Error('migrations/ folder not found');
  return dirname(dirname(journal));
}

/** Applies pending migrations. Several processes may start at once, so it holds a lock. */
export async function runMigrations(database: Database): Promise<void> {
  const migrationsFolderPath = migrationsFolder();
  if (database.kind === 'pglite') {
    // One process owns the embedded database, and its single connection cannot be reserved twice.
    await migrate(database.db, { migrationsFolder: migrationsFolderPath });
    return;
  }
  const lock = await database.sql.reserve();
  try {
    await lock`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(database.db, { migrationsFolder: migrationsFolderPath });
  } finally {
    await lock`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
    lock.release();
  }
}

/** For /readyz: are all migrations in the journal recorded as applied? */
export async function migrationsApplied(database: Database): Promise<boolean> {
  const journal = (await import(findUp('migrations/meta/_journal.json')!, { with: { type: 'json' } })) as {
    default: { entries: unknown[] };
  };
  const rows = await database.sql<{ n: number }[]>`
    select count(*)::int as n from drizzle.__drizzle_migrations`.catch(() => [{ n: -1 }]);
  return (rows[0]?.n ?? -1) >= journal.default.entries.length;
}
