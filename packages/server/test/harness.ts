import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Express } from 'express';
import postgres from 'postgres';
import { inject } from 'vitest';
import { createApp } from '../src/app';
import { createContext, createCore } from '../src/bootstrap';
import type { AppContext, Core } from '../src/context';
import { openDatabase, type Database } from '../src/db/client';
import { runMigrations } from '../src/db/migrate';
import { seedSampleStructure } from './reference';
import { TemplateBlob } from './template-database';
import { parseEnv } from '../src/env';
import { MIN_PASSWORD_COST } from '../src/lib/passwords';
import { createLogger } from '../src/logger';
import { randomSecrets } from '../src/secrets';

/**
 * Test harness: every test file gets its own database — an in-memory PGlite by default, or a
 * fresh database on the real Postgres named by DATABASE_URL — with migrations applied. The
 * migrations run once per run, on a template (test/template-database.ts) that each database
 * copies; without one (a config with no global setup) each database runs them itself.
 */

/** The real Postgres the suite runs against, when set (CI runs the suite both ways). */
export const TEST_DATABASE_URL = process.env.DATABASE_URL || undefined;
export const databaseKind = TEST_DATABASE_URL ? 'postgres' : 'pglite';

/**
 * The cost the harness's cores hash passwords and pins at (lib/passwords.ts): N = 2^10, 1/32 of
 * the product's work and memory. The suite makes and checks some 140 hashes, which at the product's
 * cost were a tenth of its CPU; every hash still goes through the same code, and names its cost.
 * Processes the suite starts (the CLI, the e2e and reliability servers) hash at the product's.
 */
export const TEST_PASSWORD_COST = MIN_PASSWORD_COST;

export type TestDatabase = Database & { url?: string };

export type TestDatabaseOptions = {
  /** Start empty and run the migrations here, rather than copy the migrated template. */
  migrate?: boolean;
  /** Start empty and leave it so (no migration run): for a test of one migration's upgrade path. */
  empty?: boolean;
};

let pgliteTemplate: Blob | undefined;

export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  if (!TEST_DATABASE_URL) {
    const templatePath = options.migrate || options.empty ? undefined : inject('pgliteTemplatePath');
    if (templatePath) pgliteTemplate ??= new TemplateBlob(readFileSync(templatePath));
    const database = await openDatabase({ pgliteMode: 'inline', pgliteFrom: templatePath ? pgliteTemplate : undefined });
    if (!templatePath && !options.empty) await runMigrations(database);
    return database;
  }
  const template = options.migrate || options.empty ? undefined : inject('postgresTemplate');
  const name = `kura_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(template ? `create database "${name}" template "${template}"` : `create database "${name}"`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolMax: 10 });
  if (!template && !options.empty) await runMigrations(database);
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close();
      const dropper = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
      await dropper.end();
    },
  };
}

/** A clock tests can move forward (code expiry, session idle timeouts, rate-limit windows). */
export class TestClock {
  private offsetMs = 0;
  now = (): Date => new Date(Date.now() + this.offsetMs);
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export type TestAppOptions = {
  /** Raw environment overrides, as strings, like the real process environment. */
  env?: Record<string, string | undefined>;
  /** A database the test prepared (e.g. upgraded from an older release's migrations); closed with the core. */
  database?: TestDatabase;
  /** Start from the demo's branches and positions (default true); false is an empty install. */
  seedReference?: boolean;
};

export type TestApp = {
  app: Express;
  ctx: AppContext;
  clock: TestClock;
  /** Every log line written while the app ran (to prove secrets never reach the log). */
  logs: string[];
  dataDir: string;
  close(): Promise<void>;
};

export type TestCore = {
  core: Core;
  clock: TestClock;
  /** Every log line written while the core was open. */
  logs: string[];
  close(): Promise<void>;
};

/**
 * The core alone on its own real database (migrated, the demo's branches and positions unless
 * `seedReference: false`), to build one module with its factory and the deps it names, without
 * the whole app (docs/architecture.md "How modules are composed"). The test starts and stops
 * the services it builds.
 */
export async function createTestCore(options: TestAppOptions = {}): Promise<TestCore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kura-test-'));
  const env = parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'info', DATA_DIR: dataDir, ...options.env });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const database = options.database ?? (await createTestDatabase());
  const clock = new TestClock();
  const { core, runOnClose } = createCore({
    env,
    logger: createLogger(env, sink),
    database,
    secrets: randomSecrets(),
    now: clock.now,
    passwordCost: TEST_PASSWORD_COST,
  });
  if (options.seedReference !== false) await seedSampleStructure(database.db);
  return {
    core,
    clock,
    logs,
    async close() {
      await runOnClose();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fully wired app on its own database, with a capturable logger and a movable clock. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kura-test-'));
  const env = parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'info', DATA_DIR: dataDir, ...options.env });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const logger = createLogger(env, sink);
  const database = await createTestDatabase();
  const clock = new TestClock();
  const ctx = await createContext({ env, logger, database, secrets: randomSecrets(), now: clock.now, passwordCost: TEST_PASSWORD_COST });
  if (options.seedReference !== false) await seedSampleStructure(database.db);
  // As main.ts: services start once the data is in place, then the app is built on them.
  await ctx.start();
  const app = createApp(ctx);
  return {
    app,
    ctx,
    clock,
    logs,
    dataDir,
    async close() {
      await ctx.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
