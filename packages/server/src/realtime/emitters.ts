import { channelName, EMIT_COALESCE_MS, RESULT_CHANNELS, type ResultChannel } from '@kura/contract';
import type { RealtimeContext } from './context';
import { coalesce, type Coalescer } from './coalesce';
import type { FanOut } from './fan-out';
import type { TallyCodec } from './tally';
import { logFailure, type HubUnit, type RealtimeServer } from './hub';
import { enforceVisibility } from './subscriptions';

/**
 * What each channel carries, per election: election N's snapshot (ctx.voting.tallyOf(N)) goes to
 * the rooms `votes:N`, `results:N`, `statistics:N` and, while N is the current election, to the
 * bare `votes`, `results`, `statistics`; no other election's room ever gets it. Sent coalesced per
 * channel and election: at most one emit per EMIT_COALESCE_MS, always one after the last change
 * (coalesce.ts), and none when nobody is in those rooms. An election's results change or toggle
 * asks its channels for one; a change of the current election asks the (new) current one's. The
 * `tally` channel sends counts only, and a snapshot when a room's layout changed (tally.ts).
 */
export function channelEmitters(ctx: RealtimeContext, io: RealtimeServer, fanOut: FanOut, tallyCodec: TallyCodec): HubUnit {
  const currentElection = async () => (await ctx.resultsGate.read()).electionId;
  const roomsOf = async (channel: ResultChannel, electionId: number) => [
    channelName(channel, electionId),
    ...((await currentElection()) === electionId ? [channel] : []),
  ];
  const hasListeners = (rooms: string[]) => rooms.some((room) => (io.of('/').adapter.rooms.get(room)?.size ?? 0) > 0);

  const send = async (channel: ResultChannel, electionId: number) => {
    if (!hasListeners(await roomsOf(channel, electionId))) return;
    if (channel !== 'statistics') await enforceVisibility(ctx, io);
    const tally = ctx.voting.tallyOf(electionId);
    await tally.whenReady();
    // Read again: a visibility check may have emptied the rooms, the current election may have changed.
    const rooms = await roomsOf(channel, electionId);
    const election_id = electionId;
    if (channel === 'votes') await fanOut('votes', rooms, { election_id, results: tally.totals() });
    else if (channel === 'results') await fanOut('results', rooms, { election_id, results: tally.results() });
    else if (channel === 'tally') {
      // Counts only while every room last got this layout; a snapshot when any got another (or none).
      const { layout, snapshot, counts } = tallyCodec.payloads(electionId, tally.results());
      const occupied = rooms.filter((room) => (io.of('/').adapter.rooms.get(room)?.size ?? 0) > 0);
      await fanOut('tally', rooms, tallyCodec.broadcast(occupied, layout) ? counts : snapshot);
    } else await fanOut('statistics', rooms, { election_id, statistics: await tally.statistics() });
  };

  const emitters = new Map<string, Coalescer>();
  const emitterOf = (channel: ResultChannel, electionId: number) => {
    const key = channelName(channel, electionId);
    let emitter = emitters.get(key);
    if (!emitter)
      emitters.set(key, (emitter = coalesce(EMIT_COALESCE_MS, () => send(channel, electionId), logFailure(ctx, `emit on ${key} failed`))));
    return emitter;
  };
  const emitAll = (electionId: number | undefined) => {
    if (electionId !== undefined) RESULT_CHANNELS.forEach((c) => emitterOf(c, electionId).request());
  };
  return {
    events: {
      'results.changed': ({ electionId }) => emitAll(electionId),
      'election.toggled': ({ electionId }) => emitAll(electionId),
      // The bare rooms may now follow another election: they get its state (after the gate cache
      // has dropped its old gate, which it does on this same event).
      'election.changed': () =>
        setImmediate(() => void currentElection().then(emitAll).catch(logFailure(ctx, 'could not read the current election'))),
    },
    stop: () => emitters.forEach((e) => e.close()),
  };
}
