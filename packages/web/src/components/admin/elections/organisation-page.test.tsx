import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { contract } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
import { anElection } from '@/test/elections';
import { OrganisationPage } from './organisation-page';

afterEach(() => vi.unstubAllGlobals());

const organisation = {
  name: 'Umoja Sacco',
  website: 'https://umoja.example',
  support_email: null,
  time_zone: 'Africa/Nairobi',
  current_election_id: null,
  default_language: 'en',
};

function server(put: (body: Record<string, unknown>) => { status: number; body: unknown } | undefined = () => undefined) {
  return stubRoutes(
    stub(contract.api.organisation.getOrganisation, { status: 200, body: { data: organisation } }),
    stub(contract.api.organisation.listElections, {
      status: 200,
      body: {
        data: [
          anElection(2, 'Nairobi by-election', { phase: 'open' }),
          anElection(1, 'Annual election 2025', { phase: 'closed', archived: true }),
        ],
      },
    }),
    stub(
      contract.api.organisation.updateOrganisation,
      (c) =>
        (put(c.body as Record<string, unknown>) ?? {
          status: 200,
          body: { data: { ...organisation, ...(c.body as object) } },
        }) as never,
    ),
  );
}

describe('Organisation page (docs/api.md "Many elections")', () => {
  it('edits the texts and time zone and makes a non-archived election the current one', async () => {
    const calls = server();
    await renderWithProviders(<OrganisationPage />, '/admin/organisation');
    const name = await screen.findByLabelText('Organisation name');
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('Umoja Sacco'));
    expect((screen.getByLabelText("The organisation's time zone") as HTMLInputElement).value).toBe('Africa/Nairobi');
    const current = screen.getByRole('combobox', { name: 'Current election' });
    expect(current.textContent).toContain('Automatic');

    current.focus();
    fireEvent.keyDown(current, { key: 'Enter' });
    const options = await screen.findAllByRole('option');
    // The archived election may not be the current one.
    expect(options.map((o) => o.textContent)).toEqual(['Automatic: the only open election, else the newest', 'Nairobi by-election (Open)']);
    fireEvent.click(options[1]!);
    fireEvent.change(screen.getByLabelText('Support email'), { target: { value: 'Help@Umoja.example' } });
    fireEvent.change(screen.getByLabelText("The organisation's time zone"), { target: { value: 'Europe/London' } });
    // docs/api.md "Languages": the language of members who chose none
    expect((screen.getByLabelText('Default language') as HTMLSelectElement).value).toBe('en');
    fireEvent.change(screen.getByLabelText('Default language'), { target: { value: 'sw' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save organisation' }));
    expect(await screen.findByText('The organisation has been saved')).toBeTruthy();
    expect(callsTo(calls, contract.api.organisation.updateOrganisation)[0]!.body).toEqual({
      name: 'Umoja Sacco',
      website: 'https://umoja.example',
      support_email: 'help@umoja.example',
      time_zone: 'Europe/London',
      current_election_id: 2,
      default_language: 'sw',
    });
  });

  it("checks the fields before sending and shows the server's 422 under its field", async () => {
    const calls = server(() => ({
      status: 422,
      body: {
        message: 'The given data was invalid',
        errors: { current_election_id: ['The current election must be an election that is not archived'] },
      },
    }));
    await renderWithProviders(<OrganisationPage />, '/admin/organisation');
    const zone = await screen.findByLabelText("The organisation's time zone");
    await waitFor(() => expect((zone as HTMLInputElement).value).toBe('Africa/Nairobi'));
    fireEvent.change(zone, { target: { value: '+03:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save organisation' }));
    expect(await screen.findByText(/must be an IANA time zone name/)).toBeTruthy();
    expect(callsTo(calls, contract.api.organisation.updateOrganisation)).toHaveLength(0);

    fireEvent.change(zone, { target: { value: 'Africa/Nairobi' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save organisation' }));
    expect(await screen.findByText('The current election must be an election that is not archived')).toBeTruthy();
    expect(screen.getByText('The organisation could not be saved')).toBeTruthy();
  });
});
