import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { GoogleVerifier } from './auth/google';
import type { BackgroundSender, Delivery } from './delivery';
import type { Database } from './db/client';
import type { Env } from './env';
import type { RefusedActivityLimiter } from './lib/activity-log';
import type { Service } from './lib/service';
import type { BallotQueueCache } from './modules/ballots';
import type { ResultsGateCache, Scheduler, VotingRuntime } from './modules/elections';
import type { Secrets } from './secrets';

/** Domain events services raise; the realtime module (and caches) listen. Services never emit on sockets. */
export type DomainEvents = {
  /** A committed vote: its choices (a tally delta, never the voter), whether it was the member's first, its transaction id. */
  'votes.cast': [
    { positionIds: number[]; entries: { positionId: number; candidateId: number }[]; newVoter: boolean; xid: string; queueIds: string[] },
  ];
  /** The in-memory results/statistics snapshot changed (realtime emits, coalesced). */
  'results.changed': [];
  'election.toggled': [{ active: boolean }];
  /** The election's settings (texts, schedule, visibility) changed. */
  'election.changed': [];
  'members.changed': [];
  'candidates.changed': [];
  'session.revoked': [{ tokenHash: string }];
  /** A reminder campaign was queued here (its sender wakes at once instead of at the next poll). */
  'reminders.queued': [];
};

export type DomainEventHandlers = { [E in keyof DomainEvents]?: (...args: DomainEvents[E]) => void };

export class DomainEventBus extends EventEmitter<DomainEvents> {
  /** Adds every handler; answers the function that removes them all again. */
  subscribe(handlers: DomainEventHandlers): () => void {
    const pairs = Object.entries(handlers) as [keyof DomainEvents, (...args: unknown[]) => void][];
    for (const [event, fn] of pairs) this.on(event, fn as never);
    return () => {
      for (const [event, fn] of pairs) this.off(event, fn as never);
    };
  }
}

/**
 * The long-lived services of one process, built once by the composition root (`services.ts`),
 * started by `start()` after the database is ready and stopped at shutdown in reverse order.
 * Routers and handlers only read them from here (docs/architecture.md "Where state lives").
 */
export type Services = {
  /** Opened (decrypted) queue rows by id, so each is decrypted once. No lifecycle. */
  ballotQueue: BallotQueueCache;
  /** The results visibility of the election, cached for a second and dropped on a change. */
  resultsGate: ResultsGateCache;
  /** The results/statistics snapshot, kept current by domain events. */
  voting: VotingRuntime;
  /** The loop moving queued ballots into `ballots` in shuffled batches. */
  mixer: Service;
  /** The loop recording periodic commitments while voting is open. */
  commitments: Service;
  /** Opens and closes the election on its schedule. */
  scheduler: Scheduler;
  /** Sends queued reminder campaigns. */
  reminders: Service;
  /** Notices sent after the answer (a member's contact details changed), one at a time; stopping waits for them. */
  notices: BackgroundSender;
  /** Email and SMS out (sign-in codes, reminders): one transport per process, closed after the services stop. */
  delivery: Delivery;
  /** Checks Google ID tokens against Google's certificates (cached). No lifecycle. */
  google: GoogleVerifier;
  /** How many refused actions the activity log still takes per subject and address. No lifecycle. */
  refusedActivity: RefusedActivityLimiter;
};

/** Everything a request handler or service needs, built once at start (or per test). */
export type AppContext = Services & {
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
};

/** The context without its services: what the composition root starts from. */
export type CoreContext = Omit<AppContext, keyof Services>;
