import type { Core } from '../../core';
import type { Module } from '../../lib/module';
import type { Service } from '../../lib/service';
import type { BallotQueueCache, BallotsContext } from '../ballots';
import { createCommitmentLoop } from './commitments';
import type { ElectionsContext } from './context';
import { electionsRoutes } from './elections.router';
import { resultsRoutes } from './results.router';
import { organisationRoutes } from './organisation.router';
import { ResultsGateCache } from './visibility';
import { VotingRuntime } from './voting-runtime';

/** What the elections module uses from other modules: the ballots module's opened-rows cache. */
export type ElectionsDeps = { ballotQueue: BallotQueueCache };

export type ElectionsServices = {
  /** The results visibility of the election, cached for a second and dropped on a change. */
  resultsGate: ResultsGateCache;
  /** The results/statistics snapshot, kept current by domain events. */
  voting: VotingRuntime;
  /** The loop recording periodic commitments while voting is open. */
  commitments: Service;
};

type ElectionsRoutes = {
  elections: ReturnType<typeof electionsRoutes> & ReturnType<typeof resultsRoutes>;
  organisation: ReturnType<typeof organisationRoutes>;
};

/** The elections module: the election, its phase and schedule, results, the tally, commitments, audit. */
export function createElections(core: Core, deps: ElectionsDeps): Module<ElectionsRoutes, ElectionsServices> {
  const base: BallotsContext = { ...core, ...deps };
  const resultsGate = new ResultsGateCache(core);
  const voting = new VotingRuntime(base);
  const ctx: ElectionsContext = { ...base, resultsGate, voting };
  return {
    routes: (at) => {
      const onCore: ElectionsContext = { ...at, ...deps, resultsGate, voting };
      return {
        elections: { ...electionsRoutes(onCore), ...resultsRoutes(onCore) },
        organisation: organisationRoutes(onCore),
      };
    },
    services: { resultsGate, voting, commitments: createCommitmentLoop(ctx) },
  };
}
