import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { contract, type Candidate } from '@kura/contract';
import { callsTo, paginator, stub, stubRoutes, type Call, type RouteReply } from '@/test/fetch';
import { aPosition } from '@/test/positions';
import { anElection } from '@/test/elections';
import { wanjiruKamau } from '@/test/members';
import { electionSearch } from '@/lib/election-search';
import { CandidatesPage } from './candidates-page';
import { DEFAULT_PHOTO } from './candidate-photo';

const candidates: Candidate[] = [
  {
    id: 1,
    member_no: '1001',
    name: 'Jane Doe',
    phone: '0712345678',
    email: 'jane@example.org',
    county: 'Nairobi',
    image_url: '/uploads/abc.png',
    statement: 'I will publish the accounts every quarter.',
    positions: [aPosition(1, 'Chairperson')],
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

/** The candidates page's server; `edit` answers POST edit/candidate/1 (none: 404). */
function server(edit?: RouteReply<typeof contract.api.candidates.updateCandidate>) {
  return stubRoutes(
    stub(contract.api.candidates.listCandidates, { status: 200, body: { data: { data: { candidates } } } }),
    stub(contract.api.members.listBranches, { status: 200, body: { data: { data: [{ id: 1, name: 'Nairobi' }] } } }),
    stub(contract.api.members.listCandidatePositions, {
      status: 200,
      body: { data: { data: [aPosition(1, 'Chairperson'), aPosition(3, 'Secretary')] } },
    }),
    stub(contract.api.candidates.updateCandidate, () => edit, { id: 1 }),
  );
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
    const calls = server({ status: 200, body: { data: candidates[0]! } });
    await renderWithProviders(<CandidatesPage />, '/admin/candidates');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Jane Doe' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Candidate' });
    fireEvent.click(await within(dialog).findByLabelText('Secretary - National'));
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'me.png', { type: 'image/png' });
    fireEvent.change(within(dialog).getByLabelText('Profile picture (optional)'), { target: { files: [file] } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Candidate updated successfully')).toBeTruthy();
    const body = callsTo(calls, contract.api.candidates.updateCandidate, { id: 1 })[0]!.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect(body.getAll('position_ids[]')).toEqual(['1', '3']);
    expect(body.get('name')).toBe('Jane Doe');
    expect(body.get('county')).toBe('Nairobi');
    expect((body.get('image') as File).name).toBe('me.png');
    // The statement is sent as it stands (unchanged here).
    expect(body.get('statement')).toBe('I will publish the accounts every quarter.');
  });

  it('edits the statement with a counter; emptying it sends an empty statement (cleared)', async () => {
    const calls = server({ status: 200, body: { data: candidates[0]! } });
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
    expect((callsTo(calls, contract.api.candidates.updateCandidate, { id: 1 })[0]!.body as FormData).get('statement')).toBe('');
  });

  it('offers Add candidate, also when there is no candidate yet', async () => {
    stubRoutes(stub(contract.api.candidates.listCandidates, { status: 200, body: { data: { data: { candidates: [] } } } }));
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
    expect(await within(dialog).findByText('Enter a mobile number such as 0712 345 678 or +254 712 345 678')).toBeTruthy();
  });

  describe('many elections (docs/api.md "Many elections")', () => {
    const annual = anElection(1, 'Annual election 2026', { phase: 'open', active: '1' });
    const by = anElection(2, 'Nairobi by-election', { phase: 'setup' });
    const achieng: Candidate = {
      id: 9,
      member_no: '1009',
      name: 'Achieng Otieno',
      phone: '0712345680',
      email: 'achieng@example.org',
      county: 'Nairobi',
      image_url: null,
      statement: null,
      positions: [aPosition(21, 'Branch delegate', { level: 'Nairobi', branch_id: 1 })],
    };
    const byPositions = [
      aPosition(21, 'Branch delegate', { level: 'Nairobi', branch_id: 1 }),
      aPosition(22, 'Youth representative', { level: 'Nairobi', branch_id: 1 }),
    ];
    const wanjiru = wanjiruKamau();

    /** Each election's candidates and positions by `?election_id` (none: the current one, 1). */
    function elections() {
      const of = (c: Call) => Number(c.search.get('election_id') ?? annual.id);
      return stubRoutes(
        stub(contract.api.organisation.listElections, { status: 200, body: { data: [by, annual] } }),
        stub(contract.api.elections.getElection, (c) => ({ status: 200, body: { data: of(c) === by.id ? by : annual } })),
        stub(contract.api.candidates.listCandidates, (c) => ({
          status: 200,
          body: { data: { data: { candidates: of(c) === by.id ? [achieng] : candidates } } },
        })),
        stub(contract.api.members.listCandidatePositions, (c) => ({
          status: 200,
          body: { data: { data: of(c) === by.id ? byPositions : [aPosition(1, 'Chairperson')] } },
        })),
        stub(contract.api.members.listBranches, { status: 200, body: { data: { data: [{ id: 1, name: 'Nairobi' }] } } }),
        stub(contract.api.members.searchMembers, { status: 200, body: { ...paginator([wanjiru], 1, 1), total: 1 } }),
        stub(contract.api.candidates.updateCandidate, { status: 200, body: { data: achieng } }, { id: 9 }),
        stub(contract.api.candidates.updateCandidate, { status: 200, body: { data: { ...achieng, id: 7 } } }, { id: 7 }),
      );
    }

    const candidateLists = (calls: Call[]) =>
      callsTo(calls, contract.api.candidates.listCandidates).map((c) => c.search.get('election_id'));

    /** Chooses an election in the page's switcher with the keyboard, as election-switcher.test.tsx does. */
    async function choose(option: string) {
      const box = await screen.findByRole('combobox', { name: 'Election' });
      await waitFor(() => expect(box.textContent).toContain('Annual election 2026 (Open), current'));
      box.focus();
      fireEvent.keyDown(box, { key: 'Enter' });
      fireEvent.click(await screen.findByRole('option', { name: option }));
    }

    it("lists the current election's candidates, and the chosen election's once the switcher names another", async () => {
      const calls = elections();
      const { router } = await renderWithProviders(<CandidatesPage />, '/admin/candidates', { validateSearch: electionSearch });
      await screen.findByText('Jane Doe');
      expect(candidateLists(calls)).toEqual([null]);

      await choose('Nairobi by-election (Set-up)');
      await waitFor(() => expect(router.state.location.search).toEqual({ election: 2 }));
      expect(await screen.findByText('Achieng Otieno')).toBeTruthy();
      expect(screen.queryByText('Jane Doe')).toBeNull();
      expect(candidateLists(calls)).toEqual([null, '2']);
      expect(screen.getByRole('combobox', { name: 'Election' }).textContent).toContain('Nairobi by-election (Set-up)');
    });

    it('edits a candidate of the chosen election with its positions, sends its election_id and re-reads its list', async () => {
      const calls = elections();
      await renderWithProviders(<CandidatesPage />, '/admin/candidates', { validateSearch: electionSearch });
      await choose('Nairobi by-election (Set-up)');
      fireEvent.click(await screen.findByRole('button', { name: 'Edit Achieng Otieno' }));
      const dialog = await screen.findByRole('dialog', { name: 'Edit Candidate' });
      expect(within(dialog).getByText('Election: Nairobi by-election (Set-up)')).toBeTruthy();
      fireEvent.click(await within(dialog).findByLabelText('Youth representative - Nairobi'));
      expect(within(dialog).queryByLabelText('Chairperson - National')).toBeNull();
      expect(callsTo(calls, contract.api.members.listCandidatePositions).at(-1)!.search.get('election_id')).toBe('2');
      const before = candidateLists(calls).length;

      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Candidate updated successfully')).toBeTruthy();
      const edit = callsTo(calls, contract.api.candidates.updateCandidate, { id: 9 })[0]!;
      expect(edit.search.get('election_id')).toBe('2');
      expect((edit.body as FormData).getAll('position_ids[]')).toEqual(['21', '22']);
      // The chosen election's list is read again after the edit.
      await waitFor(() => expect(candidateLists(calls).slice(before)).toContain('2'));
    });

    it('adds a candidate to the chosen election: the dialog names it, offers its positions and sends its election_id', async () => {
      const calls = elections();
      await renderWithProviders(<CandidatesPage />, '/admin/candidates', { validateSearch: electionSearch });
      await choose('Nairobi by-election (Set-up)');
      await screen.findByText('Achieng Otieno');
      fireEvent.click(screen.getByRole('button', { name: 'Add candidate' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add Candidate' });
      expect(within(dialog).getByText('Election: Nairobi by-election (Set-up)')).toBeTruthy();
      await waitFor(() => expect(within(dialog).getByRole('option', { name: 'Youth representative - Nairobi' })).toBeTruthy());
      expect(within(dialog).queryByRole('option', { name: 'Chairperson - National' })).toBeNull();
      fireEvent.change(within(dialog).getByLabelText('Position'), { target: { value: '22' } });
      fireEvent.change(within(dialog).getByLabelText('Find the member'), { target: { value: 'UM-1001' } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Search' }));
      await within(dialog).findByLabelText('Wanjiru Kamau (UM-1001, Nairobi)');
      const before = candidateLists(calls).length;
      fireEvent.click(within(dialog).getByRole('button', { name: 'Add candidate' }));
      expect(await screen.findByText('Candidate added')).toBeTruthy();
      const edit = callsTo(calls, contract.api.candidates.updateCandidate, { id: 7 })[0]!;
      expect(edit.search.get('election_id')).toBe('2');
      expect((edit.body as FormData).getAll('position_ids[]')).toEqual(['22']);
      await waitFor(() => expect(candidateLists(calls).slice(before)).toContain('2'));
    }, 20_000);

    it('shows no switcher, and no election in the dialogs, in an installation with one election', async () => {
      stubRoutes(
        stub(contract.api.organisation.listElections, { status: 200, body: { data: [annual] } }),
        stub(contract.api.elections.getElection, { status: 200, body: { data: annual } }),
        stub(contract.api.candidates.listCandidates, { status: 200, body: { data: { data: { candidates } } } }),
      );
      await renderWithProviders(<CandidatesPage />, '/admin/candidates', { validateSearch: electionSearch });
      fireEvent.click(await screen.findByRole('button', { name: 'Edit Jane Doe' }));
      const dialog = await screen.findByRole('dialog', { name: 'Edit Candidate' });
      await waitFor(() => expect(within(dialog).getByText('Member no 1001')).toBeTruthy());
      expect(within(dialog).queryByText(/^Election:/)).toBeNull();
      expect(screen.queryByRole('combobox', { name: 'Election' })).toBeNull();
    });
  });
});
