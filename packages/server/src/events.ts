import { EventEmitter } from 'node:events';

/**
 * Domain events services raise; the realtime module (and caches) listen. Services never emit on
 * sockets. This file imports no module, so any file may import it (docs/architecture.md "How
 * modules are composed").
 */
export type DomainEvents = {
  /** A committed vote: its choices (a tally delta, never the voter), whether it was the member's first, its transaction id. */
  'votes.cast': [
    {
      /** The election the ballot was for. */
      electionId: number;
      positionIds: number[];
      entries: { positionId: number; candidateId: number }[];
      newVoter: boolean;
      xid: string;
      queueIds: string[];
    },
  ];
  /** The in-memory results/statistics snapshot changed (realtime emits, coalesced). */
  'results.changed': [{ electionId: number }];
  /** Voting of an election was switched on or off (or it closed). */
  'election.toggled': [{ active: boolean; electionId: number }];
  /** The election's configuration (texts, schedule, visibility) changed. */
  'election.changed': [];
  'members.changed': [];
  'candidates.changed': [];
  /** A nomination was made, supported, accepted, withdrawn, decided or appealed (staff screens read the queue again). */
  'nominations.changed': [];
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
