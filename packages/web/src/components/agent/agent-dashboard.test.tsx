import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { contract } from '@kura/contract';
import { stub, stubRoutes } from '@/test/fetch';
import { aPosition } from '@/test/positions';
import { AgentDashboard } from './agent-dashboard';

const president = (count: number, total = count) => ({
  position_id: 2,
  title: 'President National',
  key: 'President_National',
  total,
  values: [{ candidate_id: 7, title: 'Ada Lovelace', name: 'Ada Lovelace', member_no: '1007', count }],
});
const stats = (votesCasted: number) => ({
  votesCasted,
  verifiedMembers: 3,
  unverifiedMembers: 1,
  membersVoted: votesCasted,
  membersNotVoted: 4 - votesCasted,
});

afterEach(() => vi.unstubAllGlobals());

describe('agent dashboard (docs/screens.md "Staff pages")', () => {
  it("defaults to President_National, says 'No votes at the moment', and follows the live channels", async () => {
    stubRoutes(
      stub(contract.api.members.listPositions, { status: 200, body: { data: [aPosition(1, 'Chairperson'), aPosition(2, 'President')] } }),
      stub(contract.api.elections.getAgentResults, { status: 200, body: { data: { data: [president(0, 0)] } } }),
      stub(contract.api.elections.getAgentStatistics, { status: 200, body: { data: stats(0) } }),
    );
    const { realtime } = await renderWithProviders(<AgentDashboard />, '/agent');
    expect(await screen.findByText('No votes at the moment')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Position' }).textContent).toContain('President National');
    expect(await screen.findByText('General Election Statistics')).toBeTruthy();
    const votes = await screen.findByTestId('tile-votesCasted');
    await within(votes).findByText('Votes cast (one per position)');
    expect(within(votes).getByText('0')).toBeTruthy();

    // the live channels, as the server sends them (test/fake-realtime.ts)
    await realtime.sendTally(1, [president(1)]);
    await realtime.send('statistics', { election_id: 1, statistics: stats(1) });
    expect(await screen.findByText('100.00% 1 vote')).toBeTruthy();
    expect(within(screen.getByTestId('tile-votesCasted')).getByText('Vote cast (one per position)')).toBeTruthy();
    expect(within(screen.getByTestId('tile-membersNotVoted')).getByText('3')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Ada Lovelace share' }).getAttribute('aria-valuenow')).toBe('100');
  });
});
