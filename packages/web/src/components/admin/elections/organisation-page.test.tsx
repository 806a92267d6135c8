import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
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

describe('the member attributes on the Organisation page (docs/api.md "The register")', () => {
  const shares = { key: 'shares', label: 'Shares (KSh)', type: 'number' as const };
  const joined = { key: 'date_joined', label: 'Joined', type: 'date' as const };

  /** The organisation with two attributes; PUT answers what it was sent, or `refuse` when given. */
  function withAttributes(refuse?: { status: 409 | 422; body: { message: string; errors?: Record<string, string[]> } }) {
    let held = [shares, joined];
    return stubRoutes(
      stub(contract.api.organisation.getOrganisation, { status: 200, body: { data: organisation } }),
      stub(contract.api.organisation.listElections, { status: 200, body: { data: [] } }),
      stub(contract.api.register.getAttributes, () => ({ status: 200, body: { data: held } })),
      stub(contract.api.register.putAttributes, (c) => {
        if (refuse) return refuse;
        held = (c.body as { data: typeof held }).data;
        return { status: 200, body: { data: held } };
      }),
    );
  }
  const list = async () => screen.findByRole('list', { name: 'Member attributes' });
  const puts = (calls: ReturnType<typeof withAttributes>) =>
    callsTo(calls, contract.api.register.putAttributes).map((c) => (c.body as { data: unknown }).data);

  it('lists the attributes with their key and type, and adds one: the whole list is sent', async () => {
    const calls = withAttributes();
    await renderWithProviders(<OrganisationPage />, '/admin/organisation');
    const items = await list();
    await waitFor(() => expect(within(items).getAllByRole('listitem')).toHaveLength(2));
    expect(within(items).getAllByRole('listitem')[0]!.textContent).toContain('Shares (KSh) (shares · Number)');
    expect(within(items).getAllByRole('listitem')[1]!.textContent).toContain('Joined (date_joined · Date)');

    fireEvent.change(screen.getByLabelText('Key'), { target: { value: 'paid' } });
    fireEvent.change(screen.getByLabelText('Label'), { target: { value: 'Subscription paid' } });
    fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'boolean' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add attribute' }));
    expect(await screen.findByText('Attribute added: Subscription paid')).toBeTruthy();
    expect(puts(calls)).toEqual([[shares, joined, { key: 'paid', label: 'Subscription paid', type: 'boolean' }]]);
    await waitFor(() => expect(within(items).getAllByRole('listitem')[2]!.textContent).toContain('(paid · Yes or no)'));
  });

  it("checks the key before sending: the contract's pattern, a built-in column, a key taken", async () => {
    const calls = withAttributes();
    await renderWithProviders(<OrganisationPage />, '/admin/organisation');
    await waitFor(async () => expect(within(await list()).getAllByRole('listitem')).toHaveLength(2));
    fireEvent.change(screen.getByLabelText('Label'), { target: { value: 'Shares' } });
    for (const [key, message] of [
      ['Shares', /must start with a small letter/],
      ['branch', 'The key is a column of the register already'],
      ['shares', 'An attribute has this key already'],
    ] as const) {
      fireEvent.change(screen.getByLabelText('Key'), { target: { value: key } });
      fireEvent.click(screen.getByRole('button', { name: 'Add attribute' }));
      expect(await screen.findByText(message)).toBeTruthy();
    }
    expect(puts(calls)).toHaveLength(0);
  });

  it('edits the label and type of one and removes another', async () => {
    const calls = withAttributes();
    await renderWithProviders(<OrganisationPage />, '/admin/organisation');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Shares (KSh)' }));
    const label = screen.getByLabelText('Label of shares') as HTMLInputElement;
    expect(label.value).toBe('Shares (KSh)');
    expect((screen.getByLabelText('Type of shares') as HTMLSelectElement).value).toBe('number');
    fireEvent.change(label, { target: { value: 'Share capital (KSh)' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Attribute saved: Share capital (KSh)')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Joined' }));
    expect(await screen.findByText('Attribute removed: Joined')).toBeTruthy();
    expect(puts(calls)).toEqual([[{ ...shares, label: 'Share capital (KSh)' }, joined], [{ ...shares, label: 'Share capital (KSh)' }]]);
  });

  it("shows the server's refusal to remove a key a rule uses", async () => {
    const refusal = 'The attribute date_joined is used by a rule of the electorate of election 2 (AGM 2026)';
    withAttributes({ status: 409, body: { message: refusal } });
    await renderWithProviders(<OrganisationPage />, '/admin/organisation');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Joined' }));
    await waitFor(() => expect(screen.getAllByRole('alert').some((a) => a.textContent === refusal)).toBe(true));
    expect(screen.getByText('The attributes could not be saved')).toBeTruthy();
    expect(within(await list()).getAllByRole('listitem')).toHaveLength(2);
  });
});
