import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { stubFetch } from '@/test/fetch';
import { navigation } from '@/lib/api';
import { storeSession } from '@/lib/session';
import { VvpatPage } from './vvpat-page';

afterEach(() => vi.unstubAllGlobals());

describe('admin vvpat page (docs/screens.md "Staff pages")', () => {
  it('lists receipts with the spec columns and the pager', async () => {
    stubFetch((c) => {
      if (c.path === '/psk/admin/vvpat')
        return {
          status: 200,
          body: {
            data: { votes: [{ vvpat: 'VP-7K3Q-M9XD', name: 'Jane Doe', count: 1, position: 'Chairperson National' }] },
            meta: { current_page: 1, last_page: 2, per_page: 10, total: 11 },
          },
        };
      if (c.path === '/psk/positions') return { status: 200, body: { data: [] } };
      return undefined;
    });
    await renderWithProviders(<VvpatPage />, '/admin/vpat');
    expect(await screen.findByText('VP-7K3Q-M9XD')).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      '#',
      'Receipt code',
      'Candidate Selected',
      'Vote Count',
      'Position',
    ]);
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
  });

  it("says 'Unauthorized' / 'Your session has expired' on a 401", async () => {
    vi.spyOn(navigation, 'assign').mockImplementation(() => {});
    storeSession({ bearer_token: 't', hash: 'h', name: 'A', photo: null, balance: 0 }, 'admin');
    stubFetch((c) => (c.path === '/psk/admin/vvpat' ? { status: 401, body: { message: 'Unauthenticated' } } : undefined));
    await renderWithProviders(<VvpatPage />, '/admin/vpat');
    expect(await screen.findByText('Unauthorized')).toBeTruthy();
    expect(screen.getAllByText('Your session has expired').length).toBeGreaterThanOrEqual(1);
    expect(navigation.assign).toHaveBeenCalledWith('/admin/login');
  });

  it("says 'Error' with the generic text on other failures", async () => {
    stubFetch((c) => (c.path === '/psk/admin/vvpat' ? { status: 500, body: { message: 'Server error' } } : undefined));
    await renderWithProviders(<VvpatPage />, '/admin/vpat');
    expect(await screen.findByText('Error')).toBeTruthy();
    expect(screen.getAllByText('An error occurred while fetching the data. Please try again later.').length).toBeGreaterThanOrEqual(1);
  });

  it('shows the reason, not an error, while results visibility holds the audit trail back until close', async () => {
    const reason = 'Results are published when voting closes';
    stubFetch((c) => {
      if (c.path === '/psk/admin/vvpat') return { status: 403, body: { message: reason } };
      if (c.path === '/psk/positions') return { status: 200, body: { data: [] } };
      return undefined;
    });
    await renderWithProviders(<VvpatPage />, '/admin/vpat');
    expect(await screen.findByText(reason)).toBeTruthy();
    expect(screen.queryByText('Error')).toBeNull();
    expect(screen.queryByText('An error occurred while fetching the data. Please try again later.')).toBeNull();
  });

  it('shows a dash for a count the server withholds (null)', async () => {
    stubFetch((c) => {
      if (c.path === '/psk/admin/vvpat')
        return {
          status: 200,
          body: {
            data: { votes: [{ vvpat: 'VP-7K3Q-M9XD', name: 'Jane Doe', count: null, position: 'Chairperson National' }] },
            meta: { current_page: 1, last_page: 1, per_page: 10, total: 1 },
          },
        };
      if (c.path === '/psk/positions') return { status: 200, body: { data: [] } };
      return undefined;
    });
    await renderWithProviders(<VvpatPage />, '/admin/vpat');
    const cell = await screen.findByText('VP-7K3Q-M9XD');
    const cells = [...cell.closest('tr')!.querySelectorAll('td')].map((td) => td.textContent);
    expect(cells[3]).toBe('–');
  });
});
