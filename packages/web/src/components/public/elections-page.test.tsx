import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { contract, type Election } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { anElection } from '@/test/elections';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
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

/** GET elections answering `list`, and GET election (the current one) answering `current`. */
const listed = (list: Election[], current?: Election) => [
  stub(contract.api.organisation.listElections, { status: 200, body: { data: list } }),
  ...(current ? [stub(contract.api.elections.getElection, { status: 200, body: { data: current } })] : []),
];

describe('the public list of elections (/elections)', () => {
  it("lists the open and closed elections (not set-up, not archived) with their phase and links to each one's pages", async () => {
    stubRoutes(...listed(LIST, LIST[1]));
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
    stubRoutes(
      ...listed(LIST, LIST[1]),
      stub(
        contract.api.register.getRoll,
        {
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
        },
        { id: 3 },
      ),
      stub(contract.api.register.getRoll, { status: 200, body: { data: { frozen_at: null, size: 0, hash: null, by_branch: [] } } }),
    );
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
    stubRoutes(...listed([LIST[0]!]));
    await renderWithProviders(<ElectionsPage />, '/elections');
    expect(await screen.findByText('No election is open now. Closed elections are listed here until they are archived.')).toBeTruthy();
  });
});

describe('the declaration and the commitments take the election in the URL', () => {
  it('asks for the final results of ?election=N and names that election, an archived one too', async () => {
    const calls = stubRoutes(
      stub(
        contract.api.organisation.getElectionById,
        { status: 200, body: { data: election(1, 'Elections 2026', { phase: 'closed', archived: true }) } },
        { id: 1 },
      ),
      ...listed(LIST.slice(1, 3)),
      stub(contract.api.lifecycle.getFinalResults, { status: 403, body: { message: 'Forbidden' } }),
    );
    await renderWithProviders(<ResultsPage />, '/results?election=1', { validateSearch: electionSearch });
    expect(await screen.findByText('The result is declared here when the election closes.')).toBeTruthy();
    expect((await screen.findByTestId('declaration-election')).textContent).toContain('Elections 2026');
    expect(screen.getByTestId('declaration-election').textContent).toContain('Archived');
    expect(callsTo(calls, contract.api.lifecycle.getFinalResults)[0]?.search.get('election_id')).toBe('1');
    // the switcher: the public's other elections
    expect(await screen.findByRole('combobox', { name: 'Election' })).toBeTruthy();
  });

  it("without ?election the declaration is the current election's (no election_id sent)", async () => {
    const calls = stubRoutes(stub(contract.api.lifecycle.getFinalResults, { status: 403, body: { message: 'Forbidden' } }));
    await renderWithProviders(<ResultsPage />, '/results', { validateSearch: electionSearch });
    await screen.findByText('The result is declared here when the election closes.');
    expect(callsTo(calls, contract.api.lifecycle.getFinalResults)[0]?.search.has('election_id')).toBe(false);
  });

  it('lists the commitments of ?election=N', async () => {
    const calls = stubRoutes(
      stub(contract.api.elections.listCommitments, ({ search }) => ({
        status: 200,
        body: { data: [{ at: '2026-11-23T10:00:00.000Z', count: search.get('election_id') === '3' ? 7 : 99, hash: 'cd'.repeat(32) }] },
      })),
    );
    await renderWithProviders(<Commitments />, '/commitments?election=3', { validateSearch: electionSearch });
    expect(await screen.findByText('cd'.repeat(32))).toBeTruthy();
    expect(screen.getByText('7')).toBeTruthy();
    expect(callsTo(calls, contract.api.elections.listCommitments)[0]?.search.get('election_id')).toBe('3');
  });

  it("the live results (/) of ?election=N ask for that election's results and positions", async () => {
    const calls = stubRoutes(
      stub(contract.api.elections.getResults, { status: 200, body: { data: { data: [] } } }),
      stub(contract.api.members.listPositions, { status: 200, body: { data: [] } }),
    );
    await renderWithProviders(<Landing />, '/?election=3', { validateSearch: electionSearch });
    await screen.findByRole('heading', { name: 'Current election statistics' });
    await waitFor(() => expect(callsTo(calls, contract.api.elections.getResults)[0]?.search.get('election_id')).toBe('3'));
    expect(callsTo(calls, contract.api.members.listPositions)[0]?.search.get('election_id')).toBe('3');
  });
});

describe('after the AGM is archived and copied for next year (issue 37)', () => {
  const archived = election(1, 'AGM 2026', { phase: 'closed', active: '0', archived: true, closed_at: '2026-06-01T12:00:00.000Z' });
  const copy = election(5, 'AGM 2027', { phase: 'setup', active: '0' });
  const after = () => stubRoutes(...listed([copy, archived], copy));

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
    await waitFor(() => expect(callsTo(calls, contract.api.elections.getElection).length > 0).toBe(true));
  });
});
