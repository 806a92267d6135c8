import type { Logger } from 'pino';
import type { Database } from './db/client';
import type { Env } from './env';
import type { DomainEventBus } from './events';
import type { PasswordHasher } from './lib/passwords';
import type { RefusedActivityLimiter } from './lib/refused-activity';
import type { Secrets } from './secrets';

/**
 * What every module is built from: configuration, the database, the logger, the secrets, the
 * domain event bus, the clock and the shutdown hooks. This file imports no module, so every module
 * (and the infrastructure under src/auth, src/lib) may import it; a module gets other modules'
 * services only as named `deps` of its factory (docs/architecture.md "How modules are composed").
 */
export type Core = {
  env: Env;
  database: Database;
  logger: Logger;
  secrets: Secrets;
  events: DomainEventBus;
  /** The clock; tests move it to expire codes and sessions. */
  now: () => Date;
  /**
   * Work to run at shutdown for things built after the services (the realtime hub, a router's
   * limiter stores), in reverse order of registration, before the services stop.
   */
  onClose: (fn: () => Promise<void> | void) => void;
  /** Hashes passwords and pins at the process's cost (lib/passwords.ts); checks any stored hash. No lifecycle. */
  passwords: PasswordHasher;
  /** How many refused actions the activity log still takes per subject and address (lib/activity-log.ts). No lifecycle. */
  refusedActivity: RefusedActivityLimiter;
};

/**
 * The core fields of a context and nothing else: a module's routes are built on this, so its
 * handlers hold, at run time as in their types, only the core and the services their module was
 * handed (docs/architecture.md "How modules are composed").
 */
export function coreOf(ctx: Core): Core {
  const { env, database, logger, secrets, events, now, onClose, passwords, refusedActivity } = ctx;
  return { env, database, logger, secrets, events, now, onClose, passwords, refusedActivity };
}
