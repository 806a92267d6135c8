import type { Core } from '../../core';
import type { Module } from '../../lib/module';
import type { Service } from '../../lib/service';
import { BallotQueueCache, type BallotsContext } from './ballot-queue';
import { ballotsRoutes } from './ballots.router';
import { createMixer } from './mixer';

export type BallotsServices = {
  /** Opened (decrypted) queue rows by id, so each is decrypted once. No lifecycle. */
  ballotQueue: BallotQueueCache;
  /** The loop moving queued ballots into `ballots` in shuffled batches. */
  mixer: Service;
};

/** The ballots module: casting, receipts, the sealed queue and its mixer. Uses no other module. */
export function createBallots(core: Core): Module<ReturnType<typeof ballotsRoutes>, BallotsServices> {
  const ballotQueue = new BallotQueueCache(core.secrets.ballotKey);
  const ctx: BallotsContext = { ...core, ballotQueue };
  return { routes: (at) => ballotsRoutes(at), services: { ballotQueue, mixer: createMixer(ctx) } };
}
