/// <reference types="node" />
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

/**
 * The browser suite's servers on a real PostgreSQL, where one is given (ADR 016,
 * docs/decisions/016-the-browser-suite-demo-on-postgres.md): `E2E_PGHOST` names the directory of its Unix socket (Debian's
 * `/var/run/postgresql`, user `postgres` with trust auth, as on CI machines). A socket, not TCP:
 * in CI the suite runs in a network namespace of its own, where 127.0.0.1 is its own loopback and
 * the machine's Postgres is not listening, while a socket in the file system is reached from any.
 * Unset (a user's machine without Postgres), every server runs on the embedded PGlite.
 */
export function e2ePostgresHost(): string | undefined {
  return process.env.E2E_PGHOST || undefined;
}

/** What a server started on database `name` is given: libpq's PGHOST/PGUSER say where, the URL which. */
export function postgresEnv(name: string): Record<string, string> {
  const host = e2ePostgresHost();
  if (!host) throw new Error('E2E_PGHOST is not set');
  return { DATABASE_URL: `postgres:///${name}`, PGHOST: host, PGUSER: 'postgres' };
}

/** A database name of this run's own: the suite's prefix and random letters (never chosen from input). */
export const newDatabaseName = (kind: 'demo' | 'server') => `kura_e2e_${kind}_${randomBytes(6).toString('hex')}`;

async function admin<T>(work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres({ host: e2ePostgresHost(), user: 'postgres', database: 'postgres', max: 1, onnotice: () => undefined });
  try {
    return await work(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Creates `name`, empty or as a copy of `template` (a database nobody is connected to). */
export function createDatabase(name: string, template?: string): Promise<void> {
  return admin(async (sql) => {
    await (template ? sql`create database ${sql(name)} template ${sql(template)}` : sql`create database ${sql(name)}`);
  });
}

/** Drops `name`, closing whatever connections a stopped server may have left. */
export function dropDatabase(name: string): Promise<void> {
  return admin(async (sql) => {
    await sql`drop database if exists ${sql(name)} with (force)`;
  });
}
