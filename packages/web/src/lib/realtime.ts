import { createContext, useContext, useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';
import {
  SOCKET_PATH,
  applyTally,
  type Channel,
  type ChannelPayload,
  type ClientToServerEvents,
  type DetailedResultsUpdatePayload,
  type ResultsTallyPayload,
  type ServerToClientEvents,
  type TallyState,
  CHANNEL_EVENTS,
} from '@kura/contract';
import { getToken } from './session';

export type KuraSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** What a `tally` handler is given: the whole results in display order, as the `results` channel carries them. */
export type TallyUpdate = DetailedResultsUpdatePayload;

/**
 * A handler per channel. The `tally` handler is not given the channel's payloads (a snapshot or
 * counts only) but the results they add up to (followTally).
 */
export type ChannelHandlers = { [C in Exclude<Channel, 'tally'>]?: (payload: ChannelPayload<C>) => void } & {
  tally?: (update: TallyUpdate) => void;
};

/** Opens a same-origin Socket.IO connection; the token (if any) lets staff join `statistics`. */
export function connectRealtime(): KuraSocket {
  const token = getToken();
  return io({ path: SOCKET_PATH, transports: ['websocket', 'polling'], auth: token ? { token } : {} });
}

/** How `useRealtime` opens a connection: `connectRealtime` unless a `RealtimeProvider` gives another. */
export type ConnectRealtime = () => KuraSocket;
const RealtimeContext = createContext<ConnectRealtime>(connectRealtime);
/**
 * Gives the screens below another way to connect (the web tests' stand-in socket,
 * src/test/fake-realtime.ts); the app needs none.
 */
export const RealtimeProvider = RealtimeContext.Provider;

/**
 * The room of a channel for one election (docs/api.md "Many elections"): `results:7`; the bare
 * name (`results`) is the current election's, used when no election is chosen.
 */
export function channelName(channel: Channel, election?: number): string {
  return election === undefined ? channel : `${channel}:${election}`;
}

/**
 * Subscribes to the given channels while the component is mounted and calls the handler of each
 * channel's event. Subscriptions are re-sent on every (re)connect. With an election, the channels
 * are that election's (`results:7`); a change of election subscribes anew on a fresh connection,
 * so no update of the election left behind arrives. The `tally` channel is followed by followTally.
 */
export function useRealtime(handlers: ChannelHandlers, enabled = true, election?: number) {
  const connect = useContext(RealtimeContext);
  const ref = useRef(handlers);
  useEffect(() => {
    ref.current = handlers;
  });
  const channels = (Object.keys(handlers) as Channel[]).sort().join(',');

  useEffect(() => {
    if (!enabled || !channels) return;
    const list = channels.split(',') as Channel[];
    const socket = connect();
    const names = list.map((channel) => channelName(channel, election));
    const tally = list.includes('tally')
      ? followTally(socket, channelName('tally', election), (update) => ref.current.tally?.(update))
      : null;
    const subscribe = () => {
      if (tally) socket.emit('subscribe', names, tally.subscribed());
      else socket.emit('subscribe', names);
    };
    socket.on('connect', subscribe);
    const off: Array<() => void> = [];
    for (const channel of list) {
      const event = CHANNEL_EVENTS[channel];
      const listener = (payload: unknown) => {
        if (tally && channel === 'tally') return tally.receive(payload as ResultsTallyPayload);
        const handler = ref.current[channel] as ((p: unknown) => void) | undefined;
        handler?.(payload);
      };
      // The event name is picked per channel at run time; the payload type follows CHANNEL_EVENTS.
      const untyped = socket as unknown as Socket;
      untyped.on(event, listener);
      off.push(() => untyped.off(event, listener));
    }
    return () => {
      off.forEach((f) => f());
      socket.off('connect', subscribe);
      socket.disconnect();
    };
  }, [channels, enabled, election, connect]);
}

/**
 * One socket's follower of a `tally` channel (docs/api.md "Realtime"): it holds the TallyState of
 * the snapshot and the counts since, and hands `deliver` the results they add up to. Counts it
 * cannot apply (another layout or election, or no snapshot yet) ask for a snapshot by subscribing
 * to `name` again, once until that is answered: a snapshot is sent before the answer. Every
 * (re)connect's subscribe (`subscribed()` gives its ack) drops the state, as a snapshot follows it.
 */
export function followTally(socket: KuraSocket, name: string, deliver: (update: TallyUpdate) => void) {
  let state: TallyState | undefined;
  /** a subscribe is on its way: its snapshot comes before its ack */
  let asking = false;
  const answered = () => {
    asking = false;
  };
  return {
    subscribed() {
      state = undefined;
      asking = true;
      return answered;
    },
    receive(update: ResultsTallyPayload) {
      const next = applyTally(state, update);
      if (next === 'snapshot-needed') {
        if (asking) return;
        asking = true;
        socket.emit('subscribe', [name], answered);
        return;
      }
      state = next;
      deliver({ election_id: next.election_id, results: next.results });
    },
  };
}
