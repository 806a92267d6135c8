import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { contract } from '@kura/contract';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
import { anElection } from '@/test/elections';
import { setLocale } from '@/i18n';
import { VotingCountdown } from './voting-countdown';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/**
 * When an opening falls due the page asks the server again until its phase shows it, but with
 * waits growing to 15 s and spread, not every second from every open page (issue 38, 6).
 */
describe('VotingCountdown once the opening is due', () => {
  it('asks GET election again after about 1, 2, 4, 8 s, then every 15 s at most, not each second', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    setLocale('en');
    const opensAt = new Date(Date.now() + 2_000).toISOString();
    const calls = stubRoutes(
      stub(contract.api.elections.getElection, {
        status: 200,
        body: {
          // The server has not opened it yet: the page keeps asking.
          data: anElection(1, 'AGM', {
            organisation: 'Org',
            opens_at: opensAt,
            time_zone: 'UTC',
            phase: 'scheduled',
            default_language: 'en',
          }),
        },
      }),
    );
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={queryClient}>
        <VotingCountdown />
      </QueryClientProvider>,
    );
    const asked = () => callsTo(calls, contract.api.elections.getElection).length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(100);
    });
    expect(asked()).toBe(1);
    // The opening falls due at 2 s; 58 s later the page has asked a handful of times, not 58.
    for (let s = 0; s < 60; s++)
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1_000);
      });
    expect(asked() - 1).toBeGreaterThanOrEqual(4);
    expect(asked() - 1).toBeLessThanOrEqual(8);
  });
});
