import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { migrationsFolder } from '../src/db/migrate';
import type { TestDatabase } from './harness';

/** Applies the migrations up to and including `lastTag` only: a database as an older release left it. */
export async function migrateUpTo(database: TestDatabase, lastTag: string): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'kura-migrations-'));
  try {
    cpSync(migrationsFolder(), folder, { recursive: true });
    const journalPath = join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
    const last = journal.entries.findIndex((e) => e.tag === lastTag);
    if (last < 0) throw new Error(`no migration ${lastTag}`);
    writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, last + 1) }));
    await migrate(database.db, { migrationsFolder: folder });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
