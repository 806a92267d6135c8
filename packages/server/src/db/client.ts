import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema';
import { startPgliteInline, startPgliteWorker, type PgliteHost } from './pglite-host';

export type Db = PostgresJsDatabase<typeof schema>;
/** A transaction handle; services take `Db | Tx` where they can run inside a caller's transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type Database = {
  db: Db;
  sql: postgres.Sql;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
};

export type OpenDatabaseOptions = {
  /** A real Postgres; when absent the embedded PGlite is used. */
  url?: string;
  /** PGlite data folder; absent means in memory (tests). */
  dataDir?: string;
  /** PGlite on a worker thread (the server) or the calling thread (tests). */
  pgliteMode?: 'worker' | 'inline';
  poolMax?: number;
};

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  let host: PgliteHost | undefined;
  let url = options.url;
  if (!url) {
    host =
      options.pgliteMode === 'worker' && options.dataDir
        ? await startPgliteWorker(options.dataDir)
        : await startPgliteInline(options.dataDir);
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
  const db = drizzle(sql, { schema, casing: 'snake_case' });
  return {
    db,
    sql,
    kind: host ? 'pglite' : 'postgres',
    async close() {
      await sql.end({ timeout: 5 });
      await host?.close();
    },
  };
}
