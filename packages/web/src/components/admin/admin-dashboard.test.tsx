import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { contract } from '@kura/contract';
import { callsTo, stub, stubRoutes, type RouteReply, type RouteStub } from '@/test/fetch';
import { anElection } from '@/test/elections';
import { aMotion, aPosition } from '@/test/positions';
import { AdminDashboard } from './admin-dashboard';

afterEach(() => vi.unstubAllGlobals());

/** The dashboard's server: POST toggle flips the status, or answers `refusal` when given; the `extra` stubs answer before the rest. */
function server(refusal?: RouteReply<typeof contract.api.elections.toggleElection>, ...extra: RouteStub[]) {
  let active: '0' | '1' = '0';
  return stubRoutes(
    stub(contract.api.elections.getElectionStatus, () => ({ status: 200, body: { active } })),
    stub(contract.api.elections.toggleElection, (c) => {
      if (refusal) return refusal;
      active = (c.body as { status: boolean }).status ? '1' : '0';
      return { status: 200, body: { active, message: active === '1' ? 'Voting has been enabled' : 'Voting has been disabled' } };
    }),
    ...extra,
    stub(contract.api.members.listPositions, { status: 200, body: { data: [] } }),
    stub(contract.api.elections.getResults, { status: 200, body: { data: { data: [] } } }),
    stub(contract.api.elections.getStatistics, {
      status: 200,
      body: { data: { data: { votesCasted: 2, verifiedMembers: 1, unverifiedMembers: 0, membersVoted: 1, membersNotVoted: 0 } } },
    }),
  );
}

describe('admin dashboard (docs/screens.md "Staff pages")', () => {
  it("flips the election status and says 'Voting has been enabled' then 'Voting has been disabled'", async () => {
    const calls = server();
    await renderWithProviders(<AdminDashboard />, '/admin');
    const toggle = await screen.findByRole('switch', { name: 'Voting enabled' });
    await screen.findByText('Voting is disabled');
    fireEvent.click(toggle);
    expect(await screen.findByText('Voting has been enabled')).toBeTruthy();
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(toggle);
    expect(await screen.findByText('Voting has been disabled')).toBeTruthy();
    expect(callsTo(calls, contract.api.elections.toggleElection).map((c) => c.body)).toEqual([{ status: true }, { status: false }]);
    expect(screen.getByText('Votes cast (one per position)')).toBeTruthy();
    expect(screen.getByText('Member verified')).toBeTruthy();
  });

  it("says 'Failed to update election status' with the server message", async () => {
    server({ status: 403, body: { message: 'Only admins may do this' } });
    await renderWithProviders(<AdminDashboard />, '/admin');
    const toggle = await screen.findByRole('switch', { name: 'Voting enabled' });
    await screen.findByText('Voting is disabled');
    fireEvent.click(toggle);
    expect(await screen.findByText('Only admins may do this')).toBeTruthy();
    expect(screen.getByText('Failed to update election status')).toBeTruthy();
  });

  it('asks before enabling voting while a position has no candidate, and enables only on confirmation', async () => {
    const positions = [
      aPosition(1, 'Chair'),
      aPosition(2, 'Delegate', { level: 'Nairobi', seats: 2, branch_id: 1 }),
      // a motion takes no candidates: never named here
      aMotion(3, 'Budget'),
    ];
    const calls = server(
      undefined,
      stub(contract.api.members.listCandidatePositions, { status: 200, body: { data: { data: positions } } }),
      stub(contract.api.candidates.listCandidates, {
        status: 200,
        body: {
          data: {
            data: {
              candidates: [
                {
                  id: 9,
                  member_no: '9',
                  name: 'Ann',
                  phone: '',
                  email: '',
                  county: '',
                  image_url: null,
                  statement: null,
                  positions: [positions[0]!],
                },
              ],
            },
          },
        },
      }),
    );
    await renderWithProviders(<AdminDashboard />, '/admin');
    const toggle = await screen.findByRole('switch', { name: 'Voting enabled' });
    await screen.findByText('Voting is disabled');
    fireEvent.click(toggle);
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('No candidate stands for: Delegate - Nairobi.');
    expect(dialog.textContent).not.toContain('Budget');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(callsTo(calls, contract.api.elections.toggleElection).length > 0).toBe(false);
    expect(toggle.getAttribute('aria-checked')).toBe('false');

    fireEvent.click(toggle);
    fireEvent.click(await screen.findByRole('button', { name: 'Enable voting anyway' }));
    expect(await screen.findByText('Voting has been enabled')).toBeTruthy();
    expect(callsTo(calls, contract.api.elections.toggleElection).map((c) => c.body)).toEqual([{ status: true }]);
  }, 30_000);

  it('the schedule card follows the switch and the close without a reload (setup → open → paused → closed)', async () => {
    let opened = false;
    let closed = false;
    let active = false;
    // As the server answers: GET election has no roll size; GET elections/{id} has it.
    const election = () =>
      anElection(7, 'Annual election', {
        organisation: 'Umoja Savings Cooperative',
        time_zone: 'UTC',
        phase: closed ? 'closed' : active ? 'open' : opened ? 'paused' : 'setup',
        active: active ? '1' : '0',
        roll_frozen_at: opened ? '2027-01-01T09:00:00Z' : null,
      });
    const calls = stubRoutes(
      stub(contract.api.elections.getElectionStatus, () => ({ status: 200, body: { active: active ? '1' : '0' } })),
      stub(contract.api.elections.toggleElection, (c) => {
        active = (c.body as { status: boolean }).status;
        opened ||= active;
        return {
          status: 200,
          body: { active: active ? '1' : '0', message: active ? 'Voting has been enabled' : 'Voting has been disabled' },
        };
      }),
      stub(contract.api.elections.getElection, () => ({ status: 200, body: { data: election() } })),
      stub(contract.api.organisation.getElectionById, () => ({ status: 200, body: { data: { ...election(), roll_size: 30 } } }), { id: 7 }),
      stub(contract.api.lifecycle.closeElection, () => {
        closed = true;
        active = false;
        return { status: 200, body: { data: election() } };
      }),
      stub(contract.api.members.listCandidatePositions, { status: 200, body: { data: { data: [] } } }),
      stub(contract.api.candidates.listCandidates, { status: 200, body: { data: { data: { candidates: [] } } } }),
      stub(contract.api.members.listPositions, { status: 200, body: { data: [] } }),
      stub(contract.api.elections.getResults, { status: 200, body: { data: { data: [] } } }),
      stub(contract.api.elections.getStatistics, {
        status: 200,
        body: { data: { data: { votesCasted: 0, verifiedMembers: 0, unverifiedMembers: 0, membersVoted: 0, membersNotVoted: 0 } } },
      }),
    );
    await renderWithProviders(<AdminDashboard />, '/admin');
    const phase = await screen.findByTestId('election-phase');
    expect(phase.textContent).toBe('Set-up: voting has not been opened yet.');
    const toggle = await screen.findByRole('switch', { name: 'Voting enabled' });
    await waitFor(() => expect(toggle.hasAttribute('disabled')).toBe(false));
    // The first opening freezes the roll, so it asks first and says so; Cancel changes nothing.
    fireEvent.click(toggle);
    let ask = await screen.findByRole('alertdialog', { name: 'Open voting and freeze the roll?' });
    expect(ask.textContent).toContain('The roll is frozen for good: the 30 members on it now are the ones who may vote');
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(callsTo(calls, contract.api.elections.toggleElection).length > 0).toBe(false);
    fireEvent.click(toggle);
    ask = await screen.findByRole('alertdialog', { name: 'Open voting and freeze the roll?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Open voting' }));
    await waitFor(() => expect(screen.getByTestId('election-phase').textContent).toBe('Open: members can vote.'));
    fireEvent.click(toggle);
    await waitFor(() => expect(screen.getByTestId('election-phase').textContent).toBe('Paused: voting is switched off for now.'));
    fireEvent.click(screen.getByRole('button', { name: 'Close the election' }));
    const confirm = await screen.findByRole('alertdialog');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Close the election' }));
    await waitFor(() =>
      expect(screen.getByTestId('election-phase').textContent).toBe('Closed: the result is declared and nothing can change.'),
    );
    // Each change was followed by a fresh GET election (the first load, two toggles, the close).
    expect(callsTo(calls, contract.api.elections.getElection).length).toBeGreaterThanOrEqual(4);
  });
});
