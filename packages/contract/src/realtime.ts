import { z } from 'zod';
import { ResultGroup, Statistics } from './common';
import { said } from './messages';

/** Socket.IO path, same origin as the API. */
export const SOCKET_PATH = '/socket.io';

export const CHANNELS = ['votes', 'results', 'statistics', 'tally', 'changes'] as const;
export type Channel = (typeof CHANNELS)[number];
export const ChannelSchema = z.enum(CHANNELS);

/**
 * A channel of one election: `votes:7`, `results:7`, `statistics:7`. The bare name (`votes`) is
 * the current election's, whichever election that is when the server emits.
 */
export type ElectionChannelName = Channel | `${Exclude<Channel, 'changes'>}:${number}`;
/**
 * The results channels, one room per election. `changes` (staff only) is one room for every
 * election: it says which kind of thing changed, and a staff screen reads it again.
 */
export const RESULT_CHANNELS = ['votes', 'results', 'statistics', 'tally'] as const satisfies readonly Channel[];
export type ResultChannel = (typeof RESULT_CHANNELS)[number];
const CHANNEL_NAME = /^(?:(votes|results|statistics|tally)(?::([1-9][0-9]{0,9}))?|(changes))$/;
/** The largest election id a channel suffix may carry (a Postgres integer). */
const MAX_ELECTION_ID = 2147483647;
export const ChannelNameSchema = z.custom<ElectionChannelName>((name) => parseChannelName(name) !== null, said('field.channelName'));

/** `votes:7` for election 7, `votes` for the current election (null). */
export function channelName(channel: Channel, electionId: number | null = null): ElectionChannelName {
  // `changes` is one room for every election.
  return electionId === null || channel === 'changes' ? channel : `${channel}:${electionId}`;
}

/** The channel and election of a name (`electionId` null: the current election); null when it names no channel. */
export function parseChannelName(name: unknown): { channel: Channel; electionId: number | null } | null {
  if (typeof name !== 'string') return null;
  const match = CHANNEL_NAME.exec(name);
  if (!match) return null;
  if (match[3] !== undefined) return { channel: 'changes', electionId: null };
  const electionId = match[2] === undefined ? null : Number(match[2]);
  if (electionId !== null && electionId > MAX_ELECTION_ID) return null;
  return { channel: match[1] as Channel, electionId };
}

/** The one event emitted on each channel. */
export const CHANNEL_EVENTS = {
  votes: 'VoteResultsUpdated',
  results: 'DetailedResultsUpdate',
  statistics: 'StatisticsUpdate',
  tally: 'ResultsTally',
  changes: 'EntityChanged',
} as const satisfies Record<Channel, string>;
export type RealtimeEvent = (typeof CHANNEL_EVENTS)[Channel];
export const EVENTS = {
  VoteResultsUpdated: 'VoteResultsUpdated',
  DetailedResultsUpdate: 'DetailedResultsUpdate',
  StatisticsUpdate: 'StatisticsUpdate',
  ResultsTally: 'ResultsTally',
  EntityChanged: 'EntityChanged',
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

/**
 * The `tally` channel: the `results` channel's content, small enough for thousands of watchers.
 * A `snapshot` is the whole ResultGroup[] with its `layout` (an id of everything but the counts:
 * positions, candidates, names, titles, translations), its values in candidate-id order so the
 * layout does not move with the counts. It is sent to a socket when it joins, and to everyone
 * whenever the layout changes. Otherwise each update is `counts`: the layout id and, for each
 * group in order, its `total` followed by each value's `count` (every count, not a difference: a
 * missed update loses nothing). A client whose layout differs from an update's asks again
 * (`subscribe`) and gets a snapshot. applyTally() does this and gives the display order back.
 */
export const ResultsTallySnapshot = z.object({
  ...ofElection,
  kind: z.literal('snapshot'),
  layout: z.string(),
  results: z.array(ResultGroup),
});
export const ResultsTallyCounts = z.object({
  ...ofElection,
  kind: z.literal('counts'),
  layout: z.string(),
  counts: z.array(z.number().int()),
});
export const ResultsTallyPayload = z.discriminatedUnion('kind', [ResultsTallySnapshot, ResultsTallyCounts]);
export type ResultsTallyPayload = z.infer<typeof ResultsTallyPayload>;
export type ResultsTallySnapshot = z.infer<typeof ResultsTallySnapshot>;
export type ResultsTallyCounts = z.infer<typeof ResultsTallyCounts>;

/**
 * Display order of one group's values, as the `results` channel and route give it: a motion's
 * options by id (Yes, No, Abstain), candidates by count, then name, then id.
 */
export function sortResultValues(group: Pick<ResultGroup, 'kind'>, values: ResultGroup['values']): ResultGroup['values'] {
  if (group.kind === 'motion') return values.sort((a, b) => a.candidate_id - b.candidate_id);
  return values.sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.candidate_id - b.candidate_id));
}

/**
 * The tally's layout order of `results`: the groups as given, each group's values by candidate
 * id, so that the order does not move with the counts (a copy; `results` is not changed).
 */
export function tallyLayout(results: readonly ResultGroup[]): ResultGroup[] {
  return results.map((group) => ({ ...group, values: [...group.values].sort((a, b) => a.candidate_id - b.candidate_id) }));
}

/** The counts vector of groups in layout order (tallyLayout): per group its total, then each value's count. */
export function tallyCounts(layout: readonly ResultGroup[]): number[] {
  const counts: number[] = [];
  for (const group of layout) {
    counts.push(group.total);
    for (const value of group.values) counts.push(value.count);
  }
  return counts;
}

/**
 * The two `tally` payloads of `results`: the snapshot and the counts update, both in layout order
 * (tallyLayout). `layoutOf` names the layout of the ordered groups (the server digests them).
 */
export function tallyPayloads(
  electionId: number,
  results: readonly ResultGroup[],
  layoutOf: (ordered: readonly ResultGroup[]) => string,
): { layout: string; snapshot: ResultsTallySnapshot; counts: ResultsTallyCounts } {
  const ordered = tallyLayout(results);
  const layout = layoutOf(ordered);
  return {
    layout,
    snapshot: { election_id: electionId, kind: 'snapshot', layout, results: ordered },
    counts: { election_id: electionId, kind: 'counts', layout, counts: tallyCounts(ordered) },
  };
}

/** What a tally client holds: the snapshot's layout with the latest counts, values in display order. */
export type TallyState = {
  election_id: number;
  layout: string;
  results: ResultGroup[];
  /** layout order, for the next counts */ ordered: ResultGroup[];
};

/**
 * A tally client's next state: a snapshot replaces it; counts of the same election and layout
 * fill in the counts; anything else answers 'snapshot-needed' (re-`subscribe` to get one), the
 * state staying as it was. `results` is in the display order of the `results` channel.
 */
export function applyTally(state: TallyState | undefined, update: ResultsTallyPayload): TallyState | 'snapshot-needed' {
  if (update.kind === 'snapshot') {
    const ordered = tallyLayout(update.results);
    return { election_id: update.election_id, layout: update.layout, ordered, results: display(ordered) };
  }
  if (!state || state.election_id !== update.election_id || state.layout !== update.layout) return 'snapshot-needed';
  const expected = state.ordered.reduce((n, g) => n + 1 + g.values.length, 0);
  if (update.counts.length !== expected) return 'snapshot-needed';
  let i = 0;
  const ordered = state.ordered.map((group) => {
    const total = update.counts[i++]!;
    const values = group.values.map((value) => ({ ...value, count: update.counts[i++]! }));
    return { ...group, total, values };
  });
  return { election_id: state.election_id, layout: state.layout, ordered, results: display(ordered) };
}

const display = (ordered: readonly ResultGroup[]): ResultGroup[] =>
  ordered.map((group) => ({ ...group, values: sortResultValues(group, [...group.values]) }));

/**
 * What changed, on the staff `changes` channel (another admin's edit, an import, a nomination): a
 * staff screen showing that kind of thing reads it again. It names the kind only, never the data.
 */
export const CHANGED_ENTITIES = ['election', 'positions', 'candidates', 'members', 'nominations'] as const;
export type ChangedEntity = (typeof CHANGED_ENTITIES)[number];
export const EntityChangedPayload = z.object({ entity: z.enum(CHANGED_ENTITIES) });
export type EntityChangedPayload = z.infer<typeof EntityChangedPayload>;

export const EVENT_PAYLOADS = {
  VoteResultsUpdated: VoteResultsUpdatedPayload,
  DetailedResultsUpdate: DetailedResultsUpdatePayload,
  StatisticsUpdate: StatisticsUpdatePayload,
  ResultsTally: ResultsTallyPayload,
  EntityChanged: EntityChangedPayload,
} as const satisfies Record<RealtimeEvent, z.ZodTypeAny>;

// ---- Who may join ----

/** 'staff' channels need a handshake `auth: {token}` of an admin or agent. */
export const CHANNEL_ACCESS = {
  votes: 'anyone',
  results: 'anyone',
  statistics: 'staff',
  tally: 'anyone',
  changes: 'staff',
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
  ResultsTally: (payload: ResultsTallyPayload) => void;
  EntityChanged: (payload: EntityChangedPayload) => void;
};

export type ClientToServerEvents = {
  subscribe: (channels: string[], ack?: (result: SubscribeAck) => void) => void;
};

/** Handshake `auth` of a socket; the token is only needed for staff channels. */
export type SocketAuth = { token?: string };

/** Payload type of a channel's event. */
export type ChannelPayload<C extends Channel> = Parameters<ServerToClientEvents[(typeof CHANNEL_EVENTS)[C]]>[0];
