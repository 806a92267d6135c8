import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { contract } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import type { FakeRealtime } from '@/test/fake-realtime';
import { callsTo, stub, stubRoutes, type Call } from '@/test/fetch';
import { anElection } from '@/test/elections';
import { electionSearch, withElectionSearch } from '@/lib/election-search';
import { vvpatSearch } from '@/lib/list-search';
import { AgentDashboard } from '@/components/agent/agent-dashboard';
import { AdminDashboard } from './admin-dashboard';
import { SetupPage } from './setup-page';
import { VvpatPage } from './vvpat-page';

/** The elections of the rooms a page's live connections subscribed to (lib/realtime.ts): `results:2` is 2's, `results` the current one's. */
const liveElections = (realtime: FakeRealtime) => [...new Set(realtime.subscribed().map((room) => room.split(':')[1] ?? 'current'))];

afterEach(() => vi.unstubAllGlobals());

const annual = anElection(1, 'Annual election 2026', { phase: 'open', active: '1' });
const by = anElection(2, 'Nairobi by-election', { phase: 'paused' });
const stats = (votesCasted: number) => ({
  votesCasted,
  verifiedMembers: 3,
  unverifiedMembers: 1,
  membersVoted: votesCasted,
  membersNotVoted: 0,
});
const chair = (count: number) => ({
  position_id: 9,
  title: 'Chairperson National',
  key: 'Chairperson_National',
  total: count,
  values: [{ candidate_id: 7, title: 'Ada Lovelace', name: 'Ada Lovelace', member_no: '1007', count }],
});

/** Each election answers its own: election 2's calls carry ?election_id=2, the bare ones are election 1's. */
const of = (c: Call) => (c.search.get('election_id') === '2' ? by : annual);
function server() {
  return stubRoutes(
    stub(contract.api.organisation.listElections, { status: 200, body: { data: [by, annual] } }),
    stub(contract.api.elections.getElection, (c) => ({ status: 200, body: { data: of(c) } })),
    stub(contract.api.elections.getElectionStatus, (c) => ({ status: 200, body: { active: of(c).active } })),
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
    stub(contract.api.elections.getResults, (c) => ({ status: 200, body: { data: { data: [chair(of(c) === by ? 2 : 5)] } } })),
    stub(contract.api.elections.getAgentResults, (c) => ({ status: 200, body: { data: { data: [chair(of(c) === by ? 2 : 5)] } } })),
    stub(contract.api.elections.getStatistics, (c) => ({ status: 200, body: { data: { data: stats(of(c) === by ? 2 : 5) } } })),
    stub(contract.api.elections.getAgentStatistics, (c) => ({ status: 200, body: { data: stats(of(c) === by ? 2 : 5) } })),
    stub(contract.api.elections.toggleElection, { status: 200, body: { active: '1', message: 'Voting has been enabled' } }),
  );
}

const electionIds = (calls: Call[]) => [...new Set(calls.map((c) => c.search.get('election_id')))];

describe('the admin dashboard follows the chosen election', () => {
  it('reads, toggles and subscribes for ?election=2, and the live channel updates that election', async () => {
    const calls = server();
    const { realtime } = await renderWithProviders(<AdminDashboard />, '/admin?election=2', { validateSearch: electionSearch });
    expect(await screen.findByText('Paused: voting is switched off for now.')).toBeTruthy();
    await screen.findByText('Voting is disabled');
    expect(await screen.findByText('100.00% 2 votes')).toBeTruthy();
    for (const route of [
      contract.api.elections.getResults,
      contract.api.elections.getStatistics,
      contract.api.elections.getElectionStatus,
      contract.api.members.listPositions,
    ])
      expect(electionIds(callsTo(calls, route)), route.path).toEqual(['2']);
    expect(liveElections(realtime)).toEqual(['2']);

    await realtime.sendTally(2, [chair(3)]);
    await realtime.send('statistics', { election_id: 2, statistics: stats(3) });
    expect(await screen.findByText('100.00% 3 votes')).toBeTruthy();
    expect(within(screen.getByTestId('tile-votesCasted')).getByText('3')).toBeTruthy();

    fireEvent.click(screen.getByRole('switch', { name: 'Voting enabled' }));
    await waitFor(() => expect(callsTo(calls, contract.api.elections.toggleElection)).toHaveLength(1));
    expect(callsTo(calls, contract.api.elections.toggleElection)[0]!.search.get('election_id')).toBe('2');
  });

  it('without a param reads the current election with bare calls and the bare channels', async () => {
    const calls = server();
    const { realtime } = await renderWithProviders(<AdminDashboard />, '/admin', { validateSearch: electionSearch });
    expect(await screen.findByText('Open: members can vote.')).toBeTruthy();
    expect(await screen.findByText('100.00% 5 votes')).toBeTruthy();
    expect(electionIds(callsTo(calls, contract.api.elections.getResults))).toEqual([null]);
    expect(liveElections(realtime)).toEqual(['current']);
  });

  it('switching elections re-reads the page for the new one', async () => {
    const calls = server();
    const { router, realtime } = await renderWithProviders(<AdminDashboard />, '/admin', { validateSearch: electionSearch });
    expect(await screen.findByText('100.00% 5 votes')).toBeTruthy();
    const box = await screen.findByRole('combobox', { name: 'Election' });
    box.focus();
    fireEvent.keyDown(box, { key: 'Enter' });
    fireEvent.click(await screen.findByRole('option', { name: 'Nairobi by-election (Paused)' }));
    expect(await screen.findByText('100.00% 2 votes')).toBeTruthy();
    expect(router.state.location.search).toEqual({ election: 2 });
    expect(electionIds(callsTo(calls, contract.api.elections.getStatistics))).toEqual([null, '2']);
    // the connection of the election left behind is closed: only election 2's rooms remain
    expect(liveElections(realtime)).toEqual(['2']);
  });

  it("switching elections drops a schedule edit of the one left: it is not the new one's to save", async () => {
    server();
    await renderWithProviders(<AdminDashboard />, '/admin', { validateSearch: electionSearch });
    const closes = (await screen.findByLabelText('Voting closes')) as HTMLInputElement;
    fireEvent.change(closes, { target: { value: '2099-05-04T19:30:00' } });
    const box = await screen.findByRole('combobox', { name: 'Election' });
    box.focus();
    fireEvent.keyDown(box, { key: 'Enter' });
    fireEvent.click(await screen.findByRole('option', { name: 'Nairobi by-election (Paused)' }));
    expect(await screen.findByText('Paused: voting is switched off for now.')).toBeTruthy();
    expect((screen.getByLabelText('Voting closes') as HTMLInputElement).value).toBe('');
    expect(screen.queryByText(/changed elsewhere/)).toBeNull();
  });
});

describe('the agent dashboard follows the chosen election', () => {
  it('reads and subscribes for ?election=2', async () => {
    const calls = server();
    const { realtime } = await renderWithProviders(<AgentDashboard />, '/agent?election=2', { validateSearch: electionSearch });
    expect(await screen.findByRole('combobox', { name: 'Election' })).toBeTruthy();
    await waitFor(() => expect(callsTo(calls, contract.api.elections.getAgentStatistics)).toHaveLength(1));
    expect(electionIds(callsTo(calls, contract.api.elections.getAgentResults))).toEqual(['2']);
    expect(electionIds(callsTo(calls, contract.api.elections.getAgentStatistics))).toEqual(['2']);
    expect(liveElections(realtime)).toEqual(['2']);
    await realtime.send('statistics', { election_id: 2, statistics: stats(4) });
    await waitFor(() => expect(within(screen.getByTestId('tile-votesCasted')).getByText('4')).toBeTruthy());
  });
});

describe('the Set-up page of one election (/admin/setup?election=2)', () => {
  it('reads and edits that election: its texts, positions and candidates carry ?election_id=2', async () => {
    const calls = stubRoutes(
      stub(contract.api.organisation.listElections, { status: 200, body: { data: [by, annual] } }),
      stub(contract.api.elections.getElection, (c) => ({ status: 200, body: { data: of(c) } })),
      stub(contract.api.elections.updateElection, (c) => ({ status: 200, body: { data: { ...of(c), ...(c.body as object) } } })),
      stub(contract.api.members.listBranches, { status: 200, body: { data: { data: [] } } }),
      stub(contract.api.members.listCandidatePositions, { status: 200, body: { data: { data: [] } } }),
      stub(contract.api.candidates.listCandidates, { status: 200, body: { data: { data: { candidates: [] } } } }),
      stub(contract.api.setup.listAgents, { status: 200, body: { data: [] } }),
      stub(contract.api.members.listMembers, { status: 200, body: { data: [], current_page: 1, last_page: 1, per_page: 1, total: 0 } }),
    );
    await renderWithProviders(<SetupPage />, '/admin/setup?election=2', { validateSearch: electionSearch });
    const title = await screen.findByLabelText('Election title');
    await waitFor(() => expect((title as HTMLInputElement).value).toBe('Nairobi by-election'));
    expect((await screen.findByRole('combobox', { name: 'Election' })).textContent).toContain('Nairobi by-election');
    for (const route of [
      contract.api.elections.getElection,
      contract.api.members.listCandidatePositions,
      contract.api.candidates.listCandidates,
    ])
      await waitFor(() => expect(electionIds(callsTo(calls, route)), route.path).toContain('2'));

    fireEvent.change(title, { target: { value: 'Nairobi by-election 2026' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save organisation texts' }));
    await waitFor(() => expect(callsTo(calls, contract.api.elections.updateElection)).toHaveLength(1));
    const [put] = callsTo(calls, contract.api.elections.updateElection);
    expect(put!.search.get('election_id')).toBe('2');
    expect(put!.body).toMatchObject({ title: 'Nairobi by-election 2026' });
  });
});

describe('the VvPat page follows the chosen election', () => {
  const trail = (c: Call) => ({
    status: 200 as const,
    body: {
      data: {
        votes: [
          {
            vvpat: of(c) === by ? 'VP-BY00-0002' : 'VP-ANNU-0001',
            name: 'Ada Lovelace',
            count: 1,
            position: 'Chairperson National',
            kind: 'candidates' as const,
            election_id: of(c).id!,
            election: of(c).title,
          },
        ],
      },
      meta: { current_page: 1, last_page: 1, per_page: 10, total: 1 },
    },
  });
  function vvpatServer() {
    return stubRoutes(
      stub(contract.api.organisation.listElections, { status: 200, body: { data: [by, annual] } }),
      stub(contract.api.elections.getElection, (c) => ({ status: 200, body: { data: of(c) } })),
      stub(contract.api.members.listPositions, { status: 200, body: { data: [] } }),
      stub(contract.api.vvpat.listVvpat, trail),
      stub(contract.api.vvpat.searchVvpat, trail),
    );
  }

  it("searches ?election=2's trail with ?election_id=2, and another election's starts unfiltered", async () => {
    const calls = vvpatServer();
    const { router } = await renderWithProviders(<VvpatPage />, '/admin/vpat?election=2&filtered=true&position=9', {
      validateSearch: withElectionSearch(vvpatSearch),
    });
    expect(await screen.findByText('VP-BY00-0002')).toBeTruthy();
    const [search] = callsTo(calls, contract.api.vvpat.searchVvpat);
    expect(search!.search.get('election_id')).toBe('2');
    expect(search!.search.get('psk_position_id')).toBe('9');
    expect(electionIds(callsTo(calls, contract.api.members.listPositions))).toEqual(['2']);

    const box = await screen.findByRole('combobox', { name: 'Election' });
    box.focus();
    fireEvent.keyDown(box, { key: 'Enter' });
    fireEvent.click(await screen.findByRole('option', { name: /^Annual election 2026/ }));
    expect(await screen.findByText('VP-ANNU-0001')).toBeTruthy();
    expect(router.state.location.search).toEqual({ election: 1 });
    expect(electionIds(callsTo(calls, contract.api.vvpat.listVvpat))).toEqual(['1']);
  });

  it('without a param reads the current election with bare calls', async () => {
    const calls = vvpatServer();
    await renderWithProviders(<VvpatPage />, '/admin/vpat', { validateSearch: withElectionSearch(vvpatSearch) });
    expect(await screen.findByText('VP-ANNU-0001')).toBeTruthy();
    expect(electionIds(callsTo(calls, contract.api.vvpat.listVvpat))).toEqual([null]);
  });
});
