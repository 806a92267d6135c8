import { canJoinChannel, parseChannelName, SubscribeRequest, type SubscribeAck } from '@kura/contract';
import type { RealtimeContext } from './context';
import { mayJoinResultsChannel, type ResultsGate } from '../modules/elections';
import { logFailure, type HubUnit, type RealtimeServer, type RealtimeSocket } from './hub';
import type { TallyCodec } from './tally';

/**
 * Channels are Socket.IO rooms, one per channel and election: `votes:7` is election 7's, the bare
 * `votes` the current election's (whichever that is when the server emits). A client `subscribe`s
 * and is answered which names it joined and which were denied: by its role (statistics is staff
 * only), by the election (one that does not exist or is archived is denied) and, for the results
 * channels, by that election's results visibility (SECURITY.md "Results visibility").
 */
export function handleSubscriptions(ctx: RealtimeContext, io: RealtimeServer, tallyCodec: TallyCodec): void {
  io.on('connection', (socket) => {
    socket.on('subscribe', (names, ack) => void subscribe(ctx, tallyCodec, socket, names, ack).catch(logFailure(ctx, 'subscribe failed')));
  });
}

/** The gate of each election asked about, read once per call (null: the current election). */
function gates(ctx: RealtimeContext): (electionId: number | null) => Promise<ResultsGate | undefined> {
  const read = new Map<number | null, Promise<ResultsGate | undefined>>();
  return (electionId) => {
    let gate = read.get(electionId);
    if (!gate) read.set(electionId, (gate = ctx.resultsGate.watchable(electionId)));
    return gate;
  };
}

async function subscribe(
  ctx: RealtimeContext,
  tallyCodec: TallyCodec,
  socket: RealtimeSocket,
  names: unknown,
  ack: unknown,
): Promise<void> {
  const parsed = SubscribeRequest.safeParse(names);
  const result: SubscribeAck = { joined: [], denied: [] };
  if (!parsed.success) {
    result.denied = Array.isArray(names)
      ? names
          .filter((n): n is string => typeof n === 'string')
          .slice(0, 16)
          .map((n) => n.slice(0, 64))
      : [];
  } else {
    const gateOf = gates(ctx);
    const role = socket.data.role;
    const tallies: { room: string; electionId: number }[] = [];
    for (const name of new Set(parsed.data)) {
      const target = parseChannelName(name);
      const gate = target && canJoinChannel(target.channel, role) ? await gateOf(target.electionId) : undefined;
      if (target && gate && mayJoinResultsChannel(gate, target.channel, role)) {
        result.joined.push(name as SubscribeAck['joined'][number]);
        if (target.channel === 'tally' && gate.electionId !== undefined) tallies.push({ room: name, electionId: gate.electionId });
      } else result.denied.push(name);
    }
    if (result.joined.length) void socket.join(result.joined);
    // A tally joiner's first update is its snapshot (the broadcasts after it carry counts only).
    for (const { room, electionId } of tallies) {
      const tally = ctx.voting.tallyOf(electionId);
      await tally.whenReady();
      const { layout, snapshot } = tallyCodec.payloads(electionId, tally.results());
      tallyCodec.joined(room, layout);
      socket.emit('ResultsTally', snapshot);
    }
  }
  if (typeof ack === 'function') (ack as (r: SubscribeAck) => void)(result);
}

/**
 * Removes every socket its election's visibility no longer admits from the channel rooms, and
 * everyone from the rooms of an election archived or deleted meanwhile. Run when an election
 * changes (here or, relayed, in another process) and before every results emit, so a mode change
 * reaches the rooms before the next payload does.
 */
export async function enforceVisibility(ctx: RealtimeContext, io: RealtimeServer): Promise<void> {
  const gateOf = gates(ctx);
  const rooms = io.of('/').adapter.rooms;
  for (const [room, members] of [...rooms]) {
    const target = parseChannelName(room);
    if (!target || members.size === 0) continue;
    const gate = await gateOf(target.electionId);
    for (const id of [...(rooms.get(room) ?? [])]) {
      const socket = io.of('/').sockets.get(id);
      if (socket && (!gate || !mayJoinResultsChannel(gate, target.channel, socket.data.role))) void socket.leave(room);
    }
  }
}

/** A change of an election's configuration re-checks the channel rooms at once. */
export function visibilityChanges(ctx: RealtimeContext, io: RealtimeServer): HubUnit {
  return {
    events: {
      // After every listener of this event has run (the results-gate cache drops its gate on it).
      'election.changed': () =>
        setImmediate(() => void enforceVisibility(ctx, io).catch(logFailure(ctx, 'results visibility check failed'))),
    },
  };
}

/** Takes the role and the staff channels (of every election) away from every socket whose session `ended` says is over. */
export function dropEndedSessions(io: RealtimeServer, ended: (tokenHash: string) => boolean): void {
  for (const socket of io.of('/').sockets.values()) {
    if (!socket.data.tokenHash || !ended(socket.data.tokenHash)) continue;
    socket.data.role = null;
    socket.data.tokenHash = undefined;
    for (const room of [...socket.rooms]) {
      const target = parseChannelName(room);
      if (target && !canJoinChannel(target.channel, null)) void socket.leave(room);
    }
  }
}
