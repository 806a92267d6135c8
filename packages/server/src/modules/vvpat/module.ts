import type { Core } from '../../core';
import type { Module } from '../../lib/module';
import type { BallotQueueCache } from '../ballots';
import type { ResultsContext, ResultsGateCache, VotingRuntime } from '../results';
import { vvpatRoutes } from './vvpat.router';

/** What the vvpat module uses: the opened queue rows (ballots), the results gate and the snapshot (elections). */
export type VvpatDeps = { ballotQueue: BallotQueueCache; resultsGate: ResultsGateCache; voting: VotingRuntime };

/** The vvpat module: the audit trail (admin) and the voter's own receipts. Owns no service. */
export function createVvpat(_core: Core, deps: VvpatDeps): Module<ReturnType<typeof vvpatRoutes>> {
  return { routes: (at) => vvpatRoutes({ ...at, ...deps } satisfies ResultsContext), services: {} };
}
