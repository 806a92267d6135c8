import type { ResultsContext } from '../modules/results';

/**
 * What the realtime module reads: the core, the opened queue rows (ballots module), and the
 * results snapshot and gate (results module). Named by its factory's deps (realtime/module.ts).
 */
export type RealtimeContext = ResultsContext;
