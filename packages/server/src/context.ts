import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { GoogleCertsSource } from './auth/google';
import type { Database } from './db/client';
import type { Env } from './env';
import type { Secrets } from './secrets';

/** Domain events services raise; the realtime module (and caches) listen. Services never emit on sockets. */
export type DomainEvents = {
  /** A committed vote: its choices (a tally delta, never the voter), whether it was the member's first, its transaction id. */
  'votes.cast': [{ positionIds: number[]; entries: { positionId: number; candidateId: number }[]; newVoter: boolean; xid: string; queueIds: string[] }];
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

export class DomainEventBus extends EventEmitter<DomainEvents> {}

/** Everything a request handler or service needs, built once at start (or per test). */
export type AppContext = {
  env: Env;
  database: Database;
  logger: Logger;
  secrets: Secrets;
  events: DomainEventBus;
  /** The clock; tests move it to expire codes and sessions. */
  now: () => Date;
  /** Work to run at shutdown (timers, caches, adapters), in reverse order of registration. */
  onClose: (fn: () => Promise<void> | void) => void;
  /** Google's signing keys; unset means fetch them from Google (tests inject their own). */
  googleCerts?: GoogleCertsSource;
};
