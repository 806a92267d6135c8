import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { DomainEventBus, type AppContext } from './context';
import { startServices, stopServices, withServices } from './services';
import { openDatabase, type Database } from './db/client';
import { runMigrations } from './db/migrate';
import { DEMO_ADMIN, DEMO_AGENT, DEMO_VOTER_MEMBER_NO, isDatabaseEmpty, seedDemo, upsertStaff } from './seed';
import { applyElectionDefaults } from './modules/elections';
import type { Env } from './env';
import { loadSecrets, type Secrets } from './secrets';

export type ContextOptions = {
  env: Env;
  logger: Logger;
  database?: Database;
  secrets?: Secrets;
  now?: () => Date;
};

/** A context this process owns: it starts the services and closes everything at the end. */
export type OwnedContext = AppContext & {
  /** Starts the services (once), after the data is prepared and before the app serves. */
  start(): Promise<void>;
  /** Runs `onClose` work, stops the services in reverse order, closes a database it opened. */
  close(): Promise<void>;
};

/**
 * Builds the shared context: database open and migrated, secrets loaded, services built (by the
 * composition root, `services.ts`) but not started.
 */
export async function createContext(options: ContextOptions): Promise<OwnedContext> {
  const { env, logger } = options;
  const database =
    options.database ??
    (await openDatabase({
      url: env.DATABASE_URL,
      dataDir: env.DATABASE_URL ? undefined : resolve(join(env.DATA_DIR, 'pglite')),
      pgliteMode: 'worker',
      poolMax: env.DATABASE_POOL_MAX,
    }));
  await runMigrations(database);
  const closers: (() => Promise<void> | void)[] = [];
  const ctx = withServices({
    env,
    logger,
    database,
    secrets: options.secrets ?? loadSecrets(env),
    events: new DomainEventBus(),
    now: options.now ?? (() => new Date()),
    onClose: (fn) => closers.push(fn),
  });
  let started: Promise<void> | undefined;
  return Object.assign(ctx, {
    start: () => (started ??= startServices(ctx)),
    async close() {
      for (const fn of closers.reverse()) await fn();
      await started?.catch(() => undefined);
      await stopServices(ctx);
      if (!options.database) await database.close();
    },
  });
}

export type SeedReport = { seeded: boolean; lines: string[] };

/** Seeds the demo on an empty database outside production; creates configured staff. */
export async function prepareData(ctx: AppContext): Promise<SeedReport> {
  const { env, database } = ctx;
  const lines: string[] = [];
  const empty = await isDatabaseEmpty(database.db);
  const seedDemoData = env.SEED_DEMO ?? (empty && env.NODE_ENV !== 'production');
  let seeded = false;
  if (seedDemoData && empty) {
    const summary = await seedDemo(ctx);
    seeded = true;
    lines.push(`Demo election seeded: ${summary.branches} branches, ${summary.members} members, ${summary.candidates} candidates.`);
  } else {
    // No reference data: an empty install stays empty until the admin sets it up.
    await applyElectionDefaults(database.db, env);
  }
  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) {
    await upsertStaff(database.db, { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD, role: 'admin' });
    lines.push(`Admin ${env.ADMIN_EMAIL} created or updated from ADMIN_EMAIL.`);
  }
  for (const email of env.AGENT_EMAILS) await upsertStaff(database.db, { email, role: 'agent' });
  if (seeded) {
    lines.push(
      `Demo admin: ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password} at /admin/login (the emailed code is printed in this log without SMTP_URL).`,
      `Demo agent: ${DEMO_AGENT.email} at /agent/login (code printed in this log).`,
      `Demo voter: member number ${DEMO_VOTER_MEMBER_NO} at /sign-in (the SMS code is printed in this log with SMS_PROVIDER=console).`,
    );
  }
  return { seeded, lines };
}
