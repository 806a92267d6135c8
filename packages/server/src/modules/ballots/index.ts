/**
 * The ballots module's public face: what the app and other modules may use. Everything else in
 * this folder is internal (an ESLint rule keeps other modules out of it).
 */
export { ballotsRoutes } from './ballots.router';
export { castVote, getBallot, type VoteChannel, type VoteReceipt } from './ballots.service';
/** The sealed queue a vote lands in, read by the tally, the audit and the vvpat pages; `ctx.ballotQueue` caches opened rows. */
export { BallotQueueCache, findBallots, openBallot, readQueue, type Ballot, type BallotsContext } from './ballot-queue';
/** The mixer that moves queued ballots into `ballots` in shuffled batches (`ctx.mixer` runs its loop), and the close's re-mix. */
export { createMixer, fileUnsortedQueue, mixQueuedBallots, remixAtClose, remixAtCloseIn, type MixResult } from './mixer';
export { normaliseReceipt, shuffle as shuffleBallots } from './receipts';
/** The module's factory: its routes and services from the core and what it uses of other modules (src/services.ts composes them). */
export * from './module';
