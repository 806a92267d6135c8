import type { BallotsContext } from '../ballots';
import type { ResultsGateCache } from './visibility';
import type { VotingRuntime } from './voting-runtime';

/**
 * What the elections module's functions read: the core, the ballots module's opened-rows cache,
 * and this module's results snapshot (`voting`) and results gate (`resultsGate`).
 */
export type ElectionsContext = BallotsContext & { voting: VotingRuntime; resultsGate: ResultsGateCache };
