import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { Election } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { anElection } from '@/test/elections';
import { stubFetch } from '@/test/fetch';
import { electionSearch } from '@/lib/election-search';
import { ResultsPage } from '@/components/results/results-page';
import { Commitments } from './commitments-page';
import { Landing } from './landing-page';
import { ElectionsPage } from './elections-page';

const election = (id: number, title: string, over: Partial<Election> = {}): Election =>
  anElection(id, title, { phase: 'open', active: '1', ...over });

const LIST = [
  election(4, 'AGM 2028', { phase: 'setup', active: '0' }),
  election(3, 'By-election 2027', { opens_at: '2027-03-01T05:00:00.000Z', closes_at: '2027-03-02T14:00:00.000Z' }),
  election(2, 'Elections 2027', { phase: 'paused', active: '0' }),
  election(1, 'Elections 2026', { phase: 'closed', active: '0' }),
];

afterEach(() => vi.unstubAllGlobals());

describe('the public list of elections (/elections)', () => {
  it("lists the open and closed elections (not set-up, not archived) with their phase and links to each one's pages", async () => {
    stubFetch(({ path }) => {
      if (path === '/elections') return { status: 200, body: { data: LIST } };
      if (path === '/election') return { status: 200, body: { data: LIST[1] } };
      return undefined;
    });
    await renderWithProviders(<ElectionsPage />, '/elections');
    expect(await screen.findByRole('heading', { level: 1, name: 'Elections' })).toBeTruthy();
    const by = await screen.findByTestId('election-3');
    expect(within(by).getByRole('heading', { name: 'By-election 2027' })).toBeTruthy();
    expect(within(by).getByText(/Status: Open/)).toBeTruthy();
    expect(within(by).getByText(/current election/)).toBeTruthy();
    expect(within(by).getByText(/^Voting from /)).toBeTruthy();
    expect(within(by).getByRole('link', { name: 'Live results of By-election 2027' }).getAttribute('href')).toBe('/?election=3');
    expect(within(by).getByRole('link', { name: 'Commitments of By-election 2027' }).getAttribute('href')).toBe('/commitments?election=3');

    const paused = screen.getByTestId('election-2');
    expect(within(paused).getByText(/Status: Paused/)).toBeTruthy();

    const closed = screen.getByTestId('election-1');
    expect(within(closed).getByText(/Status: Closed/)).toBeTruthy();
    expect(within(closed).getByRole('link', { name: 'Declaration of results of Elections 2026' }).getAttribute('href')).toBe(
      '/results?election=1',
    );
    expect(within(closed).queryByRole('link', { name: /Live results/ })).toBeNull();

    expect(screen.queryByTestId('election-4')).toBeNull();
    expect(screen.queryByText('AGM 2028')).toBeNull();
  });

  it('shows each listed election\'s roll: its size, when it froze, its hash and its size by branch (docs/api.md "The register")', async () => {
    const hash = 'ab'.repeat(32);
    stubFetch(({ path }) => {
      if (path === '/elections') return { status: 200, body: { data: LIST } };
      if (path === '/election') return { status: 200, body: { data: LIST[1] } };
      if (path === '/elections/3/roll')
        return {
          status: 200,
          body: {
            data: {
              frozen_at: '2027-03-01T05:00:00.000Z',
              size: 1234,
              hash,
              by_branch: [
                { branch: 'Harbour', size: 1000 },
                { branch: 'Hillside', size: 234 },
              ],
            },
          },
        };
      if (path.endsWith('/roll')) return { status: 200, body: { data: { frozen_at: null, size: 0, hash: null, by_branch: [] } } };
      return undefined;
    });
    await renderWithProviders(<ElectionsPage />, '/elections');
    const by = await screen.findByTestId('election-3');
    const roll = within(by).getByRole('region', { name: 'The roll of By-election 2027' });
    expect(await within(roll).findByText(/^1234 members on the roll\. Frozen on /)).toBeTruthy();
    expect(within(roll).getByTestId('roll-hash').textContent).toBe(hash);
    expect(within(roll).getByText('The roll by branch (2 branches)')).toBeTruthy();
    expect(within(roll).getByRole('cell', { name: 'Hillside' })).toBeTruthy();
    expect(within(roll).getByRole('cell', { name: '234' })).toBeTruthy();
    const paused = within(screen.getByTestId('election-2')).getByRole('region', { name: 'The roll of Elections 2027' });
    expect(await within(paused).findByText(/^0 members on the roll\. Not frozen yet/)).toBeTruthy();
    expect(within(paused).queryByTestId('roll-hash')).toBeNull();
  });

  it('says so when none is open or closed', async () => {
    stubFetch(({ path }) => (path === '/elections' ? { status: 200, body: { data: [LIST[0]] } } : undefined));
    await renderWithProviders(<ElectionsPage />, '/elections');
    expect(await screen.findByText('No election is open now. Closed elections are listed here until they are archived.')).toBeTruthy();
  });
});

describe('the declaration and the commitments take the election in the URL', () => {
  it('asks for the final results of ?election=N and names that election, an archived one too', async () => {
    const calls = stubFetch(({ path }) => {
      if (path === '/elections/1')
        return { status: 200, body: { data: election(1, 'Elections 2026', { phase: 'closed', archived: true }) } };
      if (path === '/elections') return { status: 200, body: { data: LIST.slice(1, 3) } };
      if (path === '/psk/results/final') return { status: 403, body: { message: 'Forbidden' } };
      return undefined;
    });
    await renderWithProviders(<ResultsPage />, '/results?election=1', { validateSearch: electionSearch });
    expect(await screen.findByText('The result is declared here when the election closes.')).toBeTruthy();
    expect((await screen.findByTestId('declaration-election')).textContent).toContain('Elections 2026');
    expect(screen.getByTestId('declaration-election').textContent).toContain('Archived');
    expect(calls.find((c) => c.path === '/psk/results/final')?.search.get('election_id')).toBe('1');
    // the switcher: the public's other elections
    expect(await screen.findByRole('combobox', { name: 'Election' })).toBeTruthy();
  });

  it("without ?election the declaration is the current election's (no election_id sent)", async () => {
    const calls = stubFetch(({ path }) => (path === '/psk/results/final' ? { status: 403, body: { message: 'Forbidden' } } : undefined));
    await renderWithProviders(<ResultsPage />, '/results', { validateSearch: electionSearch });
    await screen.findByText('The result is declared here when the election closes.');
    expect(calls.find((c) => c.path === '/psk/results/final')?.search.has('election_id')).toBe(false);
  });

  it('lists the commitments of ?election=N', async () => {
    const calls = stubFetch(({ path, search }) =>
      path === '/psk/commitments'
        ? {
            status: 200,
            body: { data: [{ at: '2026-11-23T10:00:00.000Z', count: search.get('election_id') === '3' ? 7 : 99, hash: 'cd'.repeat(32) }] },
          }
        : undefined,
    );
    await renderWithProviders(<Commitments />, '/commitments?election=3', { validateSearch: electionSearch });
    expect(await screen.findByText('cd'.repeat(32))).toBeTruthy();
    expect(screen.getByText('7')).toBeTruthy();
    expect(calls.find((c) => c.path === '/psk/commitments')?.search.get('election_id')).toBe('3');
  });

  it("the live results (/) of ?election=N ask for that election's results and positions", async () => {
    const calls = stubFetch(({ path }) => {
      if (path === '/psk/results') return { status: 200, body: { data: { data: [] } } };
      if (path === '/psk/positions') return { status: 200, body: { data: [] } };
      return undefined;
    });
    await renderWithProviders(<Landing />, '/?election=3', { validateSearch: electionSearch });
    await screen.findByRole('heading', { name: 'Current election statistics' });
    await waitFor(() => expect(calls.find((c) => c.path === '/psk/results')?.search.get('election_id')).toBe('3'));
    expect(calls.find((c) => c.path === '/psk/positions')?.search.get('election_id')).toBe('3');
  });
});

describe('after the AGM is archived and copied for next year (issue 37)', () => {
  const archived = election(1, 'AGM 2026', { phase: 'closed', active: '0', archived: true, closed_at: '2026-06-01T12:00:00.000Z' });
  const copy = election(5, 'AGM 2027', { phase: 'setup', active: '0' });
  const after = () =>
    stubFetch(({ path }) => {
      if (path === '/elections') return { status: 200, body: { data: [copy, archived] } };
      if (path === '/election') return { status: 200, body: { data: copy } };
      return undefined;
    });

  it('the elections page says none is open now and lists the archived one with its declaration', async () => {
    after();
    await renderWithProviders(<ElectionsPage />, '/elections');
    expect(await screen.findByText('No election is open now. The past elections are listed below.')).toBeTruthy();
    expect(screen.queryByText('No election is open now. Closed elections are listed here until they are archived.')).toBeNull();
    const past = screen.getByTestId('past-election-1');
    expect(within(past).getByRole('link', { name: 'Declaration of results of AGM 2026' }).getAttribute('href')).toBe('/results?election=1');
    expect(screen.queryByText('AGM 2027')).toBeNull();
  });

  it('the landing does not show the set-up copy as the current election: it says none is open and links the past ones', async () => {
    const calls = after();
    await renderWithProviders(<Landing />, '/');
    expect((await screen.findByTestId('landing-not-open')).textContent).toContain('No election is open now');
    expect(screen.getByRole('link', { name: 'See the elections and past results' }).getAttribute('href')).toBe('/elections');
    expect(screen.queryByText(/No votes at the moment/)).toBeNull();
    await waitFor(() => expect(calls.some((c) => c.path === '/election')).toBe(true));
  });
});
