import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { contract, type Candidate, type Election, type Position } from '@kura/contract';
import { callsTo, paginator, stub, stubRoutes, type RouteStub } from '@/test/fetch';
import { anElection } from '@/test/elections';
import { aPosition } from '@/test/positions';
import { ADD_AGENT_TEXT, SetupPage } from './setup-page';

afterEach(() => vi.unstubAllGlobals());

const election: Election = anElection(1, '', { organisation: '', time_zone: 'UTC' });

/** The set-up page's reads with nothing set up yet; the `first` stubs answer before these. */
const setupStubs = (...first: RouteStub[]) =>
  stubRoutes(
    ...first,
    stub(contract.api.elections.getElection, { status: 200, body: { data: election } }),
    stub(contract.api.members.listBranches, { status: 200, body: { data: { data: [] } } }),
    stub(contract.api.members.listCandidatePositions, { status: 200, body: { data: { data: [] } } }),
    stub(contract.api.candidates.listCandidates, { status: 200, body: { data: { data: { candidates: [] } } } }),
    stub(contract.api.setup.listAgents, { status: 200, body: { data: [] } }),
    stub(contract.api.members.listMembers, { status: 200, body: { ...paginator([], 1, 1, 1), total: 0 } }),
  );

const checklistItem = (label: string) =>
  within(screen.getByRole('list', { name: 'Set-up checklist' }))
    .getByText(label)
    .closest('li')!;

describe('set-up page', () => {
  it('adds a branch and a position, shows a 409 and ticks the checklist as the election is set up', async () => {
    const branches: { id: number; name: string }[] = [];
    const positions: Position[] = [];
    let texts = { ...election };
    const calls = setupStubs(
      stub(contract.api.elections.getElection, () => ({ status: 200, body: { data: texts } })),
      stub(contract.api.elections.updateElection, ({ body }) => {
        texts = { ...texts, ...(body as object) };
        return { status: 200, body: { data: texts } };
      }),
      stub(contract.api.members.listBranches, () => ({ status: 200, body: { data: { data: branches } } })),
      stub(contract.api.setup.createBranch, ({ body }) => {
        const name = (body as { name: string }).name;
        if (branches.some((b) => b.name === name)) return { status: 409, body: { message: 'A branch of that name exists' } };
        const b = { id: branches.length + 1, name };
        branches.push(b);
        return { status: 201, body: { data: b } };
      }),
      stub(contract.api.members.listCandidatePositions, () => ({ status: 200, body: { data: { data: positions } } })),
      stub(contract.api.setup.createPosition, ({ body }) => {
        const b = body as { name: string; seats: number; description: string | null; branch_id?: number | null };
        const branch = branches.find((x) => x.id === b.branch_id);
        const p = aPosition(positions.length + 1, b.name, {
          seats: b.seats,
          description: b.description,
          branch_id: branch?.id ?? null,
          level: branch?.name ?? 'National',
        });
        positions.push(p);
        return { status: 201, body: { data: [p] } };
      }),
    );
    await renderWithProviders(<SetupPage />, '/admin/setup');

    await waitFor(() => expect(checklistItem('Branches').textContent).toContain('Add at least one branch.'));
    expect(checklistItem('Positions').textContent).toContain('Add at least one position.');
    expect(checklistItem('Organisation texts').textContent).toContain('(to do)');
    // No agent yet: the item says who adds one and how.
    await waitFor(() => expect(checklistItem('Agents').textContent).toContain(ADD_AGENT_TEXT));
    expect(checklistItem('Agents').textContent).toContain('(to do)');

    // organisation texts
    await waitFor(() => expect(callsTo(calls, contract.api.elections.getElection).length > 0).toBe(true));
    fireEvent.change(screen.getByLabelText('Election title'), { target: { value: 'Annual election 2026' } });
    fireEvent.change(screen.getByLabelText('Organisation name'), { target: { value: 'Teachers Union' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save organisation texts' }));
    await waitFor(() => expect(checklistItem('Organisation texts').textContent).toContain('Teachers Union: Annual election 2026'));
    expect(callsTo(calls, contract.api.elections.updateElection)[0]!.body).toEqual({
      title: 'Annual election 2026',
      organisation: 'Teachers Union',
      website: null,
      support_email: null,
    });

    // a branch
    fireEvent.change(screen.getByLabelText('New branch name'), { target: { value: 'Nairobi' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add branch' }));
    expect(await within(screen.getByRole('list', { name: 'Branches' })).findByText('Nairobi')).toBeTruthy();
    await waitFor(() => expect(checklistItem('Branches').textContent).toContain('1 branch'));
    expect(checklistItem('Branches').textContent).toContain('(done)');

    // the same name again: the 409 is shown
    fireEvent.change(screen.getByLabelText('New branch name'), { target: { value: 'Nairobi' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add branch' }));
    expect((await screen.findByRole('alert')).textContent).toBe('A branch of that name exists');

    // a position of that branch, two seats
    fireEvent.change(screen.getByLabelText('New position name'), { target: { value: 'Delegate' } });
    fireEvent.change(screen.getByLabelText('Seats'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('Elected by'), { target: { value: 'branch' } });
    fireEvent.change(screen.getByLabelText('Branch'), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add position' }));
    expect(await within(screen.getByRole('list', { name: 'Positions' })).findByText('Delegate - Nairobi')).toBeTruthy();
    expect(callsTo(calls, contract.api.setup.createPosition)[0]!.body).toEqual({
      name: 'Delegate',
      kind: 'candidates',
      seats: 2,
      method: 'plurality',
      description: null,
      branch_id: 1,
    });
    await waitFor(() => expect(checklistItem('Positions').textContent).toContain('1 position'));
    expect(checklistItem('Candidates').textContent).toContain('No candidate for: Delegate - Nairobi');
    expect(checklistItem('Members').textContent).toContain('(to do)');
    expect(checklistItem('Schedule').textContent).toContain('Set the opening and closing times');
    expect(screen.getByRole('button', { name: 'Delete Delegate - Nairobi' })).toBeTruthy();
  }, 30_000);

  it("puts the server's 422 on the organisation texts under its field", async () => {
    const calls = setupStubs(
      stub(contract.api.elections.updateElection, {
        status: 422,
        body: { message: 'The given data was invalid', errors: { organisation: ['Must be at most 200 characters long'] } },
      }),
      stub(contract.api.elections.getElection, { status: 200, body: { data: { ...election, organisation: 'Teachers Union' } } }),
    );
    await renderWithProviders(<SetupPage />, '/admin/setup');
    const name = (await screen.findByLabelText('Organisation name')) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Teachers Union'));
    fireEvent.change(name, { target: { value: 'Teachers Union of Kenya' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save organisation texts' }));
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(callsTo(calls, contract.api.elections.updateElection)[0]!.body).toMatchObject({ organisation: 'Teachers Union of Kenya' });
    const described = name.getAttribute('aria-describedby')!.split(' ');
    expect(described.map((id) => document.getElementById(id)?.textContent)).toContain('Must be at most 200 characters long');
    expect(screen.getByText('Failed to save the organisation texts')).toBeTruthy();
  });

  it('ticks Agents once an agent exists', async () => {
    setupStubs(
      stub(contract.api.setup.listAgents, { status: 200, body: { data: [{ id: 2, name: 'Amina', email: 'amina@coop.example' }] } }),
    );
    await renderWithProviders(<SetupPage />, '/admin/setup');
    await waitFor(() => expect(checklistItem('Agents').textContent).toContain('1 agent (observers)'));
    expect(checklistItem('Agents').textContent).toContain('(done)');
  });

  it('ticks Schedule when voting runs on the switch alone, and asks for it before', async () => {
    for (const [phase, text, state] of [
      ['setup', 'Set the opening and closing times', '(to do)'],
      ['open', 'opened and closed with the switch', '(done)'],
    ] as const) {
      setupStubs(
        stub(contract.api.elections.getElection, {
          status: 200,
          body: { data: { ...election, phase, opens_at: null, closes_at: null } },
        }),
      );
      const view = await renderWithProviders(<SetupPage />, '/admin/setup');
      await waitFor(() => expect(checklistItem('Schedule').textContent).toContain(text));
      expect(checklistItem('Schedule').textContent).toContain(state);
      view.unmount();
    }
  });

  it('moves a position with one PUT of the whole order; a refusal shows and nothing is half-moved', async () => {
    let positions = [aPosition(1, 'Chair'), aPosition(2, 'Secretary'), aPosition(3, 'Treasurer')];
    let refuse = false;
    const calls = setupStubs(
      stub(contract.api.members.listCandidatePositions, () => ({ status: 200, body: { data: { data: positions } } })),
      stub(contract.api.setup.reorderPositions, ({ body }) => {
        if (refuse) return { status: 409, body: { message: 'Votes have been cast for Chair National, so it can no longer be moved' } };
        const ids = (body as { position_ids: number[] }).position_ids;
        positions = ids.map((id) => positions.find((p) => p.id === id)!);
        return { status: 200, body: { data: positions } };
      }),
    );
    await renderWithProviders(<SetupPage />, '/admin/setup');
    const list = () => within(screen.getByRole('list', { name: 'Positions' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Move Chair - National down' }));
    await waitFor(() =>
      expect(
        list()
          .getAllByText(/ - National$/)
          .map((e) => e.textContent),
      ).toEqual(['Secretary - National', 'Chair - National', 'Treasurer - National']),
    );
    const puts = calls.filter((c) => c.method === 'PUT' || c.method === 'PATCH');
    expect(puts).toEqual([expect.objectContaining({ method: 'PUT', path: '/positions/order', body: { position_ids: [2, 1, 3] } })]);

    refuse = true;
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Treasurer - National up' }).hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Move Treasurer - National up' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Votes have been cast for Chair National, so it can no longer be moved');
    expect(
      list()
        .getAllByText(/ - National$/)
        .map((e) => e.textContent),
    ).toEqual(['Secretary - National', 'Chair - National', 'Treasurer - National']);
    expect(callsTo(calls, contract.api.setup.updatePosition)).toEqual([]);
  });

  describe('motions and voting methods (docs/api.md "Many elections, motions and ranked counts")', () => {
    type Pos = Position;
    const setupServer = (positions: Pos[], candidates: Candidate[] = []) =>
      setupStubs(
        stub(contract.api.members.listCandidatePositions, () => ({ status: 200, body: { data: { data: positions } } })),
        stub(contract.api.register.getAttributes, {
          status: 200,
          body: {
            data: [
              { key: 'shares', label: 'Shares (KSh)', type: 'number' },
              { key: 'date_joined', label: 'Joined', type: 'date' },
            ],
          },
        }),
        stub(contract.api.setup.createPosition, ({ body }) => {
          const b = body as Partial<Pos>;
          const p: Pos = {
            id: positions.length + 1,
            name: b.name!,
            level: 'National',
            seats: b.seats ?? 1,
            description: b.description ?? null,
            branch_id: null,
            kind: b.kind ?? 'candidates',
            method: b.kind === 'motion' ? null : (b.method ?? 'plurality'),
            threshold: b.kind === 'motion' ? (b.threshold ?? 'majority') : null,
            quorum_percent: b.quorum_percent ?? null,
          };
          positions.push(p);
          return { status: 201, body: { data: [p] } };
        }),
        stub(contract.api.setup.updatePosition, ({ path, body }) => {
          const i = positions.findIndex((p) => p.id === Number(path.split('/').pop()));
          positions[i] = { ...positions[i]!, ...(body as object) };
          return { status: 200, body: { data: positions[i]! } };
        }),
        stub(contract.api.candidates.listCandidates, { status: 200, body: { data: { data: { candidates } } } }),
      );

    it('adds a motion with its threshold and quorum (no seats, no method, no candidates) and a ranked position', async () => {
      const positions: Pos[] = [];
      const calls = setupServer(positions);
      await renderWithProviders(<SetupPage />, '/admin/setup');
      await waitFor(() => expect(checklistItem('Positions').textContent).toContain('Add at least one position.'));

      fireEvent.change(screen.getByLabelText('New position name'), { target: { value: 'Adopt the budget' } });
      fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'motion' } });
      expect(screen.queryByLabelText('Seats')).toBeNull();
      expect(screen.queryByLabelText('Voting method')).toBeNull();
      fireEvent.change(screen.getByLabelText('Threshold'), { target: { value: 'two_thirds' } });
      // a quorum out of range: the contract's message, nothing sent
      fireEvent.change(screen.getByLabelText('Quorum (%)'), { target: { value: '101' } });
      fireEvent.change(screen.getByLabelText('Motion text (optional)'), { target: { value: 'That the budget be adopted.' } });
      fireEvent.click(screen.getByRole('button', { name: 'Add position' }));
      expect(await screen.findByText('The quorum must be at most 100 percent')).toBeTruthy();
      expect(callsTo(calls, contract.api.setup.createPosition).length > 0).toBe(false);
      fireEvent.change(screen.getByLabelText('Quorum (%)'), { target: { value: '40' } });
      fireEvent.click(screen.getByRole('button', { name: 'Add position' }));
      const list = () => within(screen.getByRole('list', { name: 'Positions' }));
      expect(await list().findByText('Adopt the budget - National')).toBeTruthy();
      expect(callsTo(calls, contract.api.setup.createPosition)[0]!.body).toEqual({
        name: 'Adopt the budget',
        kind: 'motion',
        threshold: 'two_thirds',
        quorum_percent: 40,
        description: 'That the budget be adopted.',
        branch_id: null,
      });
      expect(list().getByText(/Motion · two thirds · quorum 40%/)).toBeTruthy();
      // a motion takes no candidates: no "Add a candidate" and the checklist is satisfied
      expect(screen.queryByRole('button', { name: 'Add a candidate for Adopt the budget - National' })).toBeNull();
      await waitFor(() => expect(checklistItem('Candidates').textContent).toContain('Motions need no candidates.'));
      expect(checklistItem('Candidates').textContent).toContain('(done)');

      // a ranked candidates position: the checklist now asks for its candidates only
      fireEvent.change(screen.getByLabelText('New position name'), { target: { value: 'Chair' } });
      fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'candidates' } });
      fireEvent.change(screen.getByLabelText('Voting method'), { target: { value: 'ranked' } });
      fireEvent.change(screen.getByLabelText('Seats'), { target: { value: '2' } });
      fireEvent.click(screen.getByRole('button', { name: 'Add position' }));
      expect(await list().findByText('Chair - National')).toBeTruthy();
      expect(callsTo(calls, contract.api.setup.createPosition)[1]!.body).toEqual({
        name: 'Chair',
        kind: 'candidates',
        seats: 2,
        method: 'ranked',
        description: null,
        branch_id: null,
      });
      expect(list().getByText(/2 seats · ranked/)).toBeTruthy();
      await waitFor(() => expect(checklistItem('Candidates').textContent).toContain('No candidate for: Chair - National'));
      expect(checklistItem('Candidates').textContent).not.toContain('Adopt the budget');
    }, 30_000);

    it('adds a position with rules on who may stand, said in words, and members\' nominations (docs/api.md "The register", "Nominations")', async () => {
      const positions: Pos[] = [];
      const calls = setupServer(positions);
      await renderWithProviders(<SetupPage />, '/admin/setup');
      fireEvent.change(await screen.findByLabelText('New position name'), { target: { value: 'Treasurer' } });
      const rules = screen.getByRole('group', { name: 'Who may stand: rules every candidate must meet' });
      fireEvent.click(await within(rules).findByRole('button', { name: 'Add a rule' }));
      fireEvent.change(within(rules).getByLabelText('Rule 1 Value'), { target: { value: '20000' } });
      expect(within(rules).getByText('Shares (KSh) at least 20000')).toBeTruthy();
      fireEvent.click(within(rules).getByRole('button', { name: 'Add a rule' }));
      fireEvent.change(within(rules).getByLabelText('Rule 2 Attribute'), { target: { value: 'date_joined' } });
      fireEvent.change(within(rules).getByLabelText('Rule 2 Compared with'), { target: { value: 'years_before' } });
      fireEvent.change(within(rules).getByLabelText('Rule 2 Value'), { target: { value: '2' } });
      expect(within(rules).getByText('Joined at least 2 years before voting opens')).toBeTruthy();

      expect(screen.getByText('Staff enter its candidates.')).toBeTruthy();
      fireEvent.click(screen.getByRole('checkbox', { name: 'Members nominate its candidates' }));
      // no proposer and no self-nomination: the contract's message, nothing sent
      fireEvent.change(screen.getByLabelText('Proposers'), { target: { value: '0' } });
      fireEvent.click(screen.getByRole('button', { name: 'Add position' }));
      expect(await screen.findByText('Without self-nomination a nomination needs at least one proposer')).toBeTruthy();
      expect(callsTo(calls, contract.api.setup.createPosition).length > 0).toBe(false);
      fireEvent.change(screen.getByLabelText('Proposers'), { target: { value: '2' } });
      fireEvent.change(screen.getByLabelText('Seconders'), { target: { value: '3' } });
      fireEvent.click(screen.getByRole('checkbox', { name: "Supporters must be of the nominee's branch" }));
      fireEvent.click(screen.getByRole('button', { name: 'Add position' }));
      expect(await within(screen.getByRole('list', { name: 'Positions' })).findByText('Treasurer - National')).toBeTruthy();
      expect(callsTo(calls, contract.api.setup.createPosition)[0]!.body).toEqual({
        name: 'Treasurer',
        kind: 'candidates',
        seats: 1,
        method: 'plurality',
        description: null,
        branch_id: null,
        nomination: { proposers: 2, seconders: 3, same_branch: true, self: false },
        eligibility: [
          { attribute: 'shares', op: 'at_least', value: 20000 },
          { attribute: 'date_joined', op: 'on_or_before', value: { years_before: 2 } },
        ],
      });
    }, 30_000);

    it("edits a position's rules and nomination: the stored ones shown, the new ones sent, staff-only as null", async () => {
      const positions: Pos[] = [
        {
          id: 2,
          name: 'Board',
          level: 'National',
          seats: 3,
          description: null,
          branch_id: null,
          kind: 'candidates',
          method: 'plurality',
          threshold: null,
          quorum_percent: null,
          eligibility: [{ attribute: 'shares', op: 'at_least', value: 5000 }],
          nomination: { proposers: 1, seconders: 2, same_branch: false, self: true },
        },
      ];
      const calls = setupServer(positions);
      await renderWithProviders(<SetupPage />, '/admin/setup');
      // the list says both in words
      expect(await screen.findByText('Nominated by members: 1 proposer, 2 seconders')).toBeTruthy();
      expect(await screen.findByText('Who may stand: Shares (KSh) at least 5000')).toBeTruthy();
      fireEvent.click(await screen.findByRole('button', { name: 'Edit Board - National' }));
      const row = within(screen.getByRole('list', { name: 'Positions' }));
      expect(await row.findByText('Shares (KSh) at least 5000')).toBeTruthy();
      expect((row.getByLabelText('Proposers') as HTMLInputElement).value).toBe('1');
      expect((row.getByLabelText('Seconders') as HTMLInputElement).value).toBe('2');
      expect(row.getByRole('checkbox', { name: 'A member may nominate themselves' }).getAttribute('aria-checked')).toBe('true');
      fireEvent.change(row.getByLabelText('Rule 1 Value'), { target: { value: '10000' } });
      fireEvent.click(row.getByRole('checkbox', { name: 'Members nominate its candidates' }));
      fireEvent.click(row.getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(callsTo(calls, contract.api.setup.updatePosition).length > 0).toBe(true));
      expect(callsTo(calls, contract.api.setup.updatePosition)[0]!.body).toMatchObject({
        eligibility: [{ attribute: 'shares', op: 'at_least', value: 10000 }],
        nomination: null,
      });
    }, 30_000);

    it('edits a motion threshold and quorum, and a candidates position method, each with its own fields', async () => {
      const positions: Pos[] = [
        {
          id: 1,
          name: 'Budget',
          level: 'National',
          seats: 1,
          description: 'Adopt it',
          branch_id: null,
          kind: 'motion',
          method: null,
          threshold: 'majority',
          quorum_percent: 25,
        },
        {
          id: 2,
          name: 'Board',
          level: 'National',
          seats: 3,
          description: null,
          branch_id: null,
          kind: 'candidates',
          method: 'plurality',
          threshold: null,
          quorum_percent: null,
        },
      ];
      const achieng: Candidate = {
        id: 5,
        member_no: '1005',
        name: 'Achieng',
        phone: '+254712345605',
        email: '',
        county: 'Nairobi',
        image_url: null,
        statement: null,
        positions: [positions[1]!],
      };
      const calls = setupServer(positions, [achieng]);
      await renderWithProviders(<SetupPage />, '/admin/setup');
      // the edit form opens in the position's row, above the add form
      const edit = () => within(screen.getByRole('list', { name: 'Positions' }));
      await waitFor(() => expect(checklistItem('Candidates').textContent).toContain('Every position has a candidate (motions need none).'));

      fireEvent.click(await screen.findByRole('button', { name: 'Edit Budget - National' }));
      expect((edit().getByLabelText('Quorum (%)') as HTMLInputElement).value).toBe('25');
      expect(edit().queryByLabelText('Seats')).toBeNull();
      fireEvent.change(edit().getByLabelText('Threshold'), { target: { value: 'three_quarters' } });
      fireEvent.change(edit().getByLabelText('Quorum (%)'), { target: { value: '' } });
      fireEvent.click(edit().getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(callsTo(calls, contract.api.setup.updatePosition).length > 0).toBe(true));
      expect(callsTo(calls, contract.api.setup.updatePosition)[0]).toMatchObject({
        path: '/positions/1',
        body: { name: 'Budget', description: 'Adopt it', threshold: 'three_quarters', quorum_percent: null },
      });
      expect(await screen.findByText(/Motion · three quarters/)).toBeTruthy();

      fireEvent.click(await screen.findByRole('button', { name: 'Edit Board - National' }));
      expect(edit().queryByLabelText('Threshold')).toBeNull();
      fireEvent.change(edit().getByLabelText('Voting method'), { target: { value: 'approval' } });
      fireEvent.click(edit().getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(callsTo(calls, contract.api.setup.updatePosition)).toHaveLength(2));
      expect(callsTo(calls, contract.api.setup.updatePosition)[1]).toMatchObject({
        path: '/positions/2',
        body: { name: 'Board', seats: 3, description: null, method: 'approval' },
      });
      expect(await screen.findByText(/3 seats · approval/)).toBeTruthy();
    }, 30_000);
  });
});
