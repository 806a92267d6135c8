import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import {
  canJoinChannel,
  CHANNEL_EVENTS,
  CHANNELS,
  EMIT_COALESCE_MS,
  isChannel,
  SOCKET_PATH,
  SubscribeRequest,
  type Channel,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SocketRole,
  type SubscribeAck,
} from '@kura/contract';
import type { AppContext, DomainEvents } from '../context';
import { and, gt, inArray, sql } from 'drizzle-orm';
import { resolveSession } from '../auth/sessions';
import { sessions } from '../db/schema';
import { sealPadded, unseal } from '../lib/crypto';
import { textArray } from '../db/arrays';
import { mayJoinResultsChannel } from '../modules/elections';
import { writeInSlices } from './fan-out';
import { coalesce, type Coalescer } from './coalesce';
import { createScaleOut, type ScaleOutOptions } from './scale-out';

/**
 * Messages between server processes (through the cluster adapter: Postgres NOTIFY or Redis, which
 * any database role with LISTEN can read), sealed with BALLOT_KEY and padded to RELAY_BLOCK bytes.
 * A vote travels without its choices: the receiving process reads the vote's sealed queue rows
 * from the database by id (and rebuilds from the database if the mixer moved them meanwhile).
 */
const RELAY_BLOCK = 1024;
type RelayedVote = { xid: string; newVoter: boolean; positionIds: number[]; queueIds: string[] };
type InterServerEvents = { 'kura:relay': (sealed: string) => void };
type SocketData = { role: SocketRole; tokenHash?: string };
type Relayed =
  | { type: 'votes'; votes: RelayedVote[] }
  | { type: 'election.toggled'; active: boolean }
  | { type: 'candidates.changed' | 'members.changed' | 'election.changed' }
  | { type: 'session.revoked'; tokenHash: string };

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type Realtime = { io: RealtimeServer; close(): Promise<void> };
export type RealtimeOptions = ScaleOutOptions & {
  /** How often connected staff sockets' sessions are re-checked for expiry (default 60 s). */
  sessionRecheckMs?: number;
  /** Sockets written per turn of the event loop during a broadcast (default FANOUT_SLICE). */
  fanOutSlice?: number;
};

/** How long this process gathers its votes before relaying them to the others in one message. */
const RELAY_EVERY_MS = 50;
/**
 * With several processes, a relayed message can be missed (a LISTEN connection that dropped, one
 * not yet listening at start). Each process therefore rebuilds its snapshot now and then; the
 * rebuild is exact (see TallySnapshot), so it only repairs.
 */
const RESYNC_EVERY_MS = 30_000;
const FIRST_RESYNC_MS = 3000;
const SESSION_RECHECK_MS = 60_000;
/** Sockets written per turn of the event loop during a broadcast (see fanOut). */
export const FANOUT_SLICE = 500;

/**
 * Socket.IO on the HTTP server's port (path /socket.io). Clients `subscribe` to channels; the
 * server emits coalesced updates computed from this process's snapshot to its own clients, and
 * relays domain events to the other processes so each one's snapshot, and clients, stay current.
 * Only this module emits on sockets; services raise domain events.
 */
export async function attachRealtime(ctx: AppContext, server: HttpServer, options: RealtimeOptions = {}): Promise<Realtime> {
  const io: RealtimeServer = new Server(server, { path: SOCKET_PATH, serveClient: false });
  const scaleOut = createScaleOut(ctx, { redisUrl: options.redisUrl ?? ctx.env.REDIS_URL, databaseUrl: options.databaseUrl ?? ctx.env.DATABASE_URL });
  if (scaleOut) io.adapter(scaleOut.adapter);
  // Operators check a scale-out deployment by this line (README "Scale-out").
  ctx.logger.info({ adapter: scaleOut?.kind ?? 'memory' }, 'realtime adapter');
  const { tally } = ctx.voting;
  const logError = (what: string) => (err: unknown) => ctx.logger.error({ err }, what);

  // The handshake token is checked once; a bad or missing token still connects, to public channels only.
  io.use((socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    socket.data.role = null;
    if (typeof token !== 'string' || !token) return next();
    resolveSession(ctx, token)
      .then((caller) => {
        socket.data.role = caller?.role ?? null;
        socket.data.tokenHash = caller?.tokenHash;
        next();
      })
      .catch((err: unknown) => {
        logError('socket session check failed')(err);
        next();
      });
  });

  io.on('connection', (socket) => {
    socket.on('subscribe', (names, ack) => void subscribe(socket, names, ack).catch(logError('subscribe failed')));
  });

  async function subscribe(socket: Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>, names: unknown, ack: unknown) {
    const parsed = SubscribeRequest.safeParse(names);
    const result: SubscribeAck = { joined: [], denied: [] };
    if (!parsed.success) {
      result.denied = Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string').slice(0, 16).map((n) => n.slice(0, 64)) : [];
    } else {
      // The results visibility decides the results channels (SECURITY.md "Results visibility").
      const gate = await ctx.resultsGate.read();
      for (const name of new Set(parsed.data)) {
        if (isChannel(name) && canJoinChannel(name, socket.data.role) && mayJoinResultsChannel(gate, name, socket.data.role)) result.joined.push(name);
        else result.denied.push(name);
      }
      if (result.joined.length) void socket.join(result.joined);
    }
    if (typeof ack === 'function') (ack as (r: SubscribeAck) => void)(result);
  }

  /**
   * Removes every socket the visibility no longer admits from the results channels. Run when the
   * election changes (here or, relayed, in another process) and before every results emit, so a
   * mode change reaches the rooms before the next payload does.
   */
  const enforceVisibility = async () => {
    const gate = await ctx.resultsGate.read();
    for (const channel of ['votes', 'results'] as const) {
      const room = io.of('/').adapter.rooms.get(channel);
      if (!room) continue;
      for (const id of [...room]) {
        const socket = io.of('/').sockets.get(id);
        if (socket && !mayJoinResultsChannel(gate, channel, socket.data.role)) void socket.leave(channel);
      }
    }
  };

  // ---- Coalesced emits, one per channel, to this process's clients ----
  const hasListeners = (room: Channel) => (io.of('/').adapter.rooms.get(room)?.size ?? 0) > 0;
  /**
   * Writing a packet to thousands of sockets is synchronous work (one frame write each, ~20 µs):
   * in one go, 5,000 watchers hold the event loop ~100 ms and every vote in flight waits behind
   * it. Slices of FANOUT_SLICE sockets with a turn of the event loop between them let requests
   * interleave. A socket that joins meanwhile gets the next emit; one that left (or lost a staff
   * channel) is skipped.
   */
  const slice = options.fanOutSlice ?? FANOUT_SLICE;
  const fanOut = async <C extends Channel>(channel: C, ...args: Parameters<ServerToClientEvents[(typeof CHANNEL_EVENTS)[C]]>) => {
    const emit = (to: string | string[]) => (io.local.to(to).emit as (event: string, ...a: unknown[]) => boolean)(CHANNEL_EVENTS[channel], ...args);
    const room = () => io.of('/').adapter.rooms.get(channel);
    const members = room();
    if (!members || members.size <= slice) return void emit(channel);
    await writeInSlices([...members], slice, (id) => room()?.has(id) ?? false, emit);
  };
  const payloads: { [C in Channel]: () => Promise<void> } = {
    votes: async () => {
      await enforceVisibility();
      await fanOut('votes', { results: tally.totals() });
    },
    results: async () => {
      await enforceVisibility();
      await fanOut('results', { results: tally.results() });
    },
    statistics: async () => fanOut('statistics', { statistics: await tally.statistics() }),
  };
  const emitters = Object.fromEntries(
    CHANNELS.map((channel) => [
      channel,
      coalesce(EMIT_COALESCE_MS, () => (hasListeners(channel) ? payloads[channel]() : undefined), logError(`emit on ${channel} failed`)),
    ]),
  ) as Record<Channel, Coalescer>;
  const emitAll = () => CHANNELS.forEach((c) => emitters[c].request());

  // ---- Relay between processes ----
  let relaying = false;
  const outbox: DomainEvents['votes.cast'][0][] = [];
  let relayTimer: NodeJS.Timeout | undefined;
  const send = (message: Relayed) => {
    if (scaleOut) io.serverSideEmit('kura:relay', sealPadded(ctx.secrets.ballotKey, message, RELAY_BLOCK));
  };
  const flushVotes = () => {
    relayTimer = undefined;
    if (outbox.length) send({ type: 'votes', votes: outbox.splice(0).map(({ xid, newVoter, positionIds, queueIds }) => ({ xid, newVoter, positionIds, queueIds })) });
  };
  io.on('kura:relay', (sealed) => {
    let message: Relayed;
    try {
      message = JSON.parse(unseal(ctx.secrets.ballotKey, sealed)) as Relayed;
    } catch (err) {
      return logError('unreadable relay message')(err);
    }
    if (message.type === 'votes') {
      void receiveVotes(message.votes).catch(logError('could not apply relayed votes'));
      return;
    }
    relaying = true;
    try {
      if (message.type === 'election.toggled') ctx.events.emit('election.toggled', { active: message.active });
      else if (message.type === 'session.revoked') ctx.events.emit('session.revoked', { tokenHash: message.tokenHash });
      else ctx.events.emit(message.type);
    } finally {
      relaying = false;
    }
  });

  /** Relayed votes: their choices come from their sealed queue rows, read here by id. */
  const receiveVotes = async (votes: RelayedVote[]) => {
    const ids = votes.flatMap((v) => v.queueIds);
    const rows = ids.length ? await ctx.database.db.execute<{ id: string; sealed: string }>(sql`select id, sealed from ballot_queue where id = any(${textArray(ids)}::text[])`) : [];
    if (rows.length < ids.length) {
      // The mixer moved some meanwhile: the database has them, in `ballots`.
      await tally.resync();
      return;
    }
    // A queue row is one position's ballot: a choice per candidate (several for several seats).
    const byId = new Map(rows.map((r) => [r.id, ctx.ballotQueue.open([r], false)]));
    relaying = true;
    try {
      for (const v of votes) {
        const entries = v.queueIds.flatMap((id) => byId.get(id)!.map((b) => ({ positionId: b.positionId, candidateId: b.candidateId })));
        ctx.events.emit('votes.cast', { ...v, entries });
      }
    } finally {
      relaying = false;
    }
  };

  const onVote = (vote: DomainEvents['votes.cast'][0]) => {
    if (relaying || !scaleOut) return;
    outbox.push(vote);
    relayTimer ??= setTimeout(flushVotes, RELAY_EVERY_MS);
  };
  const onToggle = ({ active }: { active: boolean }) => {
    emitAll();
    if (!relaying) send({ type: 'election.toggled', active });
  };
  const onCandidates = () => !relaying && send({ type: 'candidates.changed' });
  const onElection = () => {
    // After every listener of this event has run (the visibility cache drops its gate on it).
    setImmediate(() => void enforceVisibility().catch(logError('results visibility check failed')));
    if (!relaying) send({ type: 'election.changed' });
  };
  const onMembers = () => !relaying && send({ type: 'members.changed' });
  const demote = (dead: (tokenHash: string) => boolean) => {
    for (const socket of io.of('/').sockets.values()) {
      if (!socket.data.tokenHash || !dead(socket.data.tokenHash)) continue;
      socket.data.role = null;
      socket.data.tokenHash = undefined;
      for (const channel of CHANNELS) if (!canJoinChannel(channel, null)) void socket.leave(channel);
    }
  };
  const onRevoked = ({ tokenHash }: { tokenHash: string }) => {
    // A signed-out staff socket loses the staff channels at once.
    demote((hash) => hash === tokenHash);
    if (!relaying) send({ type: 'session.revoked', tokenHash });
  };
  // Sessions also end by idling out: a connected socket is re-checked now and then.
  const expireSessions = async () => {
    const hashes = [...new Set([...io.of('/').sockets.values()].map((s) => s.data.tokenHash).filter((h): h is string => Boolean(h)))];
    if (hashes.length === 0) return;
    const alive = new Set(
      (
        await ctx.database.db
          .select({ tokenHash: sessions.tokenHash })
          .from(sessions)
          .where(and(inArray(sessions.tokenHash, hashes), gt(sessions.expiresAt, ctx.now())))
      ).map((r) => r.tokenHash),
    );
    demote((hash) => !alive.has(hash));
  };
  ctx.events.on('results.changed', emitAll);
  ctx.events.on('votes.cast', onVote);
  ctx.events.on('election.toggled', onToggle);
  ctx.events.on('candidates.changed', onCandidates);
  ctx.events.on('members.changed', onMembers);
  ctx.events.on('session.revoked', onRevoked);
  ctx.events.on('election.changed', onElection);

  const timers: NodeJS.Timeout[] = [setInterval(() => void expireSessions().catch(logError('socket session re-check failed')), options.sessionRecheckMs ?? SESSION_RECHECK_MS)];
  if (scaleOut) {
    const resync = () => void tally.resync().catch(logError('periodic results rebuild failed'));
    timers.push(setTimeout(resync, FIRST_RESYNC_MS), setInterval(resync, RESYNC_EVERY_MS));
  }
  timers.forEach((t) => t.unref());

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      ctx.events.off('results.changed', emitAll);
      ctx.events.off('votes.cast', onVote);
      ctx.events.off('election.toggled', onToggle);
      ctx.events.off('candidates.changed', onCandidates);
      ctx.events.off('members.changed', onMembers);
      ctx.events.off('session.revoked', onRevoked);
      ctx.events.off('election.changed', onElection);
      timers.forEach((t) => clearTimeout(t));
      if (relayTimer) clearTimeout(relayTimer);
      flushVotes();
      CHANNELS.forEach((c) => emitters[c].close());
      // Not io.close(): that also closes the HTTP server and waits for its keep-alive connections,
      // which belongs to whoever owns the server.
      io.local.disconnectSockets(true);
      await Promise.allSettled([...io._nsps.values()].map((nsp) => nsp.adapter.close()));
      io.engine.close();
      await scaleOut?.close();
    })());
  ctx.onClose(close);
  return { io, close };
}
