import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { stubFetch } from '@/components/staff/staff-test-utils';
import { AdminDashboard } from './admin-dashboard';

vi.mock('@/lib/realtime', () => ({ useRealtime: () => {} }));

afterEach(() => vi.unstubAllGlobals());

function server(toggle: { status: number; body?: unknown }) {
  let active: '0' | '1' = '0';
  return stubFetch((c) => {
    if (c.path === '/psk/election/status') return { status: 200, body: { active } };
    if (c.path === '/toggle') {
      if (toggle.status === 200) active = (c.body as { status: boolean }).status ? '1' : '0';
      return toggle.status === 200 ? { status: 200, body: { active, message: active === '1' ? 'Voting has been enabled' : 'Voting has been disabled' } } : toggle;
    }
    if (c.path === '/psk/positions') return { status: 200, body: { data: [] } };
    if (c.path === '/psk/results') return { status: 200, body: { data: { data: [] } } };
    if (c.path === '/statistics') return { status: 200, body: { data: { data: { votesCasted: 2, verifiedMembers: 1, unverifiedMembers: 0, membersVoted: 1, membersNotVoted: 0 } } } };
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
    expect(screen.getByText('Votes Casted')).toBeTruthy();
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
});
