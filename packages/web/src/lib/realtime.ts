import { useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';
import {
  SOCKET_PATH,
  type Channel,
  type ChannelPayload,
  type ClientToServerEvents,
  type ServerToClientEvents,
  CHANNEL_EVENTS,
} from '@kura/contract';
import { getToken } from './session';

export type KuraSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export type ChannelHandlers = { [C in Channel]?: (payload: ChannelPayload<C>) => void };

/** Opens a same-origin Socket.IO connection; the token (if any) lets staff join `statistics`. */
export function connectRealtime(): KuraSocket {
  const token = getToken();
  return io({ path: SOCKET_PATH, transports: ['websocket', 'polling'], auth: token ? { token } : {} });
}

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
 * so no update of the election left behind arrives.
 */
export function useRealtime(handlers: ChannelHandlers, enabled = true, election?: number) {
  const ref = useRef(handlers);
  useEffect(() => {
    ref.current = handlers;
  });
  const channels = (Object.keys(handlers) as Channel[]).sort().join(',');

  useEffect(() => {
    if (!enabled || !channels) return;
    const list = channels.split(',') as Channel[];
    const socket = connectRealtime();
    const subscribe = () =>
      socket.emit(
        'subscribe',
        list.map((channel) => channelName(channel, election)),
      );
    socket.on('connect', subscribe);
    const off: Array<() => void> = [];
    for (const channel of list) {
      const event = CHANNEL_EVENTS[channel];
      const listener = (payload: unknown) => {
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
  }, [channels, enabled, election]);
}
