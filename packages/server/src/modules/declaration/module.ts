import type { Core } from '../../core';
import type { Module } from '../../lib/module';
import type { BallotQueueCache } from '../ballots';
import type { ResultsContext, ResultsGateCache, VotingRuntime } from '../results';
import { evidenceRoutes } from './evidence.router';

/** What the declaration module uses from other modules: the ballots module's cache, the results gate and snapshot. */
export type DeclarationDeps = { ballotQueue: BallotQueueCache; resultsGate: ResultsGateCache; voting: VotingRuntime };

type DeclarationRoutes = { evidence: ReturnType<typeof evidenceRoutes> };

/** The declaration module: the closing statements, the declared result, the audit, the declaration signed and the evidence pack. */
export function createDeclaration(_core: Core, deps: DeclarationDeps): Module<DeclarationRoutes> {
  return {
    routes: (at) => {
      const onCore: ResultsContext = { ...at, ...deps };
      return { evidence: evidenceRoutes(onCore) };
    },
    services: {},
  };
}
