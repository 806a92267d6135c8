import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { contract, type Member } from '@kura/contract';
import { callsTo, paginator, stub, stubRoutes, type RouteStub } from '@/test/fetch';
import { MembersPage } from './members-page';

/** The Members page's register parts (docs/api.md "Running it on your own"): Add member, Remove member, the CSV template. */
const member: Member = {
  id: 1,
  member_no: 'UFC-001',
  name: 'Jane Wanjiru',
  email: '',
  phone: '+254712345678',
  county: 'Nairobi',
  psk_position_ids: [],
  language: null,
};

/** The members page's server; a test's own stubs, `first`, answer before these. */
function server(...first: RouteStub[]) {
  return stubRoutes(
    ...first,
    stub(contract.api.members.listMembers, { status: 200, body: paginator([member], 1, 1) }),
    stub(contract.api.members.listBranches, { status: 200, body: { data: { data: [{ id: 1, name: 'Nairobi' }] } } }),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('Members page: the register', () => {
  it('adds a member with a phone in any spelling and no e-mail (POST members with the E.164 phone)', async () => {
    const calls = server(stub(contract.api.members.createMember, { status: 201, body: { data: { ...member, id: 2 } } }));
    await renderWithProviders(<MembersPage />, '/admin/members');
    fireEvent.click(await screen.findByRole('button', { name: 'Add member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add member' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'John Otieno' } });
    fireEvent.change(within(dialog).getByLabelText('Member no'), { target: { value: 'UFC-002' } });
    fireEvent.change(within(dialog).getByLabelText('Phone'), { target: { value: '0712-345-005' } });
    const box = within(dialog).getByRole('combobox', { name: 'Branch' });
    fireEvent.keyDown(box, { key: 'Enter' });
    fireEvent.click(await screen.findByRole('option', { name: 'Nairobi' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add member' }));
    expect(await screen.findByText('Member added')).toBeTruthy();
    expect(callsTo(calls, contract.api.members.createMember)[0]!.body).toEqual({
      name: 'John Otieno',
      member_no: 'UFC-002',
      phone: '+254712345005',
      email: null,
      branch: 'Nairobi',
      language: null,
    });
  });

  it('refuses a phone that is no mobile number before sending', async () => {
    const calls = server();
    await renderWithProviders(<MembersPage />, '/admin/members');
    fireEvent.click(await screen.findByRole('button', { name: 'Add member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add member' });
    fireEvent.change(within(dialog).getByLabelText('Phone'), { target: { value: '0712' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add member' }));
    expect(await within(dialog).findByText('Enter a mobile number such as 0712 345 678 or +254 712 345 678')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('removes a member after confirmation, and shows the reason of a 409', async () => {
    const reason = 'This member has voted, so they stay on the register: their participation is part of the record';
    let refuse = true;
    const calls = server(
      stub(
        contract.api.members.deleteMember,
        () => (refuse ? { status: 409, body: { message: reason } } : { status: 204, body: undefined }),
        { id: 1 },
      ),
    );
    await renderWithProviders(<MembersPage />, '/admin/members');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Jane Wanjiru' }));
    let dialog = await screen.findByRole('dialog', { name: 'Remove member' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove member' }));
    expect(await within(dialog).findByRole('alert')).toHaveProperty('textContent', reason);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    refuse = false;
    fireEvent.click(screen.getByRole('button', { name: 'Remove Jane Wanjiru' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove member' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove member' }));
    expect(await screen.findByText('Member removed')).toBeTruthy();
    expect(callsTo(calls, contract.api.members.deleteMember, { id: 1 })).toHaveLength(2);
  });

  it('offers the CSV template and explains the formats on the import screen', async () => {
    const calls = server(stub(contract.api.members.getImportTemplate, { status: 200, body: 'member_no,name,email,phone,branch,language' }));
    URL.createObjectURL = vi.fn(() => 'blob:template');
    URL.revokeObjectURL = vi.fn();
    await renderWithProviders(<MembersPage />, '/admin/members');
    expect(await screen.findByText(/Phones: 0712 345 678/)).toBeTruthy();
    expect(screen.getByText(/E-mail: optional/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Download the CSV template' }));
    await waitFor(() => expect(callsTo(calls, contract.api.members.getImportTemplate).length > 0).toBe(true));
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalled());
  });
});
