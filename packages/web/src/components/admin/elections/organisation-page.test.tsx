import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
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
  member_no_pattern: null,
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
      member_no_pattern: '',
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

describe('the Organisation page read anew while the admin edits (another admin saved)', () => {
  /** The organisation as the server holds it, changed by the test as another admin would. */
  type Organisation = Omit<typeof organisation, 'support_email'> & { support_email: string | null };
  async function page() {
    const held: { current: Organisation } = { current: organisation };
    const calls = stubRoutes(
      stub(contract.api.organisation.getOrganisation, () => ({ status: 200, body: { data: held.current } })),
      stub(contract.api.organisation.listElections, { status: 200, body: { data: [anElection(2, 'Nairobi by-election')] } }),
      stub(contract.api.organisation.updateOrganisation, (c) => {
        const body = c.body as Organisation;
        held.current = { ...held.current, ...body, support_email: body.support_email?.toLowerCase() ?? null };
        return { status: 200, body: { data: held.current } };
      }),
    );
    const { queryClient } = await renderWithProviders(<OrganisationPage />, '/admin/organisation');
    const name = (await screen.findByLabelText('Organisation name')) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Umoja Sacco'));
    const website = screen.getByLabelText('Website') as HTMLInputElement;
    /** Another admin saves a change and the page reads the organisation again. */
    const elsewhere = async (change: Partial<Organisation>) => {
      held.current = { ...held.current, ...change };
      await act(() => queryClient.invalidateQueries());
    };
    return { calls, name, website, elsewhere };
  }

  it('keeps what the admin typed and says the organisation changed', async () => {
    const { name, website, elsewhere } = await page();
    fireEvent.change(name, { target: { value: 'Umoja Savings Cooperative' } });
    await elsewhere({ website: 'https://umoja.coop' });
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/changed elsewhere while you were editing/));
    expect(name.value).toBe('Umoja Savings Cooperative');
    expect(website.value).toBe('https://umoja.example');
  });

  it('follows the new texts while nothing is typed', async () => {
    const { website, elsewhere } = await page();
    await elsewhere({ website: 'https://umoja.coop' });
    await waitFor(() => expect(website.value).toBe('https://umoja.coop'));
    expect(screen.queryByText(/changed elsewhere/)).toBeNull();
  });

  it('is clean with what was saved after a save, so the next change elsewhere shows', async () => {
    const { calls, website, elsewhere } = await page();
    const email = screen.getByLabelText('Support email') as HTMLInputElement;
    fireEvent.change(email, { target: { value: 'Help@Umoja.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save organisation' }));
    expect(await screen.findByText('The organisation has been saved')).toBeTruthy();
    expect(callsTo(calls, contract.api.organisation.updateOrganisation)).toHaveLength(1);
    // what the server stored (it keeps e-mails in lower case)
    await waitFor(() => expect(email.value).toBe('help@umoja.example'));

    await elsewhere({ website: 'https://umoja.coop' });
    await waitFor(() => expect(website.value).toBe('https://umoja.coop'));
    expect(email.value).toBe('help@umoja.example');
    expect(screen.queryByText(/changed elsewhere/)).toBeNull();
  });
});
