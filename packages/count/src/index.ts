/**
 * @kura/count: the counting engine. Pure functions, no I/O: the server's results, the declaration
 * and the operator command `count` all call these.
 */
export { BltError, formatBlt, MAX_BALLOT_LINES, MAX_BALLOTS, MAX_BLT_BYTES, MAX_CANDIDATES, MAX_SEATS, parseBlt } from './blt';
export type { BltBallot, BltCandidate, BltElection } from './blt';
export { CountError } from './errors';
export { format as formatVotes, ONE, parse as parseVotes, PLACES, transferValue } from './fixed';
export { countStv } from './stv';
export type { StvBallot, StvCandidate, StvInput, StvResult, StvRound, StvValue, TieBreak } from './stv';
export { countBlt } from './count-blt';
export type { BltCount } from './count-blt';
export { countApproval, countPlurality, electHighest } from './plurality';
export type { TallyCandidate, TallyResult, TallyValue } from './plurality';
export { countMotion, meetsThreshold, THRESHOLDS } from './motion';
export type { MotionInput, MotionOutcome, Threshold } from './motion';
