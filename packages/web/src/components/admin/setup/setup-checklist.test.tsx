import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { contract, type Election } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
import { anElection } from '@/test/elections';
import { electionSearch } from '@/lib/election-search';
import { SetupChecklist } from './setup-checklist';

afterEach(() => vi.unstubAllGlobals());

const rollItem = () =>
  within(screen.getByRole('list', { name: 'Set-up checklist' }))
    .getByText('Roll')
    .closest('li')!;

/** The current election is 1; GET elections/{id} answers `byId` for each id. */
function server(byId: Record<number, Election>) {
  return stubRoutes(
    stub(contract.api.elections.getElection, (c) => ({
      status: 200,
      body: { data: byId[Number(c.search.get('election_id') ?? 1)]! },
    })),
    stub(contract.api.organisation.getElectionById, (c) => {
      const e = byId[Number(c.path.split('/').pop())];
      return e ? { status: 200, body: { data: e } } : { status: 404, body: { message: 'No such election' } };
    }),
    stub(contract.api.members.listBranches, { status: 200, body: { data: { data: [] } } }),
    stub(contract.api.members.listCandidatePositions, { status: 200, body: { data: { data: [] } } }),
    stub(contract.api.candidates.listCandidates, { status: 200, body: { data: { data: { candidates: [] } } } }),
    stub(contract.api.setup.listAgents, { status: 200, body: { data: [] } }),
    stub(contract.api.members.listMembers, { status: 200, body: { data: [], current_page: 1, last_page: 1, per_page: 1, total: 0 } }),
  );
}

describe('the set-up checklist shows the roll (GET elections/{id} roll_size)', () => {
  it("shows the current election's roll size, done, not yet frozen", async () => {
    const calls = server({ 1: anElection(1, 'Annual election 2026', { roll_size: 412 }) });
    await renderWithProviders(<SetupChecklist />, '/admin/setup', { validateSearch: electionSearch });
    await waitFor(() => expect(rollItem().textContent).toContain('412 members on the roll'));
    expect(rollItem().textContent).toContain('(done)');
    expect(rollItem().textContent).not.toContain('frozen');
    expect(callsTo(calls, contract.api.organisation.getElectionById).map((c) => c.path)).toEqual(['/elections/1']);
  });

  it('says the roll was frozen when voting opened, for the election ?election=2 names', async () => {
    const calls = server({
      1: anElection(1, 'Annual election 2026', { roll_size: 412 }),
      2: anElection(2, 'Nairobi by-election', { phase: 'open', roll_size: 1, roll_frozen_at: '2026-03-01T08:00:00.000Z' }),
    });
    await renderWithProviders(<SetupChecklist />, '/admin/setup?election=2', { validateSearch: electionSearch });
    await waitFor(() => expect(rollItem().textContent).toContain('1 member on the roll, frozen when voting opened'));
    expect(callsTo(calls, contract.api.organisation.getElectionById).map((c) => c.path)).toEqual(['/elections/2']);
  });

  it('an empty roll is still to do, and says how to fill it', async () => {
    server({ 1: anElection(1, 'Annual election 2026', { roll_size: 0 }) });
    await renderWithProviders(<SetupChecklist />, '/admin/setup', { validateSearch: electionSearch });
    await waitFor(() => expect(rollItem().textContent).toContain('Nobody is on the roll yet'));
    expect(rollItem().textContent).toContain('(to do)');
  });
});
