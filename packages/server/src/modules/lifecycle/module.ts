import type { Core } from '../../core';
import type { Module } from '../../lib/module';
import type { BallotQueueCache } from '../ballots';
import type { ResultsContext, ResultsGateCache, VotingRuntime } from '../results';
import { createScheduler, type Scheduler } from './lifecycle';
import { lifecycleRoutes, votingSwitchRoutes } from './lifecycle.router';

/** What the lifecycle module uses from other modules: the ballots module's cache, the results gate and snapshot. */
export type LifecycleDeps = { ballotQueue: BallotQueueCache; resultsGate: ResultsGateCache; voting: VotingRuntime };

export type LifecycleServices = {
  /** Opens and closes the election on its schedule. */
  scheduler: Scheduler;
};

type LifecycleRoutes = {
  /** The `elections` domain's voting switch (status, toggle); the rest of that domain is other modules'. */
  elections: ReturnType<typeof votingSwitchRoutes>;
  lifecycle: ReturnType<typeof lifecycleRoutes>;
};

/** The lifecycle module: the voting switch, the schedule (scheduler), the close, and the refusals of a closed election. */
export function createLifecycle(core: Core, deps: LifecycleDeps): Module<LifecycleRoutes, LifecycleServices> {
  const ctx: ResultsContext = { ...core, ...deps };
  return {
    routes: (at) => {
      const onCore: ResultsContext = { ...at, ...deps };
      return { elections: votingSwitchRoutes(onCore), lifecycle: lifecycleRoutes(onCore) };
    },
    services: { scheduler: createScheduler(ctx) },
  };
}
