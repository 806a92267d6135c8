import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { contract } from '@kura/contract';
import { callsTo, paginator, stub, stubRoutes, type RouteReply, type RouteStub } from '@/test/fetch';
import { aMotion, aPosition } from '@/test/positions';
import { CandidatesPage } from './candidates-page';
import { SetupPage } from './setup-page';
import { electionSearch } from '@/lib/election-search';
import { wanjiruKamau } from '@/test/members';

afterEach(() => vi.unstubAllGlobals());

const positions = [
  aPosition(1, 'Board member', { seats: 3 }),
  aPosition(2, 'Treasurer'),
  // a motion takes no candidates: never offered
  aMotion(3, 'Adopt the budget'),
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
  language: null,
};

/** Wanjiru as a candidate for Treasurer and Board member, as a successful edit answers her. */
const wanjiruStanding = {
  ...wanjiru,
  image_url: null,
  statement: 'Twenty years of bookkeeping.',
  positions: [positions[1]!, positions[0]!],
};

/** The candidates and set-up pages' server; `edit` answers POST edit/candidate/:id, `first` stubs answer before the rest. */
function server(
  edit: RouteReply<typeof contract.api.candidates.updateCandidate> = { status: 200, body: { data: wanjiruStanding } },
  ...first: RouteStub[]
) {
  return stubRoutes(
    ...first,
    stub(contract.api.candidates.listCandidates, { status: 200, body: { data: { data: { candidates: [] } } } }),
    stub(contract.api.members.listCandidatePositions, { status: 200, body: { data: { data: positions } } }),
    stub(contract.api.members.listBranches, { status: 200, body: { data: { data: [] } } }),
    stub(contract.api.members.searchMembers, (c) => {
      const q = (c.search.get('query') ?? '').toLowerCase();
      const data = [wanjiru, wambui].filter((m) => m.name.toLowerCase().includes(q) || m.member_no.toLowerCase().includes(q));
      return { status: 200, body: { ...paginator(data, 1, 1), total: data.length } };
    }),
    stub(contract.api.candidates.updateCandidate, edit, { id: 7 }),
    stub(contract.api.candidates.updateCandidate, edit, { id: 8 }),
    stub(contract.api.elections.getElection, { status: 404, body: { message: 'Not found' } }),
    stub(contract.api.setup.listAgents, { status: 200, body: { data: [] } }),
    stub(contract.api.members.listMembers, { status: 200, body: { ...paginator([], 1, 1, 1), total: 0 } }),
  );
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
    expect(callsTo(calls, contract.api.members.searchMembers)[0]!.search.get('query')).toBe('wa');
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
    const body = callsTo(calls, contract.api.candidates.updateCandidate, { id: 7 })[0]!.body as FormData;
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
    const elsewhere = { ...wanjiru, psk_position_ids: [2, 40] }; // 40: a position of another election
    const calls = server(
      undefined,
      stub(contract.api.members.searchMembers, { status: 200, body: { ...paginator([elsewhere], 1, 1), total: 1 } }),
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
    expect(callsTo(calls, contract.api.members.listCandidatePositions)[0]!.search.get('election_id')).toBe('2');
    const edit = callsTo(calls, contract.api.candidates.updateCandidate, { id: 7 })[0]!;
    expect(edit.search.get('election_id')).toBe('2');
    expect((edit.body as FormData).getAll('position_ids[]')).toEqual(['2', '1']);
  }, 20_000);

  it('asks for a position and a member before sending, says when nobody matches, and shows the server refusal', async () => {
    const calls = server({
      status: 409,
      body: { message: 'Votes have already been cast for this position, so its candidates can no longer be changed' },
    });
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
    const sent = callsTo(calls, contract.api.candidates.updateCandidate, { id: 8 })[0]!.body as FormData;
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
