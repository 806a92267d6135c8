import { useState, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { contract, tallyPayloads, type ResultGroup, type ResultsTallyPayload } from '@kura/contract';
import { Landing } from '@/components/public/landing-page';
import { fakeRealtime, type FakeSocket } from '@/test/fake-realtime';
import { renderWithProviders } from '@/test/render';
import { stub, stubRoutes } from '@/test/fetch';
import { channelName, RealtimeProvider, useRealtime, type TallyUpdate } from './realtime';

/** The stand-in socket (test/fake-realtime.ts), connected by the test: it records what the hook subscribes to. */
let realtime = fakeRealtime({ autoConnect: false });
const sockets = () => realtime.sockets;
const live = ({ children }: { children: ReactNode }) => <RealtimeProvider value={realtime.connect}>{children}</RealtimeProvider>;

beforeEach(() => {
  realtime = fakeRealtime({ autoConnect: false });
});
afterEach(() => vi.unstubAllGlobals());

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
    const { rerender } = render(<Subscriber onResults={onResults} />, { wrapper: live });
    sockets()[0]!.handlers.get('connect')!();
    expect(sockets()[0]!.emitted).toEqual([['subscribe', ['results', 'statistics']]]);

    rerender(<Subscriber election={7} onResults={onResults} />);
    expect(sockets()[0]!.disconnected).toBe(true);
    sockets()[1]!.handlers.get('connect')!();
    expect(sockets()[1]!.emitted).toEqual([['subscribe', ['results:7', 'statistics:7']]]);
    // The channel's one event reaches the handler of the base channel.
    sockets()[1]!.handlers.get('DetailedResultsUpdate')!({ results: [] });
    expect(onResults).toHaveBeenCalledWith({ results: [] });
  });
});

// ---- The tally channel (docs/api.md "Realtime"): a snapshot, then counts only ----

const value = (candidate_id: number, name: string, count: number) => ({
  candidate_id,
  title: name,
  name,
  member_no: `M${candidate_id}`,
  count,
});
/** Chairperson National, candidates by id: Zed (1), Ada (2), Bea (3). */
const chair = (zed: number, ada: number, bea: number): ResultGroup => ({
  position_id: 9,
  title: 'Chairperson National',
  key: 'Chairperson_National',
  total: zed + ada + bea,
  values: [value(1, 'Zed', zed), value(2, 'Ada', ada), value(3, 'Bea', bea)],
});
/** What the server sends: the snapshot in layout order, and the counts vector of the same layout. */
const snapshot = (results: ResultGroup[], layout = 'L1', election_id = 1): ResultsTallyPayload =>
  tallyPayloads(election_id, results, () => layout).snapshot;
const counts = (results: ResultGroup[], layout = 'L1', election_id = 1): ResultsTallyPayload =>
  tallyPayloads(election_id, results, () => layout).counts;

const send = (socket: FakeSocket, payload: ResultsTallyPayload) => act(() => socket.handlers.get('ResultsTally')!(payload));
const connect = (socket: FakeSocket) => act(() => socket.handlers.get('connect')!());
/** Answers the i-th `subscribe` the socket sent (its ack is the last argument). */
const answer = (socket: FakeSocket, i: number) => act(() => (socket.emitted[i]!.at(-1) as () => void)());
const subscribes = (socket: FakeSocket) => socket.emitted.map((args) => args.slice(0, 2));

/** Shows what the tally handler was last given: each candidate and count, in the order given. */
function TallyView({ election }: { election?: number }) {
  const [update, setUpdate] = useState<TallyUpdate | null>(null);
  useRealtime({ tally: setUpdate, statistics: () => {} }, true, election);
  return (
    <p data-testid="tally">
      {update
        ? `${update.election_id}: ${update.results.map((g) => `${g.total} = ${g.values.map((v) => `${v.name} ${v.count}`).join(', ')}`).join('; ')}`
        : 'none'}
    </p>
  );
}
const shown = () => screen.getByTestId('tally').textContent;

describe('the tally channel in useRealtime', () => {
  it('subscribes to the tally, and a snapshot then counts give the results in display order', async () => {
    render(<TallyView election={7} />, { wrapper: live });
    const socket = sockets()[0]!;
    await connect(socket);
    expect(subscribes(socket)).toEqual([['subscribe', ['statistics:7', 'tally:7']]]);
    await send(socket, snapshot([chair(1, 1, 0)], 'L1', 7));
    await answer(socket, 0);
    // Ada and Zed tie: by name.
    expect(shown()).toBe('7: 2 = Ada 1, Zed 1, Bea 0');

    await send(socket, counts([chair(2, 1, 4)], 'L1', 7));
    expect(shown()).toBe('7: 7 = Bea 4, Zed 2, Ada 1');
    await send(socket, counts([chair(2, 3, 4)], 'L1', 7));
    expect(shown()).toBe('7: 9 = Bea 4, Ada 3, Zed 2');
    // Nothing asked for again.
    expect(subscribes(socket)).toHaveLength(1);
  });

  it('counts of another layout are not applied: it subscribes to the tally again, once, and takes the new snapshot', async () => {
    render(<TallyView />, { wrapper: live });
    const socket = sockets()[0]!;
    await connect(socket);
    await send(socket, snapshot([chair(1, 0, 0)]));
    await answer(socket, 0);
    expect(shown()).toBe('1: 1 = Zed 1, Ada 0, Bea 0');

    // A candidate was added (layout L2): its counts have another length and layout.
    const four = { ...chair(1, 0, 0), total: 6, values: [...chair(1, 0, 0).values, value(4, 'Cy', 5)] };
    await send(socket, counts([four], 'L2'));
    expect(shown()).toBe('1: 1 = Zed 1, Ada 0, Bea 0');
    expect(subscribes(socket)).toEqual([
      ['subscribe', ['statistics', 'tally']],
      ['subscribe', ['tally']],
    ]);
    // More of them while that is on its way ask no more.
    await send(socket, counts([four], 'L2'));
    expect(subscribes(socket)).toHaveLength(2);
    expect(shown()).toBe('1: 1 = Zed 1, Ada 0, Bea 0');

    await send(socket, snapshot([four], 'L2'));
    await answer(socket, 1);
    expect(shown()).toBe('1: 6 = Cy 5, Zed 1, Ada 0, Bea 0');
    await send(socket, counts([{ ...four, total: 7, values: four.values.map((v) => (v.name === 'Bea' ? { ...v, count: 1 } : v)) }], 'L2'));
    expect(shown()).toBe('1: 7 = Cy 5, Bea 1, Zed 1, Ada 0');

    // Another election's counts on the bare channel (the current election changed) ask again too.
    await send(socket, counts([chair(0, 0, 0)], 'L1', 2));
    expect(subscribes(socket)).toHaveLength(3);
    expect(subscribes(socket)[2]).toEqual(['subscribe', ['tally']]);
    expect(shown()).toBe('1: 7 = Cy 5, Bea 1, Zed 1, Ada 0');
  });

  it('a reconnect drops the state: counts before its snapshot are not applied, and the snapshot is', async () => {
    render(<TallyView />, { wrapper: live });
    const socket = sockets()[0]!;
    await connect(socket);
    await send(socket, snapshot([chair(1, 0, 0)]));
    await answer(socket, 0);
    await connect(socket);
    expect(subscribes(socket)).toEqual([
      ['subscribe', ['statistics', 'tally']],
      ['subscribe', ['statistics', 'tally']],
    ]);
    // Same layout, but held state is gone (the snapshot is on its way: no extra subscribe).
    await send(socket, counts([chair(5, 0, 0)]));
    expect(shown()).toBe('1: 1 = Zed 1, Ada 0, Bea 0');
    expect(subscribes(socket)).toHaveLength(2);
    await send(socket, snapshot([chair(2, 3, 0)]));
    await answer(socket, 1);
    expect(shown()).toBe('1: 5 = Ada 3, Zed 2, Bea 0');
  });

  it("a change of election starts from that election's snapshot on a fresh connection", async () => {
    const { rerender } = render(<TallyView election={7} />, { wrapper: live });
    await connect(sockets()[0]!);
    await send(sockets()[0]!, snapshot([chair(1, 0, 0)], 'L1', 7));
    rerender(<TallyView election={8} />);
    expect(sockets()[0]!.disconnected).toBe(true);
    const socket = sockets()[1]!;
    await connect(socket);
    expect(subscribes(socket)).toEqual([['subscribe', ['statistics:8', 'tally:8']]]);
    await answer(socket, 0);
    // Election 7's layout held by the old connection is not applied to 8's counts.
    await send(socket, counts([chair(3, 0, 0)], 'L1', 8));
    expect(shown()).toBe('7: 1 = Zed 1, Ada 0, Bea 0');
    expect(subscribes(socket)).toEqual([
      ['subscribe', ['statistics:8', 'tally:8']],
      ['subscribe', ['tally:8']],
    ]);
  });

  it('the landing page, which followed the results channel, shows the live numbers from the tally', async () => {
    stubRoutes(
      stub(contract.api.members.listPositions, {
        status: 200,
        body: {
          data: [
            {
              id: 9,
              name: 'Chairperson',
              level: 'National',
              description: null,
              method: 'plurality',
              seats: 1,
              branch_id: null,
              kind: 'candidates',
              threshold: null,
              quorum_percent: null,
            },
          ],
        },
      }),
      stub(contract.api.elections.getResults, { status: 200, body: { data: { data: [chair(1, 0, 0)] } } }),
    );
    await renderWithProviders(<Landing />, '/', { realtime });
    expect(await screen.findByText('100.00% 1 vote')).toBeTruthy();
    const socket = sockets()[0]!;
    await connect(socket);
    expect(subscribes(socket)).toEqual([['subscribe', ['tally']]]);
    await send(socket, snapshot([chair(1, 0, 0)]));
    await answer(socket, 0);
    await send(socket, counts([chair(1, 3, 0)]));
    expect(await screen.findByText('75.00% 3 votes')).toBeTruthy();
    expect(screen.getByText('25.00% 1 vote')).toBeTruthy();
    // In display order: Ada (3) above Zed (1) and Bea (0).
    const bars = screen.getAllByRole('progressbar').map((bar) => bar.getAttribute('aria-label'));
    expect(bars).toEqual(['Ada share', 'Zed share', 'Bea share']);
  });
});
