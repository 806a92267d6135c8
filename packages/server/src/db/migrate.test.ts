import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness';
import { migrationsApplied, runMigrations } from './migrate';

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

  it('give ballots no voter, serial or time column', async () => {
    const cols = await database.sql<{ column_name: string }[]>`
      select column_name from information_schema.columns where table_name = 'ballots' order by column_name`;
    expect(cols.map((c) => c.column_name)).toEqual(['candidate_id', 'position_id', 'receipt']);
  });
});
