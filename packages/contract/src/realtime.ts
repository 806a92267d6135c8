import { z } from 'zod';
import { ResultGroup, Statistics } from './common';

/** Socket.IO path, same origin as the API. */
export const SOCKET_PATH = '/socket.io';

export const CHANNELS = ['votes', 'results', 'statistics'] as const;
export type Channel = (typeof CHANNELS)[number];
export const ChannelSchema = z.enum(CHANNELS);

/**
 * A channel of one election: `votes:7`, `results:7`, `statistics:7`. The bare name (`votes`) is
 * the current election's, whichever election that is when the server emits.
 */
export type ElectionChannelName = Channel | `${Channel}:${number}`;
const CHANNEL_NAME = /^(votes|results|statistics)(?::([1-9][0-9]{0,9}))?$/;
/** The largest election id a channel suffix may carry (a Postgres integer). */
const MAX_ELECTION_ID = 2147483647;
export const ChannelNameSchema = z.custom<ElectionChannelName>((name) => parseChannelName(name) !== null, 'not a channel');

/** `votes:7` for election 7, `votes` for the current election (null). */
export function channelName(channel: Channel, electionId: number | null = null): ElectionChannelName {
  return electionId === null ? channel : `${channel}:${electionId}`;
}

/** The channel and election of a name (`electionId` null: the current election); null when it names no channel. */
export function parseChannelName(name: unknown): { channel: Channel; electionId: number | null } | null {
  if (typeof name !== 'string') return null;
  const match = CHANNEL_NAME.exec(name);
  if (!match) return null;
  const electionId = match[2] === undefined ? null : Number(match[2]);
  if (electionId !== null && electionId > MAX_ELECTION_ID) return null;
  return { channel: match[1] as Channel, electionId };
}

/** The one event emitted on each channel. */
export const CHANNEL_EVENTS = {
  votes: 'VoteResultsUpdated',
  results: 'DetailedResultsUpdate',
  statistics: 'StatisticsUpdate',
} as const satisfies Record<Channel, string>;
export type RealtimeEvent = (typeof CHANNEL_EVENTS)[Channel];
export const EVENTS = {
  VoteResultsUpdated: 'VoteResultsUpdated',
  DetailedResultsUpdate: 'DetailedResultsUpdate',
  StatisticsUpdate: 'StatisticsUpdate',
} as const;

/** Server emits at most once per channel per this many ms (plus a final emit). */
export const EMIT_COALESCE_MS = 250;

// ---- Payloads ----

export const VoteTotal = z.object({ position_id: z.number().int(), title: z.string(), total: z.number().int() });
/** Every payload names the election it is of (a socket may watch the bare and a suffixed name at once). */
const ofElection = { election_id: z.number().int() };
export const VoteResultsUpdatedPayload = z.object({ ...ofElection, results: z.array(VoteTotal) });
export type VoteResultsUpdatedPayload = z.infer<typeof VoteResultsUpdatedPayload>;

export const DetailedResultsUpdatePayload = z.object({ ...ofElection, results: z.array(ResultGroup) });
export type DetailedResultsUpdatePayload = z.infer<typeof DetailedResultsUpdatePayload>;

export const StatisticsUpdatePayload = z.object({ ...ofElection, statistics: Statistics });
export type StatisticsUpdatePayload = z.infer<typeof StatisticsUpdatePayload>;

export const EVENT_PAYLOADS = {
  VoteResultsUpdated: VoteResultsUpdatedPayload,
  DetailedResultsUpdate: DetailedResultsUpdatePayload,
  StatisticsUpdate: StatisticsUpdatePayload,
} as const satisfies Record<RealtimeEvent, z.ZodTypeAny>;

// ---- Who may join ----

/** 'staff' channels need a handshake `auth: {token}` of an admin or agent. */
export const CHANNEL_ACCESS = {
  votes: 'anyone',
  results: 'anyone',
  statistics: 'staff',
} as const satisfies Record<Channel, 'anyone' | 'staff'>;
export const STAFF_CHANNELS: readonly Channel[] = CHANNELS.filter((ch) => CHANNEL_ACCESS[ch] === 'staff');

export type SocketRole = 'voter' | 'agent' | 'admin' | null;

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && (CHANNELS as readonly string[]).includes(name);
}

/** Whether a connection of this role (null = no or bad token) may join the channel. */
export function canJoinChannel(channel: Channel, role: SocketRole): boolean {
  return CHANNEL_ACCESS[channel] === 'anyone' || role === 'admin' || role === 'agent';
}

// ---- Client → server ----

/**
 * `subscribe` argument: channel names, bare (the current election's) or with an election id
 * (`votes:7`); unknown names, and elections that do not exist or are archived, are reported in
 * the ack, not an error.
 */
export const SubscribeRequest = z.array(z.string().max(64)).max(16);
export type SubscribeRequest = z.infer<typeof SubscribeRequest>;

export const SubscribeAck = z.object({
  /** channels the socket is now in, as named in the request */
  joined: z.array(ChannelNameSchema),
  /** names refused: unknown channel or election, an archived election, a staff channel without a staff token, results hidden */
  denied: z.array(z.string()),
});
export type SubscribeAck = z.infer<typeof SubscribeAck>;

// ---- Socket.IO typing (`new Server<ClientToServerEvents, ServerToClientEvents>()`, `io<ServerToClientEvents, ClientToServerEvents>`) ----

export type ServerToClientEvents = {
  VoteResultsUpdated: (payload: VoteResultsUpdatedPayload) => void;
  DetailedResultsUpdate: (payload: DetailedResultsUpdatePayload) => void;
  StatisticsUpdate: (payload: StatisticsUpdatePayload) => void;
};

export type ClientToServerEvents = {
  subscribe: (channels: string[], ack?: (result: SubscribeAck) => void) => void;
};

/** Handshake `auth` of a socket; the token is only needed for staff channels. */
export type SocketAuth = { token?: string };

/** Payload type of a channel's event. */
export type ChannelPayload<C extends Channel> = Parameters<ServerToClientEvents[(typeof CHANNEL_EVENTS)[C]]>[0];
