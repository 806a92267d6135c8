import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness';
import { openDatabase, type Database } from './client';
import { branches } from './schema';

let test: TestDatabase;
let database: Database;
beforeAll(async () => {
  test = await createTestDatabase();
  // A second handle on the same database with a tiny bound; PGlite in memory is its own database.
  database = test.url ? await openDatabase({ url: test.url, poolMax: 2, preparedStatementLimit: 3 }) : test;
});
afterAll(async () => {
  if (database !== test) await database.close();
  await test?.close();
});

const preparedOn = (tx: Parameters<Parameters<Database['db']['transaction']>[0]>[0]) =>
  tx.execute<{ statement: string }>(sql`select statement from pg_prepared_statements`).then((rows) => rows.map((r) => r.statement));

describe('the tests’ in-memory PGlite', () => {
  it('starts with 16 MB of shared buffers (db/pglite-host.ts: 0.45 s of CPU less per file); data-dir-lock.test.ts checks the product’s 128 MB', async () => {
    if (test.kind !== 'pglite') return; // a Postgres server's own setting
    const [row] = await test.sql.unsafe<{ shared_buffers: string }[]>('show shared_buffers');
    expect(row!.shared_buffers).toBe('16MB');
  });
});

describe('prepared statements', () => {
  it('runs Drizzle queries as named prepared statements, reused, inside transactions too', async () => {
    const statements = await test.db.transaction(async (tx) => {
      for (let i = 0; i < 3; i++)
        await tx
          .select()
          .from(branches)
          .where(sql`${branches.id} = ${i}`);
      return preparedOn(tx);
    });
    const selects = statements.filter((s) => s.includes('from "branches"'));
    expect(selects).toHaveLength(1);
  });

  it('prepares at most the bound of distinct texts; later ones still run, unprepared', async () => {
    if (database === test) return; // the bound is per handle: checked on the Postgres run
    const statements = await database.db.transaction(async (tx) => {
      for (let i = 0; i < 6; i++) {
        const rows = await tx.execute<{ n: number }>(sql`select ${i}::int as n, ${sql.raw(`'tag${i}'`)} as tag`);
        expect(rows[0]!.n).toBe(i);
      }
      return preparedOn(tx);
    });
    expect(statements.filter((s) => s.includes("'tag"))).toHaveLength(3);
  });
});
