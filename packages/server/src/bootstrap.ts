import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { AppContext } from './context';
import type { Core } from './core';
import { DomainEventBus } from './events';
import { PASSWORD_COST, PasswordHasher } from './lib/passwords';
import { RefusedActivityLimiter } from './lib/refused-activity';
import { composeApp, startServices, stopServices } from './services';
import { openDatabase, type Database } from './db/client';
import { LOCK_STALE_MS } from './db/data-dir-lock';
import { runMigrations } from './db/migrate';
import { DEMO_ADMIN, DEMO_AGENT, DEMO_VOTER_MEMBER_NO, hasAdmin, isDatabaseEmpty, seedDemo, upsertStaff } from './seed';
import { applyElectionDefaults } from './modules/elections';
import type { Env } from './env';
import { loadSecrets, type Secrets } from './secrets';

export type ContextOptions = {
  env: Env;
  logger: Logger;
  database?: Database;
  secrets?: Secrets;
  now?: () => Date;
  /**
   * The cost new password and pin hashes are made at (lib/passwords.ts); the product's unless a
   * test harness names a cheaper one, which a production process refuses.
   */
  passwordCost?: number;
  /**
   * What this process is, for the refusal another process gets while it holds an embedded
   * database's folder (db/data-dir-lock.ts); default "the server". The server waits for the
   * folder (a lock left by a process killed a moment ago lapses); an operator command refuses at once.
   */
  holder?: string;
};

/**
 * The core every module is built from (src/core.ts), on an open database; `runOnClose` runs the
 * work registered through `onClose`, newest first. Tests build one module on it (test/harness.ts
 * `createTestCore`).
 */
export function createCore(options: ContextOptions & { database: Database }): { core: Core; runOnClose: () => Promise<void> } {
  const closers: (() => Promise<void> | void)[] = [];
  const passwordCost = options.passwordCost ?? PASSWORD_COST;
  if (options.env.NODE_ENV === 'production' && passwordCost < PASSWORD_COST) {
    throw new Error(`a password cost below ${PASSWORD_COST} is for tests only`);
  }
  const core: Core = {
    env: options.env,
    logger: options.logger,
    database: options.database,
    secrets: options.secrets ?? loadSecrets(options.env),
    events: new DomainEventBus(),
    now: options.now ?? (() => new Date()),
    onClose: (fn) => closers.push(fn),
    passwords: new PasswordHasher(passwordCost),
    refusedActivity: new RefusedActivityLimiter(),
  };
  const runOnClose = async () => {
    for (const fn of closers.splice(0).reverse()) await fn();
  };
  return { core, runOnClose };
}

/** A context this process owns: it starts the services and closes everything at the end. */
export type OwnedContext = AppContext & {
  /** Starts the services (once), after the data is prepared and before the app serves. */
  start(): Promise<void>;
  /** Runs `onClose` work, stops the services in reverse order, closes a database it opened. */
  close(): Promise<void>;
};

/**
 * Builds the shared context: database open and migrated, secrets loaded, the core built and the
 * modules composed on it (`services.ts`), their services not started.
 */
export async function createContext(options: ContextOptions): Promise<OwnedContext> {
  const { env } = options;
  const database =
    options.database ??
    (await openDatabase({
      url: env.DATABASE_URL,
      dataDir: env.DATABASE_URL ? undefined : resolve(join(env.DATA_DIR, 'pglite')),
      pgliteMode: 'worker',
      poolMax: env.DATABASE_POOL_MAX,
      dataDirLock: {
        holder: options.holder ?? 'the server',
        waitMs: options.holder ? 0 : LOCK_STALE_MS + 5_000,
        // Another process took the folder (judged this one's lock stale): stop, as SIGTERM does, before both write.
        onCompromised: (err) => {
          options.logger.fatal({ err }, 'another process took the embedded database folder: stopping');
          process.kill(process.pid, 'SIGTERM');
        },
      },
    }));
  await runMigrations(database);
  const { core, runOnClose } = createCore({ ...options, database });
  const ctx = composeApp(core);
  let started: Promise<void> | undefined;
  return Object.assign(ctx, {
    start: () => (started ??= startServices(ctx)),
    async close() {
      await runOnClose();
      await started?.catch(() => undefined);
      await stopServices(ctx);
      if (!options.database) await database.close();
    },
  });
}

export type SeedReport = { seeded: boolean; lines: string[] };

/**
 * The start banner's lines while no admin exists (docs/operations.md "The first admin"): the one
 * step that makes the first admin; every other admin and agent is added from the Staff page.
 */
export const FIRST_ADMIN_HINT = [
  'No admin yet. Create the first one with: pnpm cli admin:create you@example.org --name "Your Name"',
  '  (it asks for a password; on the embedded database stop the server first, then start it again;',
  '  with Docker: docker compose exec server kura admin:create you@example.org),',
  '  or set ADMIN_EMAIL and ADMIN_PASSWORD and restart. Then sign in at /admin/login and add the others under Staff.',
];

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
    await upsertStaff(ctx, { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD, role: 'admin' });
    lines.push(`Admin ${env.ADMIN_EMAIL} created or updated from ADMIN_EMAIL.`);
  }
  for (const email of env.AGENT_EMAILS) await upsertStaff(ctx, { email, role: 'agent' });
  if (!(await hasAdmin(database.db))) lines.push(...FIRST_ADMIN_HINT);
  if (seeded) {
    lines.push(
      `Demo admin: ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password} at /admin/login (the emailed code is printed in this log without SMTP_URL).`,
      `Demo agent: ${DEMO_AGENT.email} at /agent/login (code printed in this log).`,
      `Demo voter: member number ${DEMO_VOTER_MEMBER_NO} at /sign-in (the SMS code is printed in this log with SMS_PROVIDER=console).`,
    );
  }
  return { seeded, lines };
}
