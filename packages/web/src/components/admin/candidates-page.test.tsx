import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { stubFetch } from '@/test/fetch';
import { CandidatesPage } from './candidates-page';
import { DEFAULT_PHOTO } from './candidate-photo';

const candidates = [
  {
    id: 1,
    member_no: '1001',
    name: 'Jane Doe',
    phone: '0712345678',
    email: 'jane@example.org',
    county: 'Nairobi',
    image_url: '/uploads/abc.png',
    statement: 'I will publish the accounts every quarter.',
    positions: [{ id: 1, name: 'Chairperson', level: 'National' }],
  },
  {
    id: 2,
    member_no: '1002',
    name: 'John Roe',
    phone: '0712345679',
    email: 'john@example.org',
    county: 'Mombasa',
    image_url: null,
    statement: null,
    positions: [],
  },
];

afterEach(() => vi.unstubAllGlobals());

function server(edit?: { status: number; body?: unknown }) {
  return stubFetch((c) => {
    if (c.path === '/psk/candidates') return { status: 200, body: { data: { data: { candidates } } } };
    if (c.path === '/branches') return { status: 200, body: { data: { data: [{ id: 1, name: 'Nairobi' }] } } };
    if (c.path === '/psk/candidate/positions')
      return {
        status: 200,
        body: {
          data: {
            data: [
              { id: 1, name: 'Chairperson', level: 'National' },
              { id: 3, name: 'Secretary', level: 'National' },
            ],
          },
        },
      };
    if (c.path === '/edit/candidate/1') return edit;
    return undefined;
  });
}

describe('candidates page (docs/screens.md "Staff pages")', () => {
  it("shows the columns, 'No positions assigned', '-' and the default photo", async () => {
    server();
    await renderWithProviders(<CandidatesPage />, '/admin/candidates');
    await screen.findByText('Jane Doe');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      '#',
      'Photo',
      'Member No',
      'Positions',
      'Level',
      'Name',
      'Phone',
      'Branch',
      'Edit',
    ]);
    const [, jane, john] = screen.getAllByRole('row');
    expect(within(jane!).getByText('Chairperson')).toBeTruthy();
    expect(within(jane!).getByText('National')).toBeTruthy();
    expect(within(jane!).getByRole('img').getAttribute('src')).toBe('/uploads/abc.png');
    expect(within(john!).getByText('No positions assigned')).toBeTruthy();
    expect(within(john!).getByText('-')).toBeTruthy();
    expect(within(john!).getByRole('img', { name: 'Photo of John Roe' }).getAttribute('src')).toBe(DEFAULT_PHOTO);
  });

  it('sends the edit as multipart with the ticked positions and the picture', async () => {
    const calls = server({ status: 200, body: { data: candidates[0] } });
    await renderWithProviders(<CandidatesPage />, '/admin/candidates');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Jane Doe' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Candidate' });
    fireEvent.click(await within(dialog).findByLabelText('Secretary - National'));
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'me.png', { type: 'image/png' });
    fireEvent.change(within(dialog).getByLabelText('Profile picture (optional)'), { target: { files: [file] } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Candidate updated successfully')).toBeTruthy();
    const body = calls.find((c) => c.path === '/edit/candidate/1')!.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect(body.getAll('position_ids[]')).toEqual(['1', '3']);
    expect(body.get('name')).toBe('Jane Doe');
    expect(body.get('county')).toBe('Nairobi');
    expect((body.get('image') as File).name).toBe('me.png');
    // The statement is sent as it stands (unchanged here).
    expect(body.get('statement')).toBe('I will publish the accounts every quarter.');
  });

  it('edits the statement with a counter; emptying it sends an empty statement (cleared)', async () => {
    const calls = server({ status: 200, body: { data: candidates[0] } });
    await renderWithProviders(<CandidatesPage />, '/admin/candidates');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Jane Doe' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Candidate' });
    const statement = within(dialog).getByLabelText('Statement to voters (optional)') as HTMLTextAreaElement;
    expect(statement.value).toBe('I will publish the accounts every quarter.');
    expect(within(dialog).getByText(/^42 of 2,000 characters/)).toBeTruthy();
    fireEvent.change(statement, { target: { value: '' } });
    expect(within(dialog).getByText(/^0 of 2,000 characters/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Candidate updated successfully')).toBeTruthy();
    expect((calls.find((c) => c.path === '/edit/candidate/1')!.body as FormData).get('statement')).toBe('');
  });

  it('offers Add candidate, also when there is no candidate yet', async () => {
    stubFetch((c) => (c.path === '/psk/candidates' ? { status: 200, body: { data: { data: { candidates: [] } } } } : undefined));
    await renderWithProviders(<CandidatesPage />, '/admin/candidates');
    expect(await screen.findByText(/There are no candidates yet/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add candidate' })).toBeTruthy();
  });

  it('refuses a file that is not an image and shows field errors before sending', async () => {
    server({ status: 415, body: { message: 'Images must be JPEG, PNG or WebP files' } });
    await renderWithProviders(<CandidatesPage />, '/admin/candidates');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Jane Doe' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Candidate' });
    const input = within(dialog).getByLabelText('Profile picture (optional)');
    fireEvent.change(input, { target: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' })] } });
    expect(within(dialog).getByRole('alert').textContent).toBe('Images must be JPEG, PNG or WebP files');
    fireEvent.change(within(dialog).getByLabelText('Phone'), { target: { value: '12' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Must be at least 10 characters long')).toBeTruthy();
  });
});
