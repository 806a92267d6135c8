import type { ComponentProps } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { contract } from '@kura/contract';
import { callsTo, stub, stubRoutes, type RouteStub } from '@/test/fetch';
import { setLocale } from '@/i18n';
import { RealtimeProvider } from '@/lib/realtime';
import { createAppRouter } from '@/router';
import { fakeRealtime } from '@/test/fake-realtime';

/**
 * A failed or slow read on a screen shows that screen's own error state with Retry, never the root's
 * crash page (issue 36, 14: the admin dashboard fell into "Something went wrong" right after
 * sign-in under load). The app's own route tree and router options (src/router.tsx) on a memory
 * history: the admin layout's session check, the shell, the dashboard.
 */
// A switch the tests flip: while on, the statistics tiles throw as they render (a read of data that
// is not there, whatever the cause), the kind of failure that fell through to the root.
const crash = vi.hoisted(() => ({ on: false }));
vi.mock('@/components/staff/statistics-tiles', async (importOriginal) => {
  const real = await importOriginal<typeof import('@/components/staff/statistics-tiles')>();
  return {
    ...real,
    StatisticsTiles: (props: ComponentProps<typeof real.StatisticsTiles>) => {
      if (crash.on) throw new TypeError("Cannot read properties of undefined (reading 'data')");
      return real.StatisticsTiles(props);
    },
  };
});

const STATISTICS = { votesCasted: 2, verifiedMembers: 1, unverifiedMembers: 0, membersVoted: 1, membersNotVoted: 0 };

/** The admin's server: the `fail` stubs answer first (a failure under load), else the usual answers. */
function server(...fail: RouteStub[]) {
  return stubRoutes(
    ...fail,
    stub(contract.api.auth.validateStaff, { status: 200, body: { user_type: 'admin', data: { name: 'Ada Admin' } } }),
    stub(contract.api.elections.getElectionStatus, { status: 200, body: { active: '0' } }),
    stub(contract.api.members.listPositions, { status: 200, body: { data: [] } }),
    stub(contract.api.elections.getResults, { status: 200, body: { data: { data: [] } } }),
    stub(contract.api.elections.getStatistics, { status: 200, body: { data: { data: STATISTICS } } }),
  );
}

async function openAdmin() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: ['/admin'] }));
  render(
    <RealtimeProvider value={fakeRealtime().connect}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </RealtimeProvider>,
  );
  await act(() => router.load());
  return router;
}

/** The root's crash page: its message with a button that reloads the whole app. */
const rootCrash = () => screen.queryByRole('button', { name: 'Reload the page' });

beforeEach(() => {
  window.localStorage.setItem('token', 'staff-token');
  window.localStorage.setItem('hash', 'staff-hash');
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  crash.on = false;
  window.localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('a screen that fails keeps its own error state with Retry (never the root crash page)', () => {
  it('a render failure of the dashboard shows the screen error inside the admin shell; Retry renders it again', async () => {
    server();
    crash.on = true;
    await openAdmin();
    const alert = await screen.findByText('This page could not be loaded.');
    // The spec's words for a crash, in the screen's place, with Retry instead of a reload of the app.
    expect(within(alert.closest('[role="alert"]') as HTMLElement).getByText('Something went wrong.')).toBeTruthy();
    expect(rootCrash()).toBeNull();
    // The shell still stands around it: the navigation and Sign Out.
    expect(screen.getByRole('navigation', { name: /main/i })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeTruthy();

    crash.on = false;
    fireEvent.click(within(alert.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByTestId('tile-votesCasted').textContent).toContain('2'));
    expect(screen.queryByText('This page could not be loaded.')).toBeNull();
    expect(rootCrash()).toBeNull();
  });

  it("failed reads of the dashboard's results and statistics show their own error states with Retry, and Retry reads them again", async () => {
    let down = true;
    const unavailable = { status: 503, body: { message: 'Service Unavailable' } } as const;
    const calls = server(
      stub(contract.api.elections.getStatistics, () => (down ? unavailable : undefined)),
      stub(contract.api.elections.getResults, () => (down ? unavailable : undefined)),
    );
    await openAdmin();
    expect(await screen.findByText('The statistics could not be loaded. Please try again later.')).toBeTruthy();
    const retryStatistics = screen.getByRole('button', { name: 'Retry loading the statistics' });
    const retryResults = await screen.findByRole('button', { name: 'Retry loading the results' });
    expect(rootCrash()).toBeNull();
    expect(screen.queryByText('This page could not be loaded.')).toBeNull();
    // The rest of the screen works meanwhile.
    expect(screen.getByRole('switch', { name: 'Voting enabled' })).toBeTruthy();

    down = false;
    const before = callsTo(calls, contract.api.elections.getStatistics).length;
    fireEvent.click(retryStatistics);
    await waitFor(() => expect(screen.getByTestId('tile-votesCasted').textContent).toContain('2'));
    expect(callsTo(calls, contract.api.elections.getStatistics).length).toBe(before + 1);
    fireEvent.click(retryResults);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Retry loading the results' })).toBeNull());
    expect(screen.queryByRole('button', { name: 'Retry loading the statistics' })).toBeNull();
  });

  it('a slow read leaves the screen loading in place, neither crash nor screen error', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Statistics answer only when released: the stub's fetch waits for the gate.
    const calls = server();
    const stubbed = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
      if (url.pathname === '/api/v1/statistics') await gate;
      return stubbed(input, init);
    });
    await openAdmin();
    await screen.findByRole('switch', { name: 'Voting enabled' });
    expect(screen.getByTestId('tile-votesCasted').textContent).toContain('–');
    expect(rootCrash()).toBeNull();
    expect(screen.queryByText('This page could not be loaded.')).toBeNull();
    release();
    await waitFor(() => expect(screen.getByTestId('tile-votesCasted').textContent).toContain('2'));
    expect(callsTo(calls, contract.api.elections.getStatistics).length > 0).toBe(true);
  });

  it('speaks Kiswahili', async () => {
    server();
    crash.on = true;
    setLocale('sw');
    await openAdmin();
    expect(await screen.findByText('Ukurasa huu haukuweza kupakiwa.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Jaribu tena' })).toBeTruthy();
  });
});
