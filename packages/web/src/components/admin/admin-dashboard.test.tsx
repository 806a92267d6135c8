import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { stubFetch } from '@/test/fetch';
import { AdminDashboard } from './admin-dashboard';

vi.mock('@/lib/realtime', () => ({ useRealtime: () => {} }));

afterEach(() => vi.unstubAllGlobals());

function server(
  toggle: { status: number; body?: unknown },
  extra: (path: string) => { status: number; body?: unknown } | undefined = () => undefined,
) {
  let active: '0' | '1' = '0';
  return stubFetch((c) => {
    if (c.path === '/psk/election/status') return { status: 200, body: { active } };
    if (c.path === '/toggle') {
      if (toggle.status === 200) active = (c.body as { status: boolean }).status ? '1' : '0';
      return toggle.status === 200
        ? { status: 200, body: { active, message: active === '1' ? 'Voting has been enabled' : 'Voting has been disabled' } }
        : toggle;
    }
    const more = extra(c.path);
    if (more) return more;
    if (c.path === '/psk/positions') return { status: 200, body: { data: [] } };
    if (c.path === '/psk/results') return { status: 200, body: { data: { data: [] } } };
    if (c.path === '/statistics')
      return {
        status: 200,
        body: { data: { data: { votesCasted: 2, verifiedMembers: 1, unverifiedMembers: 0, membersVoted: 1, membersNotVoted: 0 } } },
      };
    return undefined;
  });
}

describe('admin dashboard (docs/screens.md "Staff pages")', () => {
  it("flips the election status and says 'Voting has been enabled' then 'Voting has been disabled'", async () => {
    const calls = server({ status: 200 });
    await renderWithProviders(<AdminDashboard />, '/admin');
    const toggle = await screen.findByRole('switch', { name: 'Voting enabled' });
    await screen.findByText('Voting is disabled');
    fireEvent.click(toggle);
    expect(await screen.findByText('Voting has been enabled')).toBeTruthy();
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(toggle);
    expect(await screen.findByText('Voting has been disabled')).toBeTruthy();
    expect(calls.filter((c) => c.path === '/toggle').map((c) => c.body)).toEqual([{ status: true }, { status: false }]);
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
      { id: 1, name: 'Chair', level: 'National', seats: 1, description: null, branch_id: null },
      { id: 2, name: 'Delegate', level: 'Nairobi', seats: 2, description: null, branch_id: 1 },
      // a motion takes no candidates: never named here
      { id: 3, name: 'Budget', level: 'National', seats: 1, description: null, branch_id: null, kind: 'motion' },
    ];
    const calls = server({ status: 200 }, (path) => {
      if (path === '/psk/candidate/positions') return { status: 200, body: { data: { data: positions } } };
      if (path === '/psk/candidates')
        return {
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
                    positions: [positions[0]],
                  },
                ],
              },
            },
          },
        };
      return undefined;
    });
    await renderWithProviders(<AdminDashboard />, '/admin');
    const toggle = await screen.findByRole('switch', { name: 'Voting enabled' });
    await screen.findByText('Voting is disabled');
    fireEvent.click(toggle);
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('No candidate stands for: Delegate - Nairobi.');
    expect(dialog.textContent).not.toContain('Budget');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls.some((c) => c.path === '/toggle')).toBe(false);
    expect(toggle.getAttribute('aria-checked')).toBe('false');

    fireEvent.click(toggle);
    fireEvent.click(await screen.findByRole('button', { name: 'Enable voting anyway' }));
    expect(await screen.findByText('Voting has been enabled')).toBeTruthy();
    expect(calls.filter((c) => c.path === '/toggle').map((c) => c.body)).toEqual([{ status: true }]);
  }, 30_000);

  it('the schedule card follows the switch and the close without a reload (setup → open → paused → closed)', async () => {
    let opened = false;
    let closed = false;
    let active = false;
    // As the server answers: GET election has no roll size; GET elections/{id} has it.
    const election = () => ({
      id: 7,
      title: 'Annual election',
      organisation: 'Umoja Savings Cooperative',
      website: null,
      support_email: null,
      opens_at: null,
      closes_at: null,
      time_zone: 'UTC',
      results_visibility: 'live',
      phase: closed ? 'closed' : active ? 'open' : opened ? 'paused' : 'setup',
      active: active ? '1' : '0',
      roll_frozen_at: opened ? '2027-01-01T09:00:00Z' : null,
    });
    const calls = stubFetch((c) => {
      if (c.path === '/psk/election/status') return { status: 200, body: { active: active ? '1' : '0' } };
      if (c.path === '/toggle') {
        active = (c.body as { status: boolean }).status;
        opened ||= active;
        return {
          status: 200,
          body: { active: active ? '1' : '0', message: active ? 'Voting has been enabled' : 'Voting has been disabled' },
        };
      }
      if (c.path === '/election') return { status: 200, body: { data: election() } };
      if (c.path === '/elections/7') return { status: 200, body: { data: { ...election(), roll_size: 30 } } };
      if (c.path === '/election/close') {
        closed = true;
        active = false;
        return { status: 200, body: { data: election() } };
      }
      if (c.path === '/psk/candidate/positions') return { status: 200, body: { data: { data: [] } } };
      if (c.path === '/psk/candidates') return { status: 200, body: { data: { data: { candidates: [] } } } };
      if (c.path === '/psk/positions') return { status: 200, body: { data: [] } };
      if (c.path === '/psk/results') return { status: 200, body: { data: { data: [] } } };
      if (c.path === '/statistics')
        return {
          status: 200,
          body: { data: { data: { votesCasted: 0, verifiedMembers: 0, unverifiedMembers: 0, membersVoted: 0, membersNotVoted: 0 } } },
        };
      return undefined;
    });
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
    expect(calls.some((c) => c.path === '/toggle')).toBe(false);
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
    expect(calls.filter((c) => c.path === '/election' && c.method === 'GET').length).toBeGreaterThanOrEqual(4);
  });
});
