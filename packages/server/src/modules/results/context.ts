import type { BallotsContext } from '../ballots';
import type { ResultsGateCache } from './visibility';
import type { VotingRuntime } from './voting-runtime';

/**
 * What the results module's functions read (and the modules handed its services: lifecycle, declaration, vvpat): the core, the ballots module's opened-rows cache,
 * and this module's results snapshot (`voting`) and results gate (`resultsGate`).
 */
export type ResultsContext = BallotsContext & { voting: VotingRuntime; resultsGate: ResultsGateCache };
