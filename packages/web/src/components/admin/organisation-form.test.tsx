import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { contract } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { stub, stubRoutes } from '@/test/fetch';
import { anElection } from '@/test/elections';
import { controlLabels } from '@/test/controls';
import { OrganisationSection } from './setup/organisation-section';
import { OrganisationPage } from './elections/organisation-page';

afterEach(() => vi.unstubAllGlobals());

const organisation = {
  name: 'Umoja Sacco',
  website: 'https://umoja.example',
  support_email: null,
  time_zone: 'Africa/Nairobi',
  current_election_id: null,
  default_language: 'en',
  member_no_pattern: null,
};
const server = () =>
  stubRoutes(
    stub(contract.api.elections.getElection, {
      status: 200,
      body: { data: anElection(2, 'Annual election 2026', { organisation: 'Umoja Sacco', website: 'https://umoja.example' }) },
    }),
    stub(contract.api.organisation.getOrganisation, { status: 200, body: { data: organisation } }),
    stub(contract.api.organisation.listElections, { status: 200, body: { data: [anElection(2, 'Annual election 2026')] } }),
  );

/** The organisation's texts, as both places show them. */
const TEXTS = ['Organisation name', 'Website', 'Support email'];

describe('the organisation form (OrganisationForm), in both places', () => {
  it("Set-up's Organisation section: the election's title, then the texts", async () => {
    server();
    await renderWithProviders(<OrganisationSection />, '/admin/setup');
    const section = screen.getByRole('region', { name: 'Organisation' });
    await waitFor(() => expect((screen.getByLabelText('Election title') as HTMLInputElement).value).toBe('Annual election 2026'));
    expect((screen.getByLabelText('Organisation name') as HTMLInputElement).value).toBe('Umoja Sacco');
    expect(controlLabels(section)).toEqual(['Election title', ...TEXTS]);
    expect(screen.getByRole('button', { name: 'Save organisation texts' })).toBeTruthy();
  });

  it('the Organisation page: the texts, then the time zone, the current election and the default language', async () => {
    server();
    await renderWithProviders(<OrganisationPage />, '/admin/organisation');
    const section = await screen.findByRole('region', { name: 'The organisation' });
    await waitFor(() => expect((screen.getByLabelText('Organisation name') as HTMLInputElement).value).toBe('Umoja Sacco'));
    expect(controlLabels(section)).toEqual([
      ...TEXTS,
      "The organisation's time zone",
      'Current election',
      'Default language',
      'Member-number format (optional)',
    ]);
    expect(screen.getByRole('button', { name: 'Save organisation' })).toBeTruthy();
  });

  it('sets the member-number format, and refuses one that would stall sign-in before sending it', async () => {
    const calls = stubRoutes(
      stub(contract.api.organisation.getOrganisation, { status: 200, body: { data: organisation } }),
      stub(contract.api.organisation.listElections, { status: 200, body: { data: [anElection(2, 'Annual election 2026')] } }),
      stub(contract.api.organisation.updateOrganisation, { status: 200, body: { data: organisation } }),
    );
    await renderWithProviders(<OrganisationPage />, '/admin/organisation');
    const field = (await screen.findByLabelText('Member-number format (optional)')) as HTMLInputElement;
    await waitFor(() => expect((screen.getByLabelText('Organisation name') as HTMLInputElement).value).toBe('Umoja Sacco'));
    expect(screen.getByText(/UFC-\\d\{3\} for UFC-001/)).toBeTruthy();
    fireEvent.change(field, { target: { value: '(a+)+' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save organisation' }));
    expect(await screen.findByText(/may not repeat a group that itself repeats/)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
    fireEvent.change(field, { target: { value: 'UFC-\\d{3}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save organisation' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT').length).toBe(1));
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({ member_no_pattern: 'UFC-\\d{3}' });
  });
});
