import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness';
import { migrationsApplied, migrationsFolder, runMigrations } from './migrate';

/** Applies the migrations up to and including `lastTag` only: a database as an older release left it. */
async function migrateUpTo(database: TestDatabase, lastTag: string): Promise<void> {
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

let database: TestDatabase;
beforeAll(async () => {
  // The migrations themselves, on an empty database (other files copy a migrated template).
  database = await createTestDatabase({ migrate: true });
});
afterAll(async () => {
  await database?.close();
});

describe('migrations', () => {
  it('create every table of the data model', async () => {
    const rows = await database.sql<{ table_name: string }[]>`
      select table_name from information_schema.tables where table_schema = 'public' order by table_name`;
    expect(rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining([
        'activity_logs',
        'auth_failures',
        'ballot_queue',
        'ballots',
        'branches',
        'candidacies',
        'commitments',
        'issue_reports',
        'items',
        'members',
        'otp_challenges',
        'participation',
        'positions',
        'sessions',
        'settings',
        'staff',
      ]),
    );
    expect(await migrationsApplied(database)).toBe(true);
  });

  it('are idempotent: a second run applies nothing and fails nothing', async () => {
    await runMigrations(database);
    const [row] = await database.sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
    expect(row!.n).toBeGreaterThanOrEqual(2);
  });

  it('keep commitments append-only', async () => {
    await database.sql`insert into commitments (count, hash, reason) values (0, 'abc', 'test')`;
    await expect(database.sql`update commitments set hash = 'forged'`).rejects.toThrow(/append-only/);
    await expect(database.sql`delete from commitments`).rejects.toThrow(/append-only/);
  });

  it('give ballots no voter, serial or time column (rank is a place in a ranking, 0 for other methods)', async () => {
    const cols = await database.sql<{ column_name: string }[]>`
      select column_name from information_schema.columns where table_name = 'ballots' order by column_name`;
    expect(cols.map((c) => c.column_name)).toEqual(['candidate_id', 'position_id', 'rank', 'receipt']);
  });
});

describe('0011: the voting switch moves from settings onto the election row', () => {
  it.each([
    ['1', true],
    ['0', false],
  ])(
    'a database at 0010 with election_active = %s upgrades to voting_active = %s, the key deleted',
    { timeout: 120_000 }, // every migration from an empty database
    async (value, active) => {
      const old = await createTestDatabase({ empty: true });
      try {
        await migrateUpTo(old, '0010_used_id_tokens');
        await old.sql`update settings set value = ${value} where key = 'election_active'`;
        const [before] = await old.sql<{ value: string }[]>`select value from settings where key = 'election_active'`;
        expect(before?.value).toBe(value);

        await runMigrations(old);
        const [row] = await old.sql<{ voting_active: boolean }[]>`select voting_active from election`;
        expect(row?.voting_active).toBe(active);
        expect(await old.sql`select key from settings where key = 'election_active'`).toHaveLength(0);
        expect(await migrationsApplied(old)).toBe(true);
      } finally {
        await old.close();
      }
    },
  );

  it('a new database starts with voting off and no election key in settings', async () => {
    const [row] = await database.sql<{ voting_active: boolean }[]>`select voting_active from election`;
    expect(row?.voting_active).toBe(false);
    expect(await database.sql`select key from settings`).toHaveLength(0);
  });
});
