import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client';
import { runMigrations } from '../src/db/migrate';

/**
 * Vitest global setup: migrates one template database per run, which every test file's database
 * then copies instead of running the migrations itself (the copy takes a fraction of the time).
 *
 * - PGlite: an in-memory instance migrated once, its data directory written to a tarball that
 *   each file's PGlite starts from.
 * - Postgres: a database named for this run (other runs on the same server have their own), that
 *   each file's database is created from with `CREATE DATABASE … TEMPLATE`; dropped at the end.
 *
 * The copies are exactly what the real migrations leave; migrate.test.ts still runs them itself.
 */

declare module 'vitest' {
  // Vitest's provided values are declared by merging into its interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  export interface ProvidedContext {
    /** PGlite: the migrated data directory tarball's path. */
    pgliteTemplatePath: string | undefined;
    /** Postgres: the migrated template database's name. */
    postgresTemplate: string | undefined;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.DATABASE_URL || undefined;
  if (!url) {
    const database = await openDatabase({ pgliteMode: 'inline' });
    try {
      await runMigrations(database);
      // Every page on disk, so the copy starts without replaying the write-ahead log.
      await database.sql`checkpoint`;
      const tarball = await database.dumpDataDir!();
      const dir = mkdtempSync(join(tmpdir(), 'kura-template-'));
      const path = join(dir, 'pgdata.tar');
      writeFileSync(path, Buffer.from(await tarball.arrayBuffer()));
      project.provide('pgliteTemplatePath', path);
      project.provide('postgresTemplate', undefined);
      return async () => rmSync(dir, { recursive: true, force: true });
    } finally {
      await database.close();
    }
  }

  const name = `kura_template_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${name}`;
  // Two connections: runMigrations holds one for its lock while the migrations run on the other.
  const database = await openDatabase({ url: templateUrl.toString(), poolMax: 2 });
  try {
    await runMigrations(database);
  } finally {
    // A template must have no connection open while it is copied.
    await database.close();
  }
  project.provide('pgliteTemplatePath', undefined);
  project.provide('postgresTemplate', name);
  return async () => {
    await admin.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
    await admin.end();
  };
}
