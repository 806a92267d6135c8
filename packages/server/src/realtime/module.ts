import type { Server as HttpServer } from 'node:http';
import type { Core } from '../core';
import type { BallotQueueCache } from '../modules/ballots';
import type { ResultsGateCache, VotingRuntime } from '../modules/results';
import type { RealtimeContext } from './context';
import { attachRealtime, type Realtime, type RealtimeOptions } from './index';

/** What the realtime module uses: the opened queue rows (ballots), the results snapshot and gate (elections). */
export type RealtimeDeps = { ballotQueue: BallotQueueCache; resultsGate: ResultsGateCache; voting: VotingRuntime };

export type RealtimeModule = {
  /** Socket.IO on this HTTP server, once it exists (main.ts; tests); closed through `core.onClose`. */
  attach(server: HttpServer, options?: RealtimeOptions): Promise<Realtime>;
};

/** The realtime module, built like the domain modules: from the core and the interfaces it uses. */
export function createRealtime(core: Core, deps: RealtimeDeps): RealtimeModule {
  const ctx: RealtimeContext = { ...core, ...deps };
  return { attach: (server, options) => attachRealtime(ctx, server, options) };
}
