/**
 * The elections module's public face: what the app and other modules may use. Everything else in
 * this folder is internal (an ESLint rule keeps other modules out of it).
 */
export { electionsRoutes } from './elections.router';
/** The per-app tally, mixer and commitment loops (started with the elections router). */
export { votingRuntime, type VotingRuntime } from './voting-runtime';
export { verifyAudit, type AuditReport } from './audit';
/** The election's settings (texts, schedule, results visibility) and its phase. */
export { applyElectionDefaults, getElection, readElection, toElection, updateElection } from './election.service';
export { computePhase, type PhaseInput } from './phase';
/** The election's life: scheduler, close, the declared result, results visibility. */
export { lifecycleRoutes, schedulerOf } from './lifecycle.router';
export { assertNotClosed, closeElection, finaliseElection, getFinalResults, startScheduler } from './lifecycle';
export { assertMayViewResults, currentResultsGate, mayJoinResultsChannel, mayViewResults, resultsGate, type ResultsGate, type Viewer } from './visibility';
