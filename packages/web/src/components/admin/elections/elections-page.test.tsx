import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { contract, type Election } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
import { anElection } from '@/test/elections';
import { electionSearch } from '@/lib/election-search';
import { ElectionsPage } from './elections-page';

afterEach(() => vi.unstubAllGlobals());

const annual = anElection(1, 'Annual election 2026', {
  phase: 'closed',
  roll_frozen_at: '2026-03-01T05:00:00.000Z',
  closes_at: '2026-03-01T15:00:00.000Z',
  // Closed by hand before its scheduled end: the page shows when it closed.
  closed_at: '2026-03-01T13:30:00.000Z',
});
const by = anElection(2, 'Nairobi by-election', { phase: 'scheduled', opens_at: '2026-06-01T05:00:00.000Z' });
const agm = anElection(3, 'AGM motions', { phase: 'open', roll_frozen_at: '2026-05-01T05:00:00.000Z' });
const organisation = {
  name: 'Umoja Sacco',
  website: null,
  support_email: null,
  time_zone: 'Africa/Nairobi',
  current_election_id: 3,
  default_language: 'en',
  member_no_pattern: null,
};
const position = {
  id: 0,
  name: '',
  level: 'National',
  seats: 1,
  description: null,
  branch_id: null,
  kind: 'candidates' as const,
  method: 'plurality' as const,
  threshold: null,
  quorum_percent: null,
};
const stats = (votesCasted: number, voted: number, notVoted: number) => ({
  votesCasted,
  verifiedMembers: voted + notVoted,
  unverifiedMembers: 0,
  membersVoted: voted,
  membersNotVoted: notVoted,
});

function server(
  overrides: { archive?: number; remove?: number; copy?: number; create?: number; list?: Election[]; attributes?: 500 } = {},
) {
  const closedRefusal = 'The election is closed; its schedule, results visibility and electorate can no longer change';
  const list: Election[] = overrides.list ?? [agm, by, annual];
  return stubRoutes(
    stub(contract.api.organisation.listElections, () => ({ status: 200, body: { data: list } })),
    stub(contract.api.organisation.getOrganisation, { status: 200, body: { data: organisation } }),
    stub(contract.api.elections.getElection, { status: 200, body: { data: agm } }),
    stub(contract.api.members.listBranches, {
      status: 200,
      body: {
        data: {
          data: [
            { id: 4, name: 'Nairobi' },
            { id: 5, name: 'Mombasa' },
          ],
        },
      },
    }),
    stub(contract.api.elections.getStatistics, (c) => ({
      status: 200,
      body: { data: { data: c.search.get('election_id') === '1' ? stats(80, 80, 20) : stats(0, 0, 50) } },
    })),
    stub(contract.api.organisation.createElection, (c) =>
      overrides.create === 422
        ? {
            status: 422,
            body: { message: 'The given data was invalid', errors: { closes_at: ['The closing time must be after the opening time'] } },
          }
        : { status: 201, body: { data: anElection(9, (c.body as { title: string }).title) } },
    ),
    // As the server: a closed election refuses schedule, visibility and electorate, even unchanged.
    stub(contract.api.organisation.updateElectionById, (c) => {
      const target = list.find((e) => c.path === `/elections/${e.id}`)!;
      const body = c.body as Record<string, unknown>;
      if (target.phase === 'closed' && Object.keys(body).some((k) => k !== 'title' && k !== 'description'))
        return { status: 409, body: { message: closedRefusal } };
      return { status: 200, body: { data: { ...target, ...body } as Election } };
    }),
    stub(contract.api.register.getAttributes, () =>
      overrides.attributes
        ? ({ status: 500, body: { message: 'Server Error' } } as never)
        : {
            status: 200,
            body: {
              data: [
                { key: 'date_joined', label: 'Joined', type: 'date' as const },
                { key: 'paid', label: 'Subscription paid', type: 'boolean' as const },
              ],
            },
          },
    ),
    stub(contract.api.members.listPositions, (c) => ({
      status: 200,
      body: {
        data:
          c.search.get('election_id') === '1'
            ? [
                { ...position, id: 11, name: 'Delegate', level: 'Nairobi', branch_id: 4 },
                { ...position, id: 12, name: 'Delegate', level: 'Mombasa', branch_id: 5 },
              ]
            : [],
      },
    })),
    stub(contract.api.organisation.copyElection, (c) => ({
      status: 201,
      body: { data: anElection(10, (c.body as { title: string }).title) },
    })),
    stub(contract.api.organisation.archiveElection, () =>
      overrides.archive === 409
        ? { status: 409, body: { message: 'Only a closed election can be archived' } }
        : { status: 200, body: { data: { ...annual, archived: true } } },
    ),
    stub(contract.api.organisation.deleteElection, () =>
      overrides.remove === 409
        ? { status: 409, body: { message: 'Votes have been cast in this election, so it can no longer be deleted' } }
        : { status: 204, body: undefined },
    ),
  );
}

const row = (title: string) => screen.getByRole('rowheader', { name: new RegExp(`^${title}`) }).closest('tr')!;

describe('Elections page (docs/api.md "Many elections")', () => {
  it('lists each election with title, phase, turnout and times, and only the actions that apply', async () => {
    server();
    await renderWithProviders(<ElectionsPage />, '/admin/elections', { validateSearch: electionSearch });
    const table = await screen.findByRole('table', { name: 'Elections' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Title', 'Phase', 'Turnout', 'Opened', 'Closed', 'Actions']);
    await waitFor(() => expect(within(row('Annual election 2026')).getByText('80 of 100 (80%)')).toBeTruthy());
    expect(within(row('AGM motions')).getByText('Current election')).toBeTruthy();
    expect(within(row('AGM motions')).getByText('Open')).toBeTruthy();
    expect(within(row('Nairobi by-election')).getByText(/^Scheduled: /)).toBeTruthy();
    expect(within(row('Annual election 2026')).getByText('March 1, 2026 at 08:00 AM GMT+3')).toBeTruthy(); // opened
    expect(within(row('Annual election 2026')).getByText('March 1, 2026 at 04:30 PM GMT+3')).toBeTruthy(); // closed

    // Archive only for the closed one; Delete while no vote was cast (not the annual election, 80 votes).
    expect(screen.getByRole('button', { name: 'Archive Annual election 2026' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Archive AGM motions' })).toBeNull();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Delete AGM motions' })).toBeTruthy());
    expect(screen.getByRole('button', { name: 'Delete Nairobi by-election' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete Annual election 2026' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Set up Nairobi by-election' }).getAttribute('href')).toBe('/admin/setup?election=2');
  });

  it('creates an election for chosen branches with a schedule in the organisation zone', async () => {
    const calls = server();
    await renderWithProviders(<ElectionsPage />, '/admin/elections', { validateSearch: electionSearch });
    fireEvent.click(await screen.findByRole('button', { name: 'New election' }));
    const dialog = await screen.findByRole('dialog', { name: 'New election' });
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'Mombasa by-election' } });
    fireEvent.change(within(dialog).getByLabelText('Voting opens'), { target: { value: '2026-07-01T08:00' } });
    fireEvent.click(within(dialog).getByRole('radio', { name: /After close/ }));
    fireEvent.click(within(dialog).getByRole('radio', { name: 'The members of chosen branches' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create election' }));
    expect(await within(dialog).findByText('Choose at least one branch')).toBeTruthy();
    expect(callsTo(calls, contract.api.organisation.createElection)).toHaveLength(0);

    fireEvent.click(await within(dialog).findByRole('checkbox', { name: 'Mombasa' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create election' }));
    expect(await screen.findByText('Election created: Mombasa by-election')).toBeTruthy();
    expect(callsTo(calls, contract.api.organisation.createElection)[0]!.body).toEqual({
      title: 'Mombasa by-election',
      opens_at: '2026-07-01T05:00:00.000Z',
      results_visibility: 'after_close',
      electorate: { branch_ids: [5] },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("puts the server's 422 under the field and keeps the form open", async () => {
    server({ create: 422 });
    await renderWithProviders(<ElectionsPage />, '/admin/elections', { validateSearch: electionSearch });
    fireEvent.click(await screen.findByRole('button', { name: 'New election' }));
    const dialog = await screen.findByRole('dialog', { name: 'New election' });
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'Bad times' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create election' }));
    expect(await within(dialog).findByText('The closing time must be after the opening time')).toBeTruthy();
    expect(within(dialog).getByLabelText('Voting closes').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('The election could not be created')).toBeTruthy();
  });

  it("edits an election: its form holds the election's values and only what changed is sent", async () => {
    const calls = server();
    await renderWithProviders(<ElectionsPage />, '/admin/elections', { validateSearch: electionSearch });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Nairobi by-election' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Nairobi by-election' });
    const title = within(dialog).getByLabelText('Title') as HTMLInputElement;
    expect(title.value).toBe('Nairobi by-election');
    // 2026-06-01T05:00Z is 08:00 in Nairobi
    expect((within(dialog).getByLabelText('Voting opens') as HTMLInputElement).value).toBe('2026-06-01T08:00');
    expect(within(dialog).getByRole('radio', { name: 'Every member' }).getAttribute('aria-checked')).toBe('true');
    fireEvent.change(title, { target: { value: 'Nairobi by-election 2026' } });
    fireEvent.change(within(dialog).getByLabelText('Voting closes'), { target: { value: '2026-06-01T17:00' } });
    fireEvent.click(within(dialog).getByRole('radio', { name: 'The members of chosen branches' }));
    fireEvent.click(await within(dialog).findByRole('checkbox', { name: 'Nairobi' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Election saved: Nairobi by-election 2026')).toBeTruthy();
    expect(callsTo(calls, contract.api.organisation.updateElectionById).map((c) => [c.method, c.path, c.body])).toEqual([
      [
        'PATCH',
        '/elections/2',
        { title: 'Nairobi by-election 2026', closes_at: '2026-06-01T14:00:00.000Z', electorate: { branch_ids: [4] } },
      ],
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("renames a closed election, and shows the server's 409 when its schedule is changed", async () => {
    const calls = server();
    await renderWithProviders(<ElectionsPage />, '/admin/elections', { validateSearch: electionSearch });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Annual election 2026' }));
    let dialog = await screen.findByRole('dialog', { name: 'Edit Annual election 2026' });
    expect(within(dialog).getByText('The election is closed: only its title and description can still change.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Voting closes'), { target: { value: '2026-03-02T18:00' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await within(dialog).findByRole('alert')).toHaveProperty(
      'textContent',
      'The election is closed; its schedule, results visibility and electorate can no longer change',
    );
    expect(screen.getByText('The election could not be saved')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Edit Annual election 2026' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Edit Annual election 2026' }));
    dialog = await screen.findByRole('dialog', { name: 'Edit Annual election 2026' });
    fireEvent.change(within(dialog).getByLabelText('Description (optional)'), { target: { value: 'Held at the AGM' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Election saved: Annual election 2026')).toBeTruthy();
    expect(callsTo(calls, contract.api.organisation.updateElectionById).map((c) => c.body)).toEqual([
      { closes_at: '2026-03-02T15:00:00.000Z' },
      { description: 'Held at the AGM' },
    ]);
  });

  it('copies an election with its candidates under a new title', async () => {
    const calls = server();
    await renderWithProviders(<ElectionsPage />, '/admin/elections', { validateSearch: electionSearch });
    fireEvent.click(await screen.findByRole('button', { name: 'Copy Annual election 2026' }));
    const dialog = await screen.findByRole('dialog', { name: 'Copy Annual election 2026' });
    expect(within(dialog).getByText(/no schedule, no votes and no receipts/)).toBeTruthy();
    const title = within(dialog).getByLabelText('Title of the new election');
    expect((title as HTMLInputElement).value).toBe('Copy of Annual election 2026');
    fireEvent.change(title, { target: { value: 'Annual election 2027' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Copy the candidates too' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Election copied: Annual election 2027')).toBeTruthy();
    const copy = callsTo(calls, contract.api.organisation.copyElection);
    expect(copy.map((c) => [c.path, c.body])).toEqual([['/elections/1/copy', { title: 'Annual election 2027', candidates: true }]]);
  });

  it('archives a closed election after a confirmation that says what happens', async () => {
    const calls = server();
    await renderWithProviders(<ElectionsPage />, '/admin/elections', { validateSearch: electionSearch });
    fireEvent.click(await screen.findByRole('button', { name: 'Archive Annual election 2026' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Archive Annual election 2026?' });
    expect(within(dialog).getByText(/its results stay reachable/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(callsTo(calls, contract.api.organisation.archiveElection)).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Archive Annual election 2026' }));
    const again = await screen.findByRole('alertdialog', { name: 'Archive Annual election 2026?' });
    fireEvent.click(within(again).getByRole('button', { name: 'Archive' }));
    expect(await screen.findByText('Election archived: Annual election 2026')).toBeTruthy();
    expect(callsTo(calls, contract.api.organisation.archiveElection).map((c) => c.path)).toEqual(['/elections/1/archive']);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it("keeps the delete confirmation open with the server's 409", async () => {
    const calls = server({ remove: 409 });
    await renderWithProviders(<ElectionsPage />, '/admin/elections', { validateSearch: electionSearch });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Nairobi by-election' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Nairobi by-election?' });
    expect(within(dialog).getByText(/removed for good/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('alert')).toHaveProperty(
      'textContent',
      'Votes have been cast in this election, so it can no longer be deleted',
    );
    expect(callsTo(calls, contract.api.organisation.deleteElection).map((c) => [c.method, c.path])).toEqual([['DELETE', '/elections/2']]);
    expect(screen.getByRole('alertdialog', { name: 'Delete Nairobi by-election?' })).toBeTruthy();
  });

  it('deletes an election in which no vote was cast', async () => {
    server();
    await renderWithProviders(<ElectionsPage />, '/admin/elections', { validateSearch: electionSearch });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Nairobi by-election' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Nairobi by-election?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Election deleted: Nairobi by-election')).toBeTruthy();
  });

  it('creates an election whose voters must meet rules, said in words, and were elected in chosen positions of another', async () => {
    const calls = server();
    await renderWithProviders(<ElectionsPage />, '/admin/elections', { validateSearch: electionSearch });
    fireEvent.click(await screen.findByRole('button', { name: 'New election' }));
    const dialog = await screen.findByRole('dialog', { name: 'New election' });
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'Delegates AGM 2026' } });
    const rules = within(dialog).getByRole('group', { name: 'Rules every voter must meet' });
    fireEvent.click(await within(rules).findByRole('button', { name: 'Add a rule' }));
    // the first attribute, a date: compared with a count of years back from the opening
    fireEvent.change(within(rules).getByLabelText('Rule 1 Compared with'), { target: { value: 'years_before' } });
    fireEvent.change(within(rules).getByLabelText('Rule 1 Value'), { target: { value: '1' } });
    expect(within(rules).getByText('Joined at least 1 year before voting opens')).toBeTruthy();
    fireEvent.click(within(rules).getByRole('button', { name: 'Add a rule' }));
    fireEvent.change(within(rules).getByLabelText('Rule 2 Attribute'), { target: { value: 'paid' } });
    expect(within(rules).getByText('Subscription paid: yes')).toBeTruthy();

    const electedIn = within(dialog).getByLabelText(/Only members elected in another election/) as HTMLSelectElement;
    fireEvent.change(electedIn, { target: { value: '1' } });
    const positions = await within(dialog).findByRole('list', { name: 'Positions they were elected to' });
    fireEvent.click(within(positions).getByRole('checkbox', { name: 'Delegate - Mombasa' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create election' }));
    expect(await screen.findByText('Election created: Delegates AGM 2026')).toBeTruthy();
    expect(callsTo(calls, contract.api.organisation.createElection)[0]!.body).toEqual({
      title: 'Delegates AGM 2026',
      results_visibility: 'live',
      electorate: {
        branch_ids: null,
        rules: [
          { attribute: 'date_joined', op: 'on_or_before', value: { years_before: 1 } },
          { attribute: 'paid', op: 'equals', value: true },
        ],
        elected_in: { election_id: 1, position_ids: [12] },
      },
    });
  });

  it('does not send a rule that is not complete, and says what is missing beside it', async () => {
    const calls = server();
    await renderWithProviders(<ElectionsPage />, '/admin/elections', { validateSearch: electionSearch });
    fireEvent.click(await screen.findByRole('button', { name: 'New election' }));
    const dialog = await screen.findByRole('dialog', { name: 'New election' });
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'AGM' } });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Add a rule' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create election' }));
    expect(await within(dialog).findByText('Enter a date')).toBeTruthy();
    expect(callsTo(calls, contract.api.organisation.createElection)).toHaveLength(0);
  });

  it("edits an election's rules: shows the stored ones in words and sends the electorate with what changed", async () => {
    const withRules: Election = {
      ...by,
      electorate: {
        branch_ids: [4],
        rules: [{ attribute: 'paid', op: 'equals', value: true }],
        elected_in: { election_id: 1, position_ids: [11] },
      },
    };
    const calls = server({ list: [withRules, annual] });
    await renderWithProviders(<ElectionsPage />, '/admin/elections', { validateSearch: electionSearch });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Nairobi by-election' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Nairobi by-election' });
    const rules = within(dialog).getByRole('group', { name: 'Rules every voter must meet' });
    expect(await within(rules).findByText('Subscription paid: yes')).toBeTruthy();
    expect((within(dialog).getByLabelText(/Only members elected in another election/) as HTMLSelectElement).value).toBe('1');
    const positions = await within(dialog).findByRole('list', { name: 'Positions they were elected to' });
    expect(within(positions).getByRole('checkbox', { name: 'Delegate - Nairobi' }).getAttribute('aria-checked')).toBe('true');

    // Only the title: the electorate is not sent (the server refuses it once the roll froze).
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'Nairobi by-election 2026' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Election saved: Nairobi by-election 2026')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Nairobi by-election' }));
    const next = await screen.findByRole('dialog', { name: 'Edit Nairobi by-election' });
    fireEvent.change(within(next).getByLabelText('Rule 1 Value'), { target: { value: 'false' } });
    expect(within(next).getByText('Subscription paid: no')).toBeTruthy();
    fireEvent.click(within(next).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(callsTo(calls, contract.api.organisation.updateElectionById)).toHaveLength(2));
    expect(callsTo(calls, contract.api.organisation.updateElectionById).map((c) => c.body)).toEqual([
      { title: 'Nairobi by-election 2026' },
      { electorate: { branch_ids: [4], rules: [{ attribute: 'paid', op: 'equals', value: false }] } },
    ]);
  });

  it('creates an election that takes nominations: the window on the organisation clock and the appeal days', async () => {
    const calls = server();
    await renderWithProviders(<ElectionsPage />, '/admin/elections', { validateSearch: electionSearch });
    fireEvent.click(await screen.findByRole('button', { name: 'New election' }));
    const dialog = await screen.findByRole('dialog', { name: 'New election' });
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'Annual election 2027' } });
    expect(within(dialog).getByText('No nominations: staff enter the candidates.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Members nominate candidates in a window' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create election' }));
    expect(await within(dialog).findByText('Enter when nominations open')).toBeTruthy();
    expect(within(dialog).getByText('Enter when nominations close')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Nominations open'), { target: { value: '2027-02-01T08:00' } });
    fireEvent.change(within(dialog).getByLabelText('Nominations close'), { target: { value: '2027-01-15T17:00' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create election' }));
    expect(await within(dialog).findByText('Nominations must close after they open')).toBeTruthy();
    expect(callsTo(calls, contract.api.organisation.createElection)).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Nominations close'), { target: { value: '2027-02-15T17:00' } });
    fireEvent.change(within(dialog).getByLabelText('Days to appeal'), { target: { value: '5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create election' }));
    expect(await screen.findByText('Election created: Annual election 2027')).toBeTruthy();
    expect(callsTo(calls, contract.api.organisation.createElection)[0]!.body).toEqual({
      title: 'Annual election 2027',
      results_visibility: 'live',
      electorate: { branch_ids: null },
      // 08:00 and 17:00 in Nairobi (UTC+3)
      nominations: { opens_at: '2027-02-01T05:00:00.000Z', closes_at: '2027-02-15T14:00:00.000Z', appeal_days: 5 },
    });
  });

  it("edits an election's nominations window: shows the stored one, sends a change, and null to stop nominations", async () => {
    const window = { opens_at: '2026-05-01T05:00:00.000Z', closes_at: '2026-05-10T14:00:00.000Z', appeal_days: 3 };
    const calls = server({ list: [{ ...by, nominations: window }, annual] });
    await renderWithProviders(<ElectionsPage />, '/admin/elections', { validateSearch: electionSearch });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Nairobi by-election' }));
    let dialog = await screen.findByRole('dialog', { name: 'Edit Nairobi by-election' });
    expect(within(dialog).getByRole('checkbox', { name: 'Members nominate candidates in a window' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    expect((within(dialog).getByLabelText('Nominations open') as HTMLInputElement).value).toBe('2026-05-01T08:00');
    expect((within(dialog).getByLabelText('Nominations close') as HTMLInputElement).value).toBe('2026-05-10T17:00');
    expect((within(dialog).getByLabelText('Days to appeal') as HTMLInputElement).value).toBe('3');
    fireEvent.change(within(dialog).getByLabelText('Days to appeal'), { target: { value: '7' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Election saved: Nairobi by-election')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Edit Nairobi by-election' }));
    dialog = await screen.findByRole('dialog', { name: 'Edit Nairobi by-election' });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Members nominate candidates in a window' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(callsTo(calls, contract.api.organisation.updateElectionById)).toHaveLength(2));
    expect(callsTo(calls, contract.api.organisation.updateElectionById).map((c) => c.body)).toEqual([
      { nominations: { ...window, appeal_days: 7 } },
      { nominations: null },
    ]);
  });

  it('saves an election with rules while the attributes cannot be read, as long as its rules are left as they were', async () => {
    const withRules: Election = { ...by, electorate: { branch_ids: null, rules: [{ attribute: 'paid', op: 'equals', value: true }] } };
    const calls = server({ list: [withRules, annual], attributes: 500 });
    await renderWithProviders(<ElectionsPage />, '/admin/elections', { validateSearch: electionSearch });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Nairobi by-election' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Nairobi by-election' });
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'Nairobi by-election 2026' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Election saved: Nairobi by-election 2026')).toBeTruthy();
    expect(callsTo(calls, contract.api.organisation.updateElectionById).map((c) => c.body)).toEqual([
      { title: 'Nairobi by-election 2026' },
    ]);

    fireEvent.click(await screen.findByRole('button', { name: 'Edit Nairobi by-election' }));
    const again = await screen.findByRole('dialog', { name: 'Edit Nairobi by-election' });
    fireEvent.click(within(again).getByRole('button', { name: 'Remove rule 1' }));
    fireEvent.click(within(again).getByRole('button', { name: 'Save changes' }));
    expect(await within(again).findByText('The member attributes could not be loaded')).toBeTruthy();
    expect(callsTo(calls, contract.api.organisation.updateElectionById)).toHaveLength(1);
  });
});
