import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness';
import { functionSql, sqlFunctions, type SqlFunction } from './functions';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

type Defined = { arguments: string; returns: string; language: string; volatility: string; settings: string[]; body: string };

/** Every function of that name in the public schema, as Postgres holds it. */
const defined = (name: string) => database.sql<Defined[]>`
  select pg_get_function_arguments(p.oid) as arguments, pg_get_function_result(p.oid) as returns,
         l.lanname as language, p.provolatile as volatility, coalesce(p.proconfig, '{}') as settings, p.prosrc as body
  from pg_proc p
  join pg_namespace n on n.oid = p.pronamespace
  join pg_language l on l.oid = p.prolang
  where n.nspname = 'public' and p.proname = ${name}`;

const declared = (fn: SqlFunction): Defined => ({
  arguments: fn.arguments.join(', '),
  returns: fn.returns,
  language: fn.language,
  volatility: fn.volatility[0]!,
  settings: [...(fn.settings ?? [])],
  body: fn.body,
});

describe('SQL functions declared in db/schema/functions.ts', () => {
  it.each(sqlFunctions.map((fn) => [fn.name, fn] as const))('%s, as the migrations leave it, is its declaration', async (_name, fn) => {
    const rows = await defined(fn.name);
    // Exactly one: an old signature a migration forgot to drop would be a second.
    const drift = `${fn.name} in the database is not its declaration in db/schema/functions.ts: add a migration with \`pnpm --filter @kura/server db:functions ${fn.name}\``;
    expect(rows, drift).toHaveLength(1);
    expect({ ...rows[0] }, drift).toEqual(declared(fn));
  });

  it.each(sqlFunctions.map((fn) => [fn.name, fn] as const))(
    '%s: the db:functions statement defines exactly the declaration',
    async (_name, fn) => {
      const types = (await defined(fn.name)).map((r) =>
        r.arguments
          .split(', ')
          .map((a) => a.slice(a.indexOf(' ') + 1))
          .join(', '),
      );
      // A trigger's function cannot be dropped under its trigger: the statement replaces it in place.
      if (fn.returns !== 'trigger') {
        await database.sql.unsafe(`DROP FUNCTION ${fn.name}(${types[0]})`);
        expect(await defined(fn.name)).toHaveLength(0);
      }
      await database.sql.unsafe(functionSql(fn));
      const rows = await defined(fn.name);
      expect(rows).toHaveLength(1);
      expect({ ...rows[0] }).toEqual(declared(fn));
    },
  );
});
