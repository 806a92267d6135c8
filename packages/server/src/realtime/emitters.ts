import { CHANNELS, EMIT_COALESCE_MS, type Channel } from '@kura/contract';
import type { RealtimeContext } from './context';
import { coalesce, type Coalescer } from './coalesce';
import type { FanOut } from './fan-out';
import { logFailure, type HubUnit, type RealtimeServer } from './hub';
import { enforceVisibility } from './subscriptions';

/**
 * What each channel carries, read from this process's snapshot (ctx.voting) when it is sent, and
 * sent coalesced: at most one emit per channel per EMIT_COALESCE_MS, always one after the last
 * change (coalesce.ts), and none to a channel nobody is in. A results change or a toggle asks
 * every channel for one.
 */
export function channelEmitters(ctx: RealtimeContext, io: RealtimeServer, fanOut: FanOut): HubUnit {
  const { tally } = ctx.voting;
  const payloads: { [C in Channel]: () => Promise<void> } = {
    votes: async () => {
      await enforceVisibility(ctx, io);
      await fanOut('votes', { results: tally.totals() });
    },
    results: async () => {
      await enforceVisibility(ctx, io);
      await fanOut('results', { results: tally.results() });
    },
    statistics: async () => fanOut('statistics', { statistics: await tally.statistics() }),
  };
  const hasListeners = (channel: Channel) => (io.of('/').adapter.rooms.get(channel)?.size ?? 0) > 0;
  const emitters = Object.fromEntries(
    CHANNELS.map((channel) => [
      channel,
      coalesce(
        EMIT_COALESCE_MS,
        () => (hasListeners(channel) ? payloads[channel]() : undefined),
        logFailure(ctx, `emit on ${channel} failed`),
      ),
    ]),
  ) as Record<Channel, Coalescer>;
  const emitAll = () => CHANNELS.forEach((c) => emitters[c].request());
  return {
    events: { 'results.changed': emitAll, 'election.toggled': emitAll },
    stop: () => CHANNELS.forEach((c) => emitters[c].close()),
  };
}
