import { canJoinChannel, parseChannelName, SubscribeRequest, type SubscribeAck } from '@kura/contract';
import type { RealtimeContext } from './context';
import { mayJoinResultsChannel, type ResultsGate } from '../modules/results';
import { logFailure, type HubUnit, type RealtimeServer, type RealtimeSocket } from './hub';
import type { TallyCodec, TallyPayloads } from './tally';

/** How many `subscribe` messages a socket may send at once, and how often one more is allowed (docs/api.md "Realtime"). */
export const SUBSCRIBE_BURST = 10;
export const SUBSCRIBE_REFILL_MS = 1000;

export type SubscribeLimits = { burst?: number; refillMs?: number };

/** What this process remembers of one socket: its subscribe allowance, and the tally snapshot each tally room last sent it. */
type SocketState = {
  tokens: number;
  at: number;
  sent: Map<string, Pick<TallyPayloads, 'snapshot' | 'counts'>>;
};

/**
 * Channels are Socket.IO rooms, one per channel and election: `votes:7` is election 7's, the bare
 * `votes` the current election's (whichever that is when the server emits). A client `subscribe`s
 * and is answered which names it joined and which were denied: by its role (statistics is staff
 * only), by the election (one that does not exist or is archived is denied) and, for the results
 * channels, by that election's results visibility (SECURITY.md "Results visibility").
 *
 * A socket's subscribes are limited (a burst, then one per `refillMs`; past it every name is
 * denied, nothing read), and a tally room sends a snapshot only when it tells the socket
 * something: on joining, or when the tally changed since the last snapshot it sent this socket.
 * So a flood of subscribes costs one answer each and no snapshots (docs/api.md "Realtime").
 */
export function handleSubscriptions(ctx: RealtimeContext, io: RealtimeServer, tallyCodec: TallyCodec, limits: SubscribeLimits = {}): void {
  const burst = limits.burst ?? SUBSCRIBE_BURST;
  const refillMs = limits.refillMs ?? SUBSCRIBE_REFILL_MS;
  io.on('connection', (socket) => {
    const state: SocketState = { tokens: burst, at: ctx.now().getTime(), sent: new Map() };
    socket.on('subscribe', (names, ack) => {
      const now = ctx.now().getTime();
      state.tokens = Math.min(burst, state.tokens + Math.max(0, now - state.at) / refillMs);
      state.at = now;
      if (state.tokens < 1) return answer(ack, { joined: [], denied: deniedNames(names) });
      state.tokens--;
      void subscribe(ctx, tallyCodec, socket, state, names, ack).catch(logFailure(ctx, 'subscribe failed'));
    });
  });
}

function answer(ack: unknown, result: SubscribeAck): void {
  if (typeof ack === 'function') (ack as (r: SubscribeAck) => void)(result);
}

/** The names of a refused request, as far as they are names (bounded as a valid request is). */
function deniedNames(names: unknown): string[] {
  return Array.isArray(names)
    ? names
        .filter((n): n is string => typeof n === 'string')
        .slice(0, 16)
        .map((n) => n.slice(0, 64))
    : [];
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

/** Whether a socket sent `last` holds what `next` says already (the same layout and counts). */
function holds(last: Pick<TallyPayloads, 'snapshot' | 'counts'> | undefined, next: TallyPayloads): boolean {
  if (!last) return false;
  if (last.snapshot === next.snapshot) return true;
  const [a, b] = [last.counts, next.counts];
  return (
    a.election_id === b.election_id &&
    a.layout === b.layout &&
    a.counts.length === b.counts.length &&
    a.counts.every((n, i) => n === b.counts[i])
  );
}

async function subscribe(
  ctx: RealtimeContext,
  tallyCodec: TallyCodec,
  socket: RealtimeSocket,
  state: SocketState,
  names: unknown,
  ack: unknown,
): Promise<void> {
  const parsed = SubscribeRequest.safeParse(names);
  const result: SubscribeAck = { joined: [], denied: [] };
  if (!parsed.success) {
    result.denied = deniedNames(names);
  } else {
    const gateOf = gates(ctx);
    const role = socket.data.role;
    const tallies: { room: string; electionId: number }[] = [];
    for (const name of new Set(parsed.data)) {
      const target = parseChannelName(name);
      // `changes` belongs to no election: staff join it whatever elections exist.
      if (target?.channel === 'changes') {
        if (canJoinChannel('changes', role)) result.joined.push('changes');
        else result.denied.push(name);
        continue;
      }
      const gate = target && canJoinChannel(target.channel, role) ? await gateOf(target.electionId) : undefined;
      if (target && gate && mayJoinResultsChannel(gate, target.channel, role)) {
        result.joined.push(name as SubscribeAck['joined'][number]);
        if (target.channel === 'tally' && gate.electionId !== undefined) tallies.push({ room: name, electionId: gate.electionId });
      } else result.denied.push(name);
    }
    // A socket not in a tally room (never joined, or removed since) holds none of its snapshots.
    for (const { room } of tallies) if (!socket.rooms.has(room)) state.sent.delete(room);
    if (result.joined.length) void socket.join(result.joined);
    // A tally joiner's first update is its snapshot (the broadcasts after it carry counts only);
    // one that holds the current snapshot already is sent nothing more.
    for (const { room, electionId } of tallies) {
      const tally = ctx.voting.tallyOf(electionId);
      await tally.whenReady();
      const payloads = tallyCodec.payloads(electionId, tally.results());
      tallyCodec.joined(room, payloads.layout);
      if (holds(state.sent.get(room), payloads)) continue;
      state.sent.set(room, { snapshot: payloads.snapshot, counts: payloads.counts });
      socket.emit('ResultsTally', payloads.snapshot);
    }
  }
  answer(ack, result);
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
    // `changes` follows no election's visibility (staff only: dropEndedSessions takes it away).
    if (!target || members.size === 0 || target.channel === 'changes') continue;
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
