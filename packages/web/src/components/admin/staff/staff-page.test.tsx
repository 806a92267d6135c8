import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { contract, type Staff } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
import { StaffPage } from './staff-page';

afterEach(() => vi.unstubAllGlobals());

const ada: Staff = { id: 1, email: 'ada@example.org', name: 'Ada', role: 'admin', created_at: '2026-11-01T08:00:00.000Z' };
const obs: Staff = { id: 2, email: 'obs@example.org', name: 'Observer', role: 'agent', created_at: '2026-11-02T08:00:00.000Z' };

function server(options: { remove?: 204 | 409; create?: 201 | 409 } = {}) {
  const list = [ada, obs];
  return stubRoutes(
    stub(contract.api.staff.listStaff, () => ({ status: 200, body: { data: list } })),
    stub(contract.api.organisation.getOrganisation, {
      status: 200,
      body: {
        data: {
          name: 'Umoja',
          website: null,
          support_email: null,
          time_zone: 'Africa/Nairobi',
          current_election_id: null,
          member_no_pattern: null,
          default_language: 'en',
        },
      },
    }),
    stub(contract.api.auth.validateStaff, { status: 200, body: { user_type: 'admin', data: { name: 'Ada' } } }),
    stub(contract.api.staff.createStaff, (c) => {
      if (options.create === 409) return { status: 409, body: { message: 'This e-mail address is already a member of staff' } };
      const body = c.body as { email: string; role: 'admin' | 'agent'; name?: string };
      const added: Staff = { id: 3, email: body.email, name: body.name ?? null, role: body.role, created_at: '2026-12-01T08:00:00.000Z' };
      list.push(added);
      return { status: 201, body: { data: added } };
    }),
    stub(contract.api.staff.deleteStaff, () =>
      options.remove === 409 ? { status: 409, body: { message: 'You cannot remove yourself' } } : { status: 204, body: undefined },
    ),
    stub(contract.api.staff.updateOwnStaff, (c) => ({ status: 200, body: { data: { ...ada, name: (c.body as { name: string }).name } } })),
  );
}

describe('the Staff page', () => {
  it('lists admins and agents; the only admin cannot be removed', async () => {
    server();
    await renderWithProviders(<StaffPage />, '/admin/staff');
    const table = await screen.findByRole('table', { name: 'Every admin and agent' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]!.textContent).toContain('ada@example.org');
    expect(rows[1]!.textContent).toContain('The only admin');
    expect(within(rows[1]!).queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(rows[2]!.textContent).toContain('Agent');
    expect(within(rows[2]!).getByRole('button', { name: 'Remove obs@example.org' })).toBeTruthy();
  });

  it('adds an agent: e-mail, optional name and role are sent, and the list shows them', async () => {
    const calls = server();
    await renderWithProviders(<StaffPage />, '/admin/staff');
    fireEvent.click(await screen.findByRole('button', { name: 'Add staff' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('E-mail address'), { target: { value: 'new@example.org' } });
    fireEvent.change(within(dialog).getByLabelText('Name (optional)'), { target: { value: 'New Person' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add staff' }));
    await waitFor(() => expect(callsTo(calls, contract.api.staff.createStaff)).toHaveLength(1));
    expect(callsTo(calls, contract.api.staff.createStaff)[0]!.body).toEqual({
      email: 'new@example.org',
      name: 'New Person',
      role: 'agent',
    });
    expect(await screen.findByText('new@example.org')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('adds an admin (the role chosen) and checks the e-mail before sending', async () => {
    const calls = server();
    await renderWithProviders(<StaffPage />, '/admin/staff');
    fireEvent.click(await screen.findByRole('button', { name: 'Add staff' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('E-mail address'), { target: { value: 'not an email' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add staff' }));
    expect(await within(dialog).findByText('Enter a valid email address')).toBeTruthy();
    expect(callsTo(calls, contract.api.staff.createStaff)).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('E-mail address'), { target: { value: 'boss@example.org' } });
    fireEvent.click(within(dialog).getByRole('radio', { name: /^Admin:/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add staff' }));
    await waitFor(() => expect(callsTo(calls, contract.api.staff.createStaff)).toHaveLength(1));
    expect(callsTo(calls, contract.api.staff.createStaff)[0]!.body).toEqual({ email: 'boss@example.org', role: 'admin' });
  });

  it("keeps the add dialog open with the server's 409", async () => {
    server({ create: 409 });
    await renderWithProviders(<StaffPage />, '/admin/staff');
    fireEvent.click(await screen.findByRole('button', { name: 'Add staff' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('E-mail address'), { target: { value: 'obs@example.org' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add staff' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('This e-mail address is already a member of staff');
  });

  it('removes after a confirmation that says their sessions end; a refusal stays in the dialog', async () => {
    const calls = server();
    await renderWithProviders(<StaffPage />, '/admin/staff');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove obs@example.org' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain('session they have open ends');
    expect(callsTo(calls, contract.api.staff.deleteStaff)).toHaveLength(0);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(callsTo(calls, contract.api.staff.deleteStaff)).toHaveLength(1));
    expect(callsTo(calls, contract.api.staff.deleteStaff)[0]!.path).toBe('/staff/2');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('shows the server refusal of a removal in the dialog', async () => {
    server({ remove: 409 });
    await renderWithProviders(<StaffPage />, '/admin/staff');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove obs@example.org' }));
    const confirm = await screen.findByRole('alertdialog');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect((await within(confirm).findByRole('alert')).textContent).toBe('You cannot remove yourself');
  });

  it('sets the own display name', async () => {
    const calls = server();
    await renderWithProviders(<StaffPage />, '/admin/staff');
    const field = await screen.findByLabelText('Display name');
    await waitFor(() => expect((field as HTMLInputElement).value).toBe('Ada'));
    fireEvent.change(field, { target: { value: 'Returning Officer' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save name' }));
    await waitFor(() => expect(callsTo(calls, contract.api.staff.updateOwnStaff)).toHaveLength(1));
    expect(callsTo(calls, contract.api.staff.updateOwnStaff)[0]!.body).toEqual({ name: 'Returning Officer' });
  });

  it('shows the display name field only with the stored name in it: typing is never landed on by the name loading', async () => {
    server();
    await renderWithProviders(<StaffPage />, '/admin/staff');
    // Every state the field is seen in, from the first render: never empty, never editable before the name came.
    const seen: string[] = [];
    await waitFor(() => {
      const field = screen.queryByLabelText('Display name');
      if (field) seen.push((field as HTMLInputElement).value);
      expect(seen.at(-1)).toBe('Ada');
    });
    expect(seen.every((v) => v === 'Ada')).toBe(true);
  });
});
