/**
 * The results module's public face: what the app and other modules may use. Everything else in
 * this folder is internal (an ESLint rule keeps other modules out of it).
 */
export type { ResultsContext } from './context';
/** The services the composition root (src/services.ts) puts on the context: results snapshot, results gate. */
export { VotingRuntime } from './voting-runtime';
/** Results visibility. */
export { assertMayViewResults, mayJoinResultsChannel, mayViewResults, ResultsGateCache, type ResultsGate, type Viewer } from './visibility';
/** Commitments to the ballot set and their reads, the count at close and the receipt index (the declaration module's close, audit and evidence pack use them). */
export {
  commitmentById,
  commitmentHistory,
  commitmentsUpTo,
  digestBallots,
  insertFinalCommitment,
  newestCommitment,
  recordCommitment,
} from './commitments';
export { countDeclaration, rankedBlt, type Declaration } from './final-count';
export { SortedReceiptIndex } from './receipt-index';
/** The module's factory: its routes and services from the core and what it uses of other modules (src/services.ts composes them). */
export * from './module';
