import type { Core } from '../../core';
import type { BackgroundSender, Delivery } from '../../delivery';
import { RedisSessionStore } from './redis-session-store';
import { DatabaseSessionStore, type UssdSessionStore } from './session-store';
import { ussdCallback, ussdRoutes } from './ussd.router';
import { SESSION_IDLE_MS, type UssdSessionData } from './ussd.service';

/** What the USSD module uses besides the core: SMS out (codes), the sender after answers (receipts). */
export type UssdDeps = { delivery: Delivery; notices: BackgroundSender; store?: UssdSessionStore<UssdSessionData> };

/** The session store the environment asks for: Redis when REDIS_URL is set, else the database. */
export function sessionStoreFor(core: Core): UssdSessionStore<UssdSessionData> {
  if (!core.env.REDIS_URL) return new DatabaseSessionStore<UssdSessionData>(core);
  // Kept a while past the idle limit, so a late request still finds the session and is told it timed out.
  const store = new RedisSessionStore<UssdSessionData>(core.env.REDIS_URL, 2 * SESSION_IDLE_MS, core.logger);
  core.onClose(() => store.close());
  return store;
}

/**
 * The USSD module: the gateway's callback (an Express handler, not a contract route: the gateway
 * posts form-encoded and reads text/plain), with its sessions on Redis when REDIS_URL is set,
 * else in the database (docs/operations.md "Voting by USSD with Africa's Talking").
 */
export function createUssd(core: Core, deps: UssdDeps) {
  const store = deps.store ?? sessionStoreFor(core);
  return {
    /** The callback's handler, on the core the Express app runs on. */
    callback: (at: Core) => ussdCallback(at, { delivery: deps.delivery, notices: deps.notices, store }),
    /** The contract's routes (the admin's USSD page), on the core the Express app runs on. */
    routes: (at: Core) => ussdRoutes(at),
    store,
  };
}
