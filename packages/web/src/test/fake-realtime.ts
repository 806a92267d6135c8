import { act } from '@testing-library/react';
import { CHANNEL_EVENTS, tallyPayloads, type Channel, type ChannelPayload, type ResultGroup } from '@kura/contract';
import type { ConnectRealtime, KuraSocket } from '@/lib/realtime';

/** One connection `useRealtime` opened: what it sent, the events it listens to, whether it was closed. */
export type FakeSocket = {
  /** every `emit`, its arguments as given (a `subscribe`'s ack last) */
  emitted: unknown[][];
  handlers: Map<string, (payload?: unknown) => void>;
  disconnected: boolean;
};

/**
 * A stand-in for the server's Socket.IO end, given to the screens by `RealtimeProvider`
 * (lib/realtime.ts): no network, and the real `useRealtime` and tally follower run on it. Each
 * connection connects at once unless `autoConnect: false` (then `connect(socket)` does).
 * `renderWithProviders` gives every screen one (`realtime` in its answer).
 */
export function fakeRealtime(options: { autoConnect?: boolean } = {}) {
  const autoConnect = options.autoConnect ?? true;
  const sockets: FakeSocket[] = [];
  const connect: ConnectRealtime = () => {
    const socket: FakeSocket = { emitted: [], handlers: new Map(), disconnected: false };
    sockets.push(socket);
    const client = {
      on: (event: string, fn: (payload?: unknown) => void) => {
        socket.handlers.set(event, fn);
        if (event === 'connect' && autoConnect) fn();
        return client;
      },
      off: (event: string) => {
        socket.handlers.delete(event);
        return client;
      },
      emit: (...args: unknown[]) => {
        socket.emitted.push(args);
        return client;
      },
      disconnect: () => {
        socket.disconnected = true;
        return client;
      },
    };
    return client as unknown as KuraSocket;
  };
  const open = () => sockets.filter((s) => !s.disconnected);
  /** `event` with `payload` to every open connection that listens to it. */
  const deliver = (event: string, payload: unknown) =>
    act(async () => {
      for (const socket of open()) socket.handlers.get(event)?.(payload);
    });
  return {
    connect,
    sockets,
    /** The rooms each open connection subscribed to first (`results:2`, or the bare `results`), sorted. */
    subscribed(): string[] {
      return open()
        .flatMap((s) => (s.emitted.find((args) => args[0] === 'subscribe')?.[1] as string[] | undefined) ?? [])
        .sort();
    },
    /** The server sends `payload` on `channel` to every open connection that listens to it. */
    async send<C extends Exclude<Channel, 'tally'>>(channel: C, payload: ChannelPayload<C>) {
      await deliver(CHANNEL_EVENTS[channel], payload);
    },
    /** The server sends the tally as it stands: a snapshot of `results` (docs/api.md "Realtime"). */
    async sendTally(election_id: number, results: ResultGroup[]) {
      await deliver(CHANNEL_EVENTS.tally, tallyPayloads(election_id, results, () => 'test-layout').snapshot);
    },
  };
}
export type FakeRealtime = ReturnType<typeof fakeRealtime>;
