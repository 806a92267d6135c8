import type { Core } from '../../core';
import type { Module } from '../../lib/module';
import type { Service } from '../../lib/service';
import type { BallotQueueCache, BallotsContext } from '../ballots';
import { createCommitmentLoop } from './commitments';
import type { ResultsContext } from './context';
import { resultsRoutes } from './results.router';
import { ResultsGateCache } from './visibility';
import { VotingRuntime } from './voting-runtime';

/** What the results module uses from other modules: the ballots module's opened-rows cache. */
export type ResultsDeps = { ballotQueue: BallotQueueCache };

export type ResultsServices = {
  /** The results visibility of the election, cached for a second and dropped on a change. */
  resultsGate: ResultsGateCache;
  /** The results/statistics snapshot, kept current by domain events. */
  voting: VotingRuntime;
  /** The loop recording periodic commitments while voting is open. */
  commitments: Service;
};

type ResultsRoutes = {
  /** The `elections` domain's results, statistics, commitments and receipt check; the rest of that domain is other modules'. */
  elections: ReturnType<typeof resultsRoutes>;
};

/** The results module: the live tally and its results gate, statistics, receipts, commitments, the count at close. */
export function createResults(core: Core, deps: ResultsDeps): Module<ResultsRoutes, ResultsServices> {
  const base: BallotsContext = { ...core, ...deps };
  const resultsGate = new ResultsGateCache(core);
  const voting = new VotingRuntime(base);
  const ctx: ResultsContext = { ...base, resultsGate, voting };
  return {
    routes: (at) => {
      const onCore: ResultsContext = { ...at, ...deps, resultsGate, voting };
      return { elections: resultsRoutes(onCore) };
    },
    services: { resultsGate, voting, commitments: createCommitmentLoop(ctx) },
  };
}
