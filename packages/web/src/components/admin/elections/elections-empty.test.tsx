import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { contract, type Election } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { stub, stubRoutes } from '@/test/fetch';
import { anElection } from '@/test/elections';
import { Landing } from '@/components/public/landing-page';
import { AdminDashboard } from '@/components/admin/admin-dashboard';
import { ElectionsPage } from './elections-page';

afterEach(() => vi.unstubAllGlobals());

const organisation = {
  name: 'Umoja',
  website: null,
  support_email: null,
  time_zone: 'Africa/Nairobi',
  current_election_id: null,
  member_no_pattern: null,
  default_language: 'en',
};

function server(list: Election[], adminExists = true) {
  return stubRoutes(
    stub(contract.api.organisation.listElections, { status: 200, body: { data: list } }),
    stub(contract.api.organisation.getOrganisation, { status: 200, body: { data: organisation } }),
    stub(contract.api.staff.getStaffStatus, { status: 200, body: { data: { admin_exists: adminExists } } }),
  );
}

describe('no election, or only the untouched untitled one', () => {
  it('the Elections page says there is none and how to make one (no crash without a current election)', async () => {
    server([]);
    await renderWithProviders(<ElectionsPage />, '/admin/elections');
    expect((await screen.findByText('There is no election yet. Create one with New election.')).getAttribute('role')).toBe('status');
    expect(screen.getByRole('button', { name: 'New election' })).toBeTruthy();
  });

  it('explains the untitled election a new install starts with, and not once it was given a title', async () => {
    server([anElection(1, '')]);
    const first = await renderWithProviders(<ElectionsPage />, '/admin/elections');
    expect((await screen.findByRole('note')).textContent).toContain('was made when Kura was installed');
    first.unmount?.();
    vi.unstubAllGlobals();
    document.body.innerHTML = '';
    server([anElection(1, 'AGM 2027')]);
    await renderWithProviders(<ElectionsPage />, '/admin/elections');
    expect(await screen.findByText('AGM 2027')).toBeTruthy();
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('the public landing says no election is set up, and how to make the first admin while there is none', async () => {
    server([], false);
    await renderWithProviders(<Landing />, '/');
    expect(await screen.findByText(/No election has been set up yet/)).toBeTruthy();
    expect((await screen.findByRole('note')).textContent).toContain('pnpm cli admin:create');
  });

  it("a new install's landing (its untitled election in set-up) says how to make the first admin too", async () => {
    const untitled = anElection(1, '');
    stubRoutes(
      stub(contract.api.organisation.listElections, { status: 200, body: { data: [untitled] } }),
      stub(contract.api.organisation.getOrganisation, { status: 200, body: { data: organisation } }),
      stub(contract.api.elections.getElection, { status: 200, body: { data: untitled } }),
      stub(contract.api.staff.getStaffStatus, { status: 200, body: { data: { admin_exists: false } } }),
    );
    await renderWithProviders(<Landing />, '/');
    expect((await screen.findByTestId('landing-not-open')).textContent).toContain('No election is open now');
    expect((await screen.findByRole('note', { name: 'No admin yet' })).textContent).toContain('pnpm cli admin:create');
  });

  it('the admin dashboard is empty and points to Elections', async () => {
    server([]);
    await renderWithProviders(<AdminDashboard />, '/admin');
    expect(await screen.findByText(/There is no election yet. Create one on the Elections page/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Elections' }).getAttribute('href')).toBe('/admin/elections');
  });
});
