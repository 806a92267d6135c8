import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from '@testing-library/react';
import { channelName, useRealtime } from './realtime';

/** A stand-in socket: records what the hook subscribes to and lets the test connect it. */
const sockets: { emitted: unknown[][]; handlers: Map<string, (p?: unknown) => void>; disconnected: boolean }[] = [];
vi.mock('socket.io-client', () => ({
  io: () => {
    const socket = { emitted: [] as unknown[][], handlers: new Map<string, (p?: unknown) => void>(), disconnected: false };
    sockets.push(socket);
    return {
      on: (event: string, fn: (p?: unknown) => void) => socket.handlers.set(event, fn),
      off: (event: string) => socket.handlers.delete(event),
      emit: (...args: unknown[]) => socket.emitted.push(args),
      disconnect: () => {
        socket.disconnected = true;
      },
    };
  },
}));

afterEach(() => {
  sockets.length = 0;
});

function Subscriber({ election, onResults }: { election?: number; onResults: (p: unknown) => void }) {
  useRealtime({ results: onResults, statistics: () => {} }, true, election);
  return null;
}

describe('realtime channels per election (docs/api.md "Many elections")', () => {
  it('names the bare channel for the current election and the suffixed one for a chosen election', () => {
    expect(channelName('results')).toBe('results');
    expect(channelName('results', 7)).toBe('results:7');
    expect(channelName('statistics', 12)).toBe('statistics:12');
  });

  it("subscribes to the election's channels, and anew on a fresh connection when the election changes", () => {
    const onResults = vi.fn();
    const { rerender } = render(<Subscriber onResults={onResults} />);
    sockets[0]!.handlers.get('connect')!();
    expect(sockets[0]!.emitted).toEqual([['subscribe', ['results', 'statistics']]]);

    rerender(<Subscriber election={7} onResults={onResults} />);
    expect(sockets[0]!.disconnected).toBe(true);
    sockets[1]!.handlers.get('connect')!();
    expect(sockets[1]!.emitted).toEqual([['subscribe', ['results:7', 'statistics:7']]]);
    // The channel's one event reaches the handler of the base channel.
    sockets[1]!.handlers.get('DetailedResultsUpdate')!({ results: [] });
    expect(onResults).toHaveBeenCalledWith({ results: [] });
  });
});
