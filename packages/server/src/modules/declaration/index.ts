/**
 * The declaration module's public face: what the app and other modules may use. Everything else in
 * this folder is internal (an ESLint rule keeps other modules out of it).
 */
/** The closing statements (the lifecycle module's close and schedule call them) and the declared result. */
export { finaliseElection, getFinalResults, getRankedBallots, SCHEDULE_ACTOR } from './closing';
/** `audit:verify`: the box against the commitments, the receipts and the roll. */
export { verifyAudit, type AuditReport } from './audit';
/** The module's factory: its routes from the core and what it uses of other modules (src/services.ts composes them). */
export * from './module';
