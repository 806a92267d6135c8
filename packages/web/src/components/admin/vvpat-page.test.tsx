import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { contract, type VvpatRow } from '@kura/contract';
import { stub, stubRoutes } from '@/test/fetch';
import { navigation } from '@/lib/api';
import { storeSession } from '@/lib/session';
import { VvpatPage } from './vvpat-page';

afterEach(() => vi.unstubAllGlobals());

/** Jane Doe's receipt for Chairperson National in the AGM, with the count `count`. */
const receipt = (count: number | null): VvpatRow => ({
  vvpat: 'VP-7K3Q-M9XD',
  name: 'Jane Doe',
  count,
  position: 'Chairperson National',
  kind: 'candidates',
  election_id: 1,
  election: 'AGM 2026',
});
const noPositions = stub(contract.api.members.listPositions, { status: 200, body: { data: [] } });

describe('admin vvpat page (docs/screens.md "Staff pages")', () => {
  it('lists receipts with the spec columns and the pager', async () => {
    stubRoutes(
      stub(contract.api.vvpat.listVvpat, {
        status: 200,
        body: { data: { votes: [receipt(1)] }, meta: { current_page: 1, last_page: 2, per_page: 10, total: 11 } },
      }),
      noPositions,
    );
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
    stubRoutes(stub(contract.api.vvpat.listVvpat, { status: 401, body: { message: 'Unauthenticated' } }));
    await renderWithProviders(<VvpatPage />, '/admin/vpat');
    expect(await screen.findByText('Unauthorized')).toBeTruthy();
    expect(screen.getAllByText('Your session has expired').length).toBeGreaterThanOrEqual(1);
    expect(navigation.assign).toHaveBeenCalledWith('/admin/login');
  });

  it("says 'Error' with the generic text on other failures", async () => {
    stubRoutes(stub(contract.api.vvpat.listVvpat, { status: 500, body: { message: 'Server error' } }));
    await renderWithProviders(<VvpatPage />, '/admin/vpat');
    expect(await screen.findByText('Error')).toBeTruthy();
    expect(screen.getAllByText('An error occurred while fetching the data. Please try again later.').length).toBeGreaterThanOrEqual(1);
  });

  it('shows the reason, not an error, while results visibility holds the audit trail back until close', async () => {
    const reason = 'Results are published when voting closes';
    stubRoutes(stub(contract.api.vvpat.listVvpat, { status: 403, body: { message: reason } }), noPositions);
    await renderWithProviders(<VvpatPage />, '/admin/vpat');
    expect(await screen.findByText(reason)).toBeTruthy();
    expect(screen.queryByText('Error')).toBeNull();
    expect(screen.queryByText('An error occurred while fetching the data. Please try again later.')).toBeNull();
  });

  it('shows a dash for a count the server withholds (null)', async () => {
    stubRoutes(
      stub(contract.api.vvpat.listVvpat, {
        status: 200,
        body: { data: { votes: [receipt(null)] }, meta: { current_page: 1, last_page: 1, per_page: 10, total: 1 } },
      }),
      noPositions,
    );
    await renderWithProviders(<VvpatPage />, '/admin/vpat');
    const cell = await screen.findByText('VP-7K3Q-M9XD');
    const cells = [...cell.closest('tr')!.querySelectorAll('td')].map((td) => td.textContent);
    expect(cells[3]).toBe('–');
  });
});
