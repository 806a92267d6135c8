import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { paginator, stubFetch, type Call } from '@/test/fetch';
import { MembersPage } from './members-page';

/** The Members page's register parts (docs/api.md "Running it on your own"): Add member, Remove member, the CSV template. */
const member = {
  id: 1,
  member_no: 'UFC-001',
  name: 'Jane Wanjiru',
  email: '',
  phone: '+254712345678',
  county: 'Nairobi',
  psk_position_ids: [],
  language: null,
};

function server(
  overrides: (c: Call) => { status: number; body?: unknown; headers?: Record<string, string> } | undefined = () => undefined,
) {
  return stubFetch((c) => {
    const o = overrides(c);
    if (o) return o;
    if (c.path === '/members' && c.method === 'GET') return { status: 200, body: paginator([member], 1, 1) };
    if (c.path === '/branches') return { status: 200, body: { data: { data: [{ id: 1, name: 'Nairobi' }] } } };
    return undefined;
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('Members page: the register', () => {
  it('adds a member with a phone in any spelling and no e-mail (POST members with the E.164 phone)', async () => {
    const calls = server((c) =>
      c.path === '/members' && c.method === 'POST' ? { status: 201, body: { data: { ...member, id: 2 } } } : undefined,
    );
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
    expect(calls.find((c) => c.path === '/members' && c.method === 'POST')!.body).toEqual({
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
    const calls = server((c) =>
      c.path === '/members/1' && c.method === 'DELETE'
        ? refuse
          ? { status: 409, body: { message: reason } }
          : { status: 204 }
        : undefined,
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
    expect(calls.filter((c) => c.path === '/members/1' && c.method === 'DELETE')).toHaveLength(2);
  });

  it('offers the CSV template and explains the formats on the import screen', async () => {
    const calls = server((c) =>
      c.path === '/members/import/template' ? { status: 200, body: 'member_no,name,email,phone,branch,language' } : undefined,
    );
    URL.createObjectURL = vi.fn(() => 'blob:template');
    URL.revokeObjectURL = vi.fn();
    await renderWithProviders(<MembersPage />, '/admin/members');
    expect(await screen.findByText(/Phones: 0712 345 678/)).toBeTruthy();
    expect(screen.getByText(/E-mail: optional/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Download the CSV template' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/members/import/template')).toBe(true));
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalled());
  });
});
