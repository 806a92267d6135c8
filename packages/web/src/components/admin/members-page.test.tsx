import { Profiler, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { callsTo, paginator, stub, stubRoutes, type RouteStub } from '@/test/fetch';
import { aPosition } from '@/test/positions';
import { membersSearch } from '@/lib/list-search';
import { CONTACT_CHANGE_AFTER_VOTE, contract, type Member } from '@kura/contract';
import { MembersPage } from './members-page';

const member = (id: number, extra: Partial<Member> = {}): Member => ({
  id,
  member_no: String(1000 + id),
  name: `Member ${id}`,
  email: `m${id}@example.org`,
  phone: '0712345678',
  county: 'Nairobi',
  psk_position_ids: [],
  language: null,
  ...extra,
});

const positions = [aPosition(1, 'Chairperson'), aPosition(2, 'Treasurer', { level: 'Nairobi', branch_id: 1 })];

/** The members page's server; a test's own stubs, `first`, answer before these. */
function server(...first: RouteStub[]) {
  return stubRoutes(
    ...first,
    stub(contract.api.members.listMembers, (c) => {
      const page = Number(c.search.get('page') ?? 1);
      return { status: 200, body: paginator([member(page, { psk_position_ids: page === 1 ? [2] : [] })], page, 4) };
    }),
    stub(contract.api.members.searchMembers, { status: 200, body: paginator([member(50)], 1, 1) }),
    stub(contract.api.members.listBranches, {
      status: 200,
      body: {
        data: {
          data: [
            { id: 1, name: 'Nairobi' },
            { id: 2, name: 'Mombasa' },
          ],
        },
      },
    }),
    stub(contract.api.members.listCandidatePositions, { status: 200, body: { data: { data: positions } } }),
  );
}

afterEach(() => vi.unstubAllGlobals());

/**
 * What the rows and the pager show at every commit. Profiler's onRender runs once the DOM holds
 * the commit, so a commit in which new rows sit under a stale 'Page X of Y' is caught however
 * soon a follow-up render would have mended it.
 */
function recordCommits(ui: ReactNode) {
  const commits: { rows: string[]; pager: string | null | undefined }[] = [];
  const onRender = () =>
    commits.push({
      rows: [...document.querySelectorAll('tbody tr')].map((r) => r.children[2]?.textContent ?? ''),
      pager: document.querySelector('nav[aria-label="Members pages"] [aria-live]')?.textContent,
    });
  return {
    ui: (
      <Profiler id="members" onRender={onRender}>
        {ui}
      </Profiler>
    ),
    commits,
  };
}

describe('members page (docs/screens.md "Staff pages")', () => {
  it('lists members with the spec columns and keeps the pager between 1 and the last page', async () => {
    const calls = server();
    await renderWithProviders(<MembersPage />, '/admin/members');
    expect(await screen.findByText('Member 1')).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      '#',
      'Member No',
      'Name',
      'Email',
      'Phone',
      'Branch',
      'Language',
      'Edit',
      'Assign',
      'Remove',
    ]);
    expect(screen.getByText('Page 1 of 4')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Last' }));
    expect(await screen.findByText('Member 4')).toBeTruthy();
    expect(screen.getByText('Page 4 of 4')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    // numbering continues across pages (10 per page)
    expect(screen.getAllByRole('row')[1]!.textContent?.startsWith('31')).toBe(true);
    expect(callsTo(calls, contract.api.members.listMembers).map((c) => c.search.get('page'))).toEqual(['1', '4']);
  });

  it('never shows rows under a pager that has not caught up with their page count', async () => {
    server();
    const { ui, commits } = recordCommits(<MembersPage />);
    await renderWithProviders(ui, '/admin/members');
    await screen.findByText('Member 1');
    fireEvent.click(screen.getByRole('button', { name: 'Last' }));
    await screen.findByText('Member 4');
    const withRows = commits.filter((c) => c.rows.length > 0);
    expect(withRows.length).toBeGreaterThan(0);
    expect(withRows.filter((c) => !c.pager?.endsWith(' of 4'))).toEqual([]);
  });

  it('searches by the four fields from page 1 and Reset returns to the full list', async () => {
    const calls = server();
    await renderWithProviders(<MembersPage />, '/admin/members');
    await screen.findByText('Member 1');
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'Jane' } });
    fireEvent.change(screen.getByLabelText('Branch'), { target: { value: 'Nairobi' } });
    fireEvent.change(screen.getByLabelText('Phone'), { target: { value: '0712' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'j@x.org' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Member 50')).toBeTruthy();
    const s = callsTo(calls, contract.api.members.searchMembers)[0]!.search;
    expect(Object.fromEntries(s)).toEqual({ query: 'Jane', county: 'Nairobi', phone: '0712', email: 'j@x.org', page: '1' });
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('Member 1')).toBeTruthy();
    expect((screen.getByLabelText('Search') as HTMLInputElement).value).toBe('');
  });

  it("edits a member and says 'Member updated successfully'", async () => {
    const calls = server(
      stub(contract.api.members.updateMember, { status: 200, body: { data: member(1, { name: 'Renamed' }) } }, { id: 1 }),
    );
    await renderWithProviders(<MembersPage />, '/admin/members');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Member 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit member' });
    expect((within(dialog).getByLabelText('Member no') as HTMLInputElement).value).toBe('1001');
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Renamed' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Member updated successfully')).toBeTruthy();
    expect(callsTo(calls, contract.api.members.updateMember, { id: 1 })[0]!.body).toEqual({
      name: 'Renamed',
      // The form sends the phone in E.164, whatever spelling it holds.
      phone: '+254712345678',
      email: 'm1@example.org',
      county: 'Nairobi',
      member_no: '1001',
      // no language of their own: the organisation's default, kept
      language: null,
    });
  });

  it('shows the member\'s attribute values and sends only those changed, an emptied one as null (docs/api.md "The register")', async () => {
    const stored = { shares: 20000, date_joined: '2024-03-01', paid: true, staff_no: null };
    const calls = server(
      stub(contract.api.register.getAttributes, {
        status: 200,
        body: {
          data: [
            { key: 'shares', label: 'Shares (KSh)', type: 'number' },
            { key: 'date_joined', label: 'Joined', type: 'date' },
            { key: 'paid', label: 'Subscription paid', type: 'boolean' },
            { key: 'staff_no', label: 'Staff number', type: 'text' },
          ],
        },
      }),
      stub(contract.api.members.listMembers, { status: 200, body: paginator([member(1, { attributes: stored })], 1, 1) }),
      stub(contract.api.members.updateMember, { status: 200, body: { data: member(1) } }, { id: 1 }),
    );
    await renderWithProviders(<MembersPage />, '/admin/members');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Member 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit member' });
    const shares = (await within(dialog).findByLabelText('Shares (KSh)')) as HTMLInputElement;
    expect(shares.value).toBe('20000');
    expect(shares.type).toBe('number');
    const joined = within(dialog).getByLabelText('Joined') as HTMLInputElement;
    expect([joined.type, joined.value]).toEqual(['date', '2024-03-01']);
    const paid = within(dialog).getByLabelText('Subscription paid') as HTMLSelectElement;
    expect(paid.value).toBe('true');
    expect((within(dialog).getByLabelText('Staff number') as HTMLInputElement).value).toBe('');

    fireEvent.change(shares, { target: { value: '25000' } });
    fireEvent.change(paid, { target: { value: '' } });
    fireEvent.change(within(dialog).getByLabelText('Staff number'), { target: { value: 'ST-9' } });
    // typed, then put back: not a change
    fireEvent.change(joined, { target: { value: '2024-03-02' } });
    fireEvent.change(joined, { target: { value: '2024-03-01' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Member updated successfully')).toBeTruthy();
    expect((callsTo(calls, contract.api.members.updateMember, { id: 1 })[0]!.body as { attributes: unknown }).attributes).toEqual({
      shares: 25000,
      paid: null,
      staff_no: 'ST-9',
    });
  });

  it('sends no attributes when none changed', async () => {
    const calls = server(
      stub(contract.api.register.getAttributes, {
        status: 200,
        body: { data: [{ key: 'shares', label: 'Shares (KSh)', type: 'number' }] },
      }),
      stub(contract.api.members.listMembers, { status: 200, body: paginator([member(1, { attributes: { shares: 5 } })], 1, 1) }),
      stub(contract.api.members.updateMember, { status: 200, body: { data: member(1) } }, { id: 1 }),
    );
    await renderWithProviders(<MembersPage />, '/admin/members');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Member 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit member' });
    expect(((await within(dialog).findByLabelText('Shares (KSh)')) as HTMLInputElement).value).toBe('5');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Member updated successfully')).toBeTruthy();
    expect(callsTo(calls, contract.api.members.updateMember, { id: 1 })[0]!.body).not.toHaveProperty('attributes');
  });

  it("shows each member's language and lets the admin set it (issue 37)", async () => {
    const calls = server(
      stub(contract.api.members.listMembers, {
        status: 200,
        body: paginator([member(1, { language: 'sw' }), member(2, { language: null })], 1, 1),
      }),
      stub(contract.api.members.updateMember, { status: 200, body: { data: member(2, { language: 'sw' }) } }, { id: 2 }),
    );
    await renderWithProviders(<MembersPage />, '/admin/members');
    const rows = await screen.findAllByRole('row');
    expect(within(rows[1]!).getByText('Kiswahili')).toBeTruthy();
    expect(within(rows[2]!).getByText('Default')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Edit Member 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit member' });
    const language = within(dialog).getByLabelText('Language') as HTMLSelectElement;
    expect(language.value).toBe('');
    fireEvent.change(language, { target: { value: 'sw' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Member updated successfully')).toBeTruthy();
    expect(callsTo(calls, contract.api.members.updateMember, { id: 2 })[0]!.body).toMatchObject({ language: 'sw' });
  });

  it("shows the field message and 'Error updating member' when the server refuses", async () => {
    server(
      stub(
        contract.api.members.updateMember,
        { status: 409, body: { message: 'The email is already taken', errors: { email: ['The email is already taken'] } } },
        { id: 1 },
      ),
    );
    await renderWithProviders(<MembersPage />, '/admin/members');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Member 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit member' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Error updating member')).toBeTruthy();
    expect(within(dialog).getByRole('alert').textContent).toBe('The email is already taken');
  });

  it('offers to confirm a contact change the server refused for a member who voted, and sends the confirmation', async () => {
    const calls = server(
      stub(
        contract.api.members.updateMember,
        (c) => {
          const body = c.body as Record<string, unknown>;
          if (body.confirm_contact_change === true) return { status: 200, body: { data: member(1, { phone: '0799999999' }) } };
          return { status: 409, body: { message: `This member ${CONTACT_CHANGE_AFTER_VOTE}`, issue: CONTACT_CHANGE_AFTER_VOTE } };
        },
        { id: 1 },
      ),
    );
    await renderWithProviders(<MembersPage />, '/admin/members');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Member 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit member' });
    fireEvent.change(within(dialog).getByLabelText('Phone'), { target: { value: '0799999999' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain(CONTACT_CHANGE_AFTER_VOTE);
    const edits = () => callsTo(calls, contract.api.members.updateMember, { id: 1 });
    expect(edits()).toHaveLength(1);
    expect(edits()[0]!.body).not.toHaveProperty('confirm_contact_change');
    fireEvent.click(within(alert).getByRole('button', { name: 'Confirm the contact change' }));
    expect(await screen.findByText('Member updated successfully')).toBeTruthy();
    expect(edits()).toHaveLength(2);
    expect(edits()[1]!.body).toMatchObject({ phone: '+254799999999', confirm_contact_change: true });
  });

  it("assigns positions from a 'name - level' checkbox list", async () => {
    const calls = server(stub(contract.api.members.assignPositions, { status: 200, body: { message: 'Position assigned successfully' } }));
    await renderWithProviders(<MembersPage />, '/admin/members');
    fireEvent.click(await screen.findByRole('button', { name: 'Assign position to Member 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign Position' });
    const chair = (await within(dialog).findByLabelText('Chairperson - National')) as HTMLButtonElement;
    const treasurer = within(dialog).getByLabelText('Treasurer - Nairobi');
    expect(treasurer.getAttribute('data-state')).toBe('checked');
    expect(chair.getAttribute('data-state')).toBe('unchecked');
    fireEvent.click(chair);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(await screen.findByText('Position assigned successfully')).toBeTruthy();
    expect(callsTo(calls, contract.api.members.assignPositions)[0]!.body).toEqual({ member_no: '1001', position_ids: [2, 1] });
  });

  it("says 'Error assigning position' / 'Please try again.' on failure, and 'Error fetching branches' when branches fail", async () => {
    server(
      stub(contract.api.members.assignPositions, { status: 500, body: { message: 'Server error' } }),
      stub(contract.api.members.listBranches, { status: 500, body: { message: 'Server error' } }),
    );
    await renderWithProviders(<MembersPage />, '/admin/members');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Member 1' }));
    expect(await screen.findByText('Error fetching branches')).toBeTruthy();
    expect(screen.getByText('Server error')).toBeTruthy();
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Edit member' })).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Assign position to Member 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign Position' });
    await within(dialog).findByLabelText('Chairperson - National');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(await screen.findByText('Error assigning position')).toBeTruthy();
    expect(screen.getByText('Please try again.')).toBeTruthy();
  });

  it('keeps the page and the search in the URL, so a reload (or a shared link) opens the same list', async () => {
    const calls = server(
      stub(contract.api.members.searchMembers, (c) => ({
        status: 200,
        body: paginator([member(60 + Number(c.search.get('page')))], Number(c.search.get('page')), 3),
      })),
    );
    const first = await renderWithProviders(<MembersPage />, '/admin/members', { validateSearch: membersSearch });
    await screen.findByText('Member 1');
    fireEvent.change(screen.getByLabelText('Branch'), { target: { value: ' Nairobi ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Member 61')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Member 62')).toBeTruthy();
    expect(first.router.state.location.search).toEqual({ county: 'Nairobi', filtered: true, page: 2 });
    const url = first.router.state.location.href;
    first.unmount();

    // A new page load at the same address: same search, same page, the form filled in.
    calls.length = 0;
    await renderWithProviders(<MembersPage />, url, { validateSearch: membersSearch });
    expect(await screen.findByText('Member 62')).toBeTruthy();
    expect(screen.getByText('Page 2 of 3')).toBeTruthy();
    expect((screen.getByLabelText('Branch') as HTMLInputElement).value).toBe('Nairobi');
    expect(callsTo(calls, contract.api.members.listMembers)).toEqual([]);
    expect(Object.fromEntries(callsTo(calls, contract.api.members.searchMembers)[0]!.search)).toEqual({ county: 'Nairobi', page: '2' });

    // Reset drops the search from the URL and goes back to the full list's first page.
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('Member 1')).toBeTruthy();
  });

  it('ignores malformed search params instead of failing the page', () => {
    expect(membersSearch({ page: 'x', filtered: 'yes', query: '  ', county: 42, other: 'dropped' })).toEqual({ county: '42' });
    expect(membersSearch({ page: 1 })).toEqual({});
    expect(membersSearch({ page: '3' })).toEqual({ page: 3 });
  });
});
