import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { contract } from '@kura/contract';
import { callsTo, paginator, stub, stubRoutes } from '@/test/fetch';
import { anOrganisation } from '@/test/organisation';
import { LogsPage } from './logs-page';

const entry = (id: number, user_id: number | null, user_type: 'voter' | 'admin' | 'agent' | null = user_id === null ? null : 'voter') => ({
  id,
  name: `Person ${id}`,
  activity: 'Signed in',
  user_id,
  user_type,
  created_at: '2026-11-22T08:00:00.000Z',
  updated_at: '2026-11-22T08:00:00.000Z',
  ip_address: '10.0.0.1',
  status: 'success',
});

afterEach(() => vi.unstubAllGlobals());

describe('logs page (docs/screens.md "Staff pages", "Messages and timings")', () => {
  it('shows Reset only while a filter is active, and Search sends the filters from page 1', async () => {
    const calls = stubRoutes(
      stub(contract.api.logs.listLogs, ({ search }) => {
        const page = Number(search.get('page') ?? 1);
        return { status: 200, body: { data: paginator([entry(page, null)], page, 3) } };
      }),
      stub(contract.api.logs.searchLogs, { status: 200, body: { data: paginator([entry(99, 7)], 1, 1) } }),
    );
    await renderWithProviders(<LogsPage />, '/admin/logs');
    expect(await screen.findByText('Person 1')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reset' })).toBeNull();

    // A typed filter is active: Reset appears; clearing the field hides it again.
    const name = screen.getByLabelText('Name');
    fireEvent.change(name, { target: { value: 'Jane' } });
    expect(screen.getByRole('button', { name: 'Reset' })).toBeTruthy();
    fireEvent.change(name, { target: { value: '' } });
    expect(screen.queryByRole('button', { name: 'Reset' })).toBeNull();

    // Move to page 2, then search: filter mode on, page 1, Reset stays while filtering.
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Person 2')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Activity'), { target: { value: 'Signed in' } });
    fireEvent.change(screen.getByLabelText('Ip address'), { target: { value: '10.0.0.1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Person 99')).toBeTruthy();
    const searchCall = callsTo(calls, contract.api.logs.searchLogs)[0]!;
    expect(searchCall.search.get('page')).toBe('1');
    expect(searchCall.search.get('activity')).toBe('Signed in');
    expect(searchCall.search.get('ip_address')).toBe('10.0.0.1');
    expect(searchCall.search.has('name')).toBe(false);
    expect(screen.getByText('Page 1 of 1')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reset' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('Person 1')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reset' })).toBeNull();
    expect((screen.getByLabelText('Activity') as HTMLInputElement).value).toBe('');
  });

  it("shows times on the organisation's clock, whatever the browser's zone", async () => {
    stubRoutes(
      stub(contract.api.logs.listLogs, { status: 200, body: { data: paginator([entry(1, null)], 1, 1) } }),
      stub(contract.api.organisation.getOrganisation, {
        status: 200,
        body: { data: anOrganisation({ name: 'Umoja Savings Cooperative', time_zone: 'Africa/Nairobi', current_election_id: 1 }) },
      }),
    );
    await renderWithProviders(<LogsPage />, '/admin/logs');
    await screen.findByText('Person 1');
    // 08:00 UTC is 11:00 in Nairobi (UTC+3), with the zone named.
    await waitFor(() => expect(screen.getAllByRole('row')[1]!.textContent).toMatch(/11:00.*(EAT|GMT\+3)/));
  });

  it('has the spec columns and shows N/A for an empty user id', async () => {
    stubRoutes(stub(contract.api.logs.listLogs, { status: 200, body: { data: paginator([entry(1, null), entry(2, 42)], 1, 1) } }));
    await renderWithProviders(<LogsPage />, '/admin/logs');
    await screen.findByText('Person 1');
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['ID', 'Name', 'Activity', 'User ID', 'Created At', 'Updated At', 'IP Address', 'Status']);
    const rows = screen.getAllByRole('row');
    expect(rows[1]!.textContent).toContain('N/A');
    expect(rows[2]!.textContent).toContain('42');
    expect(rows[2]!.textContent).not.toContain('N/A');
  });

  it('tells members and staff with the same user id apart: a User type filter, and the type beside the id', async () => {
    const calls = stubRoutes(
      stub(contract.api.logs.listLogs, { status: 200, body: { data: paginator([entry(1, 1, 'admin'), entry(2, 1, 'voter')], 1, 1) } }),
      stub(contract.api.logs.searchLogs, ({ search }) => ({
        status: 200,
        body: { data: paginator([entry(3, Number(search.get('user_id')), 'voter')], 1, 1) },
      })),
    );
    await renderWithProviders(<LogsPage />, '/admin/logs');
    await screen.findByText('Person 1');
    const rows = screen.getAllByRole('row');
    expect(rows[1]!.textContent).toContain('1 (admin)');
    expect(rows[2]!.textContent).toContain('1 (member)');

    fireEvent.change(screen.getByLabelText('User id'), { target: { value: '1' } });
    const type = screen.getByRole('combobox', { name: 'User type' });
    type.focus();
    fireEvent.keyDown(type, { key: 'Enter' });
    fireEvent.click(await screen.findByRole('option', { name: 'Members (voters)' }));
    expect(type.textContent).toContain('Members (voters)');
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Person 3')).toBeTruthy();
    const searchCall = callsTo(calls, contract.api.logs.searchLogs)[0]!;
    expect(searchCall.search.get('user_id')).toBe('1');
    expect(searchCall.search.get('user_type')).toBe('voter');
  });

  it("says 'Failed to fetch logs. Please try again later.' when the list fails", async () => {
    const failure = { status: 500, body: { message: 'Server error' } } as const;
    stubRoutes(stub(contract.api.logs.listLogs, failure), stub(contract.api.organisation.getOrganisation, failure));
    await renderWithProviders(<LogsPage />, '/admin/logs');
    await waitFor(() => expect(screen.getAllByText('Failed to fetch logs. Please try again later.').length).toBeGreaterThanOrEqual(1));
  });
});
