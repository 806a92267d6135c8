import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema';
import { lockDataDir, type DataDirLock, type LockDataDirOptions } from './data-dir-lock';
import { startPgliteInline, startPgliteWorker, type PgliteHost } from './pglite-host';

export type Db = PostgresJsDatabase<typeof schema>;
/** A transaction handle; services take `Db | Tx` where they can run inside a caller's transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type Database = {
  db: Db;
  sql: postgres.Sql;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
  /** An inline PGlite's data directory as a tarball (`pgliteFrom` of another database). */
  dumpDataDir?(): Promise<Blob>;
};

export type OpenDatabaseOptions = {
  /** A real Postgres; when absent the embedded PGlite is used. */
  url?: string;
  /** PGlite data folder; absent means in memory (tests). */
  dataDir?: string;
  /** PGlite on a worker thread (the server) or the calling thread (tests). */
  pgliteMode?: 'worker' | 'inline';
  /** An in-memory inline PGlite starts as a copy of this data directory tarball (tests' template). */
  pgliteFrom?: Blob;
  poolMax?: number;
  /** Distinct statement texts prepared at most (default PREPARED_STATEMENT_LIMIT). */
  preparedStatementLimit?: number;
  /**
   * A PGlite data folder is opened by one process at a time (db/data-dir-lock.ts): who this process
   * is, for the refusal another one prints, and how long to wait for the folder (default: refuse at once).
   */
  dataDirLock?: Partial<LockDataDirOptions>;
};

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  let host: PgliteHost | undefined;
  let url = options.url;
  let lock: DataDirLock | undefined;
  if (!url) {
    // Before PGlite opens the folder: a second process on it would corrupt it (data-dir-lock.ts).
    if (options.dataDir) lock = await lockDataDir(options.dataDir, { holder: 'a Kura process', ...options.dataDirLock });
    try {
      host =
        options.pgliteMode === 'worker' && options.dataDir
          ? await startPgliteWorker(options.dataDir)
          : await startPgliteInline(options.dataDir, options.pgliteFrom);
    } catch (error) {
      await lock?.release();
      throw error;
    }
    url = host.url;
  }
  const sql = postgres(url, {
    // PGlite executes one statement at a time for every connection; a single connection
    // keeps each transaction's messages together and in order.
    max: host ? 1 : (options.poolMax ?? 20),
    onnotice: () => {},
    connection: { application_name: 'kura' },
    idle_timeout: host ? 0 : 60,
    connect_timeout: 10,
  });
  const db = drizzle(preparingStatements(sql, options.preparedStatementLimit ?? PREPARED_STATEMENT_LIMIT), {
    schema,
    casing: 'snake_case',
  });
  return {
    db,
    sql,
    kind: host ? 'pglite' : 'postgres',
    async close() {
      await sql.end({ timeout: 5 });
      await host?.close();
      await lock?.release();
    },
    ...(host?.dumpDataDir ? { dumpDataDir: host.dumpDataDir } : {}),
  };
}

/**
 * How many distinct statement texts may become named prepared statements. Queries are built by
 * Drizzle from a fixed set of shapes, but a few (IN lists, bulk inserts) vary with their input;
 * past the bound a new text runs unprepared, so no connection collects statements without limit.
 */
export const PREPARED_STATEMENT_LIMIT = 500;

/**
 * Drizzle asks postgres.js for an unnamed statement on every query not built with `.prepare()`:
 * Parse/Describe, a wait for the parameter types, then Bind/Execute, with Postgres planning it
 * again each time. Named statements skip the wait and the planning (BENCHMARKS.md: +45 % votes,
 * a third of the database CPU per vote). postgres.js keeps them per connection and re-prepares
 * after a schema change (its RevalidateCachedQuery retry).
 */
function preparingStatements(sql: postgres.Sql, limit: number): postgres.Sql {
  const known = new Set<string>();
  const wrap = (target: postgres.Sql): postgres.Sql =>
    new Proxy(target, {
      get(t, prop) {
        if (prop === 'unsafe') {
          return (query: string, args?: postgres.ParameterOrJSON<never>[], options?: postgres.UnsafeQueryOptions) => {
            // Without parameters postgres.js uses the simple protocol: one round trip, nothing to name.
            const prepare = Boolean(args?.length) && (known.has(query) || (known.size < limit && Boolean(known.add(query))));
            return t.unsafe(query, args, { ...options, prepare });
          };
        }
        if (prop === 'begin' || prop === 'savepoint') {
          // The transaction's own handle must prepare too: castVote and sign-in run inside one.
          return (...args: unknown[]) => {
            const fn = args[args.length - 1] as (tx: postgres.Sql) => unknown;
            args[args.length - 1] = (tx: postgres.Sql) => fn(wrap(tx));
            return (Reflect.get(t, prop) as (...a: unknown[]) => unknown).apply(t, args);
          };
        }
        const value = Reflect.get(t, prop) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
      },
    });
  return wrap(sql);
}
