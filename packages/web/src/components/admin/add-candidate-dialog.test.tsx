import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { stubFetch, type Call, type Reply } from '@/test/fetch';
import { CandidatesPage } from './candidates-page';
import { SetupPage } from './setup-page';
import { electionSearch } from '@/lib/election-search';
import { wanjiruKamau } from '@/test/members';

afterEach(() => vi.unstubAllGlobals());

const positions = [
  { id: 1, name: 'Board member', level: 'National', seats: 3, description: null, branch_id: null },
  { id: 2, name: 'Treasurer', level: 'National', seats: 1, description: null, branch_id: null },
  // a motion takes no candidates: never offered
  { id: 3, name: 'Adopt the budget', level: 'National', seats: 1, description: null, branch_id: null, kind: 'motion' },
];
const wanjiru = wanjiruKamau({ county: 'Eldoret', psk_position_ids: [2] });
const wambui = {
  id: 8,
  member_no: 'UM-1002',
  name: 'Wambui Njeri',
  email: 'w.njeri@umoja.example',
  phone: '0711000002',
  county: 'Kericho',
  psk_position_ids: [],
};

function server(edit: (call: Call) => Reply = () => ({ status: 200, body: { data: {} } })) {
  return stubFetch((c) => {
    if (c.path === '/psk/candidates') return { status: 200, body: { data: { data: { candidates: [] } } } };
    if (c.path === '/psk/candidate/positions') return { status: 200, body: { data: { data: positions } } };
    if (c.path === '/branches') return { status: 200, body: { data: { data: [] } } };
    if (c.path === '/search/member') {
      const q = (c.search.get('query') ?? '').toLowerCase();
      const data = [wanjiru, wambui].filter((m) => m.name.toLowerCase().includes(q) || m.member_no.toLowerCase().includes(q));
      return { status: 200, body: { data, current_page: 1, last_page: 1, per_page: 10, total: data.length } };
    }
    if (c.path === '/edit/candidate/7' || c.path === '/edit/candidate/8') return edit(c);
    if (c.path === '/election') return { status: 404, body: { message: 'Not found' } };
    if (c.path === '/agents') return { status: 200, body: { data: [] } };
    if (c.path === '/members') return { status: 200, body: { data: [], current_page: 1, last_page: 1, per_page: 1, total: 0 } };
    return undefined;
  });
}

const openFromCandidatesPage = async () => {
  await renderWithProviders(<CandidatesPage />, '/admin/candidates');
  fireEvent.click(await screen.findByRole('button', { name: 'Add candidate' }));
  return screen.findByRole('dialog', { name: 'Add Candidate' });
};

describe('Add Candidate dialog (docs/screens.md "Staff pages")', () => {
  it('adds a searched member to a position with a photo and a statement, keeping the positions they stand for', async () => {
    const calls = server();
    const dialog = await openFromCandidatesPage();
    await waitFor(() =>
      expect(
        within(dialog)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toContain('Board member - National'),
    );
    expect(within(dialog).queryByRole('option', { name: 'Adopt the budget - National' })).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Position'), { target: { value: '1' } });

    fireEvent.change(within(dialog).getByLabelText('Find the member'), { target: { value: 'wa' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Search' }));
    const pick = await within(dialog).findByLabelText('Wanjiru Kamau (UM-1001, Eldoret)');
    expect(within(dialog).getByLabelText('Wambui Njeri (UM-1002, Kericho)')).toBeTruthy();
    expect(calls.find((c) => c.path === '/search/member')!.search.get('query')).toBe('wa');
    fireEvent.click(pick);
    // She stands for Treasurer already: an empty statement or no photo would keep hers.
    expect(within(dialog).getByText(/Wanjiru Kamau already stands for another position/)).toBeTruthy();

    const photo = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'wanjiru.png', { type: 'image/png' });
    fireEvent.change(within(dialog).getByLabelText('Profile picture (optional)'), { target: { files: [photo] } });
    const statement = within(dialog).getByLabelText('Statement to voters (optional)');
    expect(within(dialog).getByText(/^0 of 2,000 characters/)).toBeTruthy();
    fireEvent.change(statement, { target: { value: 'Twenty years of bookkeeping.' } });
    expect(within(dialog).getByText(/^28 of 2,000 characters/)).toBeTruthy();
    expect(statement.getAttribute('maxlength')).toBe('2000');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add candidate' }));
    expect(await screen.findByText('Candidate added')).toBeTruthy();
    expect(screen.getByText('Wanjiru Kamau stands for Board member - National.')).toBeTruthy();
    const body = calls.find((c) => c.path === '/edit/candidate/7')!.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    // Treasurer (already hers) stays; Board member is added.
    expect(body.getAll('position_ids[]')).toEqual(['2', '1']);
    expect(body.get('statement')).toBe('Twenty years of bookkeeping.');
    expect((body.get('image') as File).name).toBe('wanjiru.png');
    expect([body.get('name'), body.get('phone'), body.get('email'), body.get('county')]).toEqual([
      'Wanjiru Kamau',
      '+254711000001',
      'w.kamau@umoja.example',
      'Eldoret',
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Candidate' })).toBeNull());
  }, 20_000);

  it("in the election ?election=2 names: its positions, ?election_id=2, and the member's candidacies elsewhere left out", async () => {
    const calls = server();
    const elsewhere = { ...wanjiru, psk_position_ids: [2, 40] }; // 40: a position of another election
    vi.stubGlobal(
      'fetch',
      ((inner: typeof fetch) => (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(String(input), 'http://localhost');
        if (url.pathname.endsWith('/search/member'))
          return Promise.resolve(
            new Response(JSON.stringify({ data: [elsewhere], current_page: 1, last_page: 1, per_page: 10, total: 1 }), {
              status: 200,
              headers: { 'content-type': 'application/json' },
            }),
          );
        return inner(input, init);
      })(globalThis.fetch),
    );
    await renderWithProviders(<CandidatesPage />, '/admin/candidates?election=2', { validateSearch: electionSearch });
    fireEvent.click(await screen.findByRole('button', { name: 'Add candidate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Candidate' });
    await waitFor(() => expect(within(dialog).getByRole('option', { name: 'Board member - National' })).toBeTruthy());
    fireEvent.change(within(dialog).getByLabelText('Position'), { target: { value: '1' } });
    fireEvent.change(within(dialog).getByLabelText('Find the member'), { target: { value: 'UM-1001' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Search' }));
    await within(dialog).findByLabelText('Wanjiru Kamau (UM-1001, Eldoret)');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add candidate' }));
    expect(await screen.findByText('Candidate added')).toBeTruthy();
    expect(calls.find((c) => c.path === '/psk/candidate/positions')!.search.get('election_id')).toBe('2');
    const edit = calls.find((c) => c.path === '/edit/candidate/7')!;
    expect(edit.search.get('election_id')).toBe('2');
    expect((edit.body as FormData).getAll('position_ids[]')).toEqual(['2', '1']);
  }, 20_000);

  it('asks for a position and a member before sending, says when nobody matches, and shows the server refusal', async () => {
    const calls = server(() => ({
      status: 409,
      body: { message: 'Votes have already been cast for this position, so its candidates can no longer be changed' },
    }));
    const dialog = await openFromCandidatesPage();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add candidate' }));
    expect(await within(dialog).findByText('Choose the position they stand for')).toBeTruthy();
    expect(within(dialog).getByText('Search for the member and choose one')).toBeTruthy();

    // Enter in the search box searches; it does not submit the dialog.
    const box = within(dialog).getByLabelText('Find the member');
    fireEvent.change(box, { target: { value: 'nobody' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(await within(dialog).findByText('No member matches “nobody”.')).toBeTruthy();
    fireEvent.change(box, { target: { value: 'UM-1002' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    // A single match is chosen at once.
    const only = await within(dialog).findByLabelText('Wambui Njeri (UM-1002, Kericho)');
    expect((only as HTMLInputElement).checked).toBe(true);

    fireEvent.change(within(dialog).getByLabelText('Position'), { target: { value: '2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add candidate' }));
    expect(await screen.findByText('Error adding candidate')).toBeTruthy();
    expect(screen.getByText('Votes have already been cast for this position, so its candidates can no longer be changed')).toBeTruthy();
    const sent = calls.find((c) => c.path === '/edit/candidate/8')!.body as FormData;
    expect(sent.getAll('position_ids[]')).toEqual(['2']);
    // No statement typed, no photo chosen: neither is sent, so nothing the member had is cleared.
    expect(sent.has('statement')).toBe(false);
    expect(sent.has('image')).toBe(false);
    // The dialog stays open for another try.
    expect(screen.getByRole('dialog', { name: 'Add Candidate' })).toBeTruthy();
  }, 20_000);

  it('opens from a position on the Set-up page with that position chosen', async () => {
    server();
    await renderWithProviders(<SetupPage />, '/admin/setup');
    const add = await screen.findByRole('button', { name: 'Add a candidate for Treasurer - National' });
    expect(within(screen.getByRole('list', { name: 'Positions' })).getAllByText('No candidate yet')).toHaveLength(2);
    fireEvent.click(add);
    const dialog = await screen.findByRole('dialog', { name: 'Add Candidate' });
    await waitFor(() => expect((within(dialog).getByLabelText('Position') as HTMLSelectElement).value).toBe('2'));
  });
});
