import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { contract, type BallotGroup } from '@kura/contract';
import { callsTo, stub, stubRoutes, type RouteReply } from '@/test/fetch';
import { aBallotGroup, aCandidate } from '@/test/ballots';
import userEvent from '@testing-library/user-event';
import { Elect } from '@/components/voter/elect-page';
import { choiceValue } from '@/components/ballot/ballot-form';
import { motionRule } from '@/lib/motion-rule';

const ballot = [
  aBallotGroup(1, 'chairperson national', [
    aCandidate(11, 'Jane Wanjiku', { photo: '/uploads/jane.png' }),
    aCandidate(12, 'Otieno Omondi'),
  ]),
  aBallotGroup(2, 'treasurer national', [aCandidate(21, 'Amina Hassan')]),
  aBallotGroup(3, 'secretary national', []),
];

/** The voter's server: the ballot `groups`, voting `active` or not, POST psk/vote answered by `vote`. */
function server(opts: { groups?: BallotGroup[]; active?: '1' | '0'; vote?: RouteReply<typeof contract.api.ballots.castVote> } = {}) {
  return stubRoutes(
    stub(contract.api.ballots.getBallot, { status: 200, body: { data: opts.groups ?? ballot } }),
    stub(contract.api.elections.getElectionStatus, { status: 200, body: { active: opts.active ?? '1' } }),
    stub(contract.api.vvpat.getMyVvpat, { status: 200, body: { data: { votes: [] } } }),
    stub(contract.api.ballots.castVote, opts.vote ?? { status: 201, body: { message: 'Successfully voted', receipts: [] } }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
});

describe('voter ballot (docs/screens.md "Ballot and results")', () => {
  it('groups radios per position: name = position, value = candidate id, with name/photo/position id', async () => {
    server();
    await renderWithProviders(<Elect />, '/voter/elect');
    // The heading as the admin typed it: never re-cased (issue 37).
    expect(await screen.findByRole('heading', { name: 'chairperson national' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'treasurer national' })).toBeTruthy();
    // a position with no candidates shows nothing
    expect(screen.queryByText(/secretary national/i)).toBeNull();
    const jane = screen.getByRole('radio', { name: 'Jane Wanjiku' }) as HTMLInputElement;
    expect(jane.name).toBe('chairperson national');
    expect(jane.value).toBe('11');
    expect(jane.dataset.name).toBe('Jane Wanjiku');
    expect(jane.dataset.photo).toBe('/uploads/jane.png');
    expect(jane.dataset.positionId).toBe('1');
    const otieno = screen.getByRole('radio', { name: 'Otieno Omondi' }) as HTMLInputElement;
    fireEvent.click(jane);
    fireEvent.click(otieno);
    expect(jane.checked).toBe(false);
    expect(otieno.checked).toBe(true);
  });

  it('asks "Are you sure?"; cancel resets the choices', async () => {
    const calls = server();
    await renderWithProviders(<Elect />, '/voter/elect');
    fireEvent.click(await screen.findByRole('radio', { name: 'Jane Wanjiku' }));
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Are you sure?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect((screen.getByRole('radio', { name: 'Jane Wanjiku' }) as HTMLInputElement).checked).toBe(false);
    expect(callsTo(calls, contract.api.ballots.castVote).length > 0).toBe(false);
  });

  it('posts {candidates: {position_id: candidate_id}} on "Cast my vote" and shows the voted banner and toast', async () => {
    const calls = server();
    await renderWithProviders(<Elect />, '/voter/elect');
    fireEvent.click(await screen.findByRole('radio', { name: 'Otieno Omondi' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Amina Hassan' }));
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cast my vote' }));
    expect(await screen.findByText('You have successfully voted')).toBeTruthy();
    expect(await screen.findAllByText('Successfully voted')).not.toHaveLength(0);
    const vote = callsTo(calls, contract.api.ballots.castVote)[0];
    expect(vote?.method).toBe('POST');
    expect(vote?.body).toEqual({ candidates: { '1': 12, '2': 21 } });
  });

  it("shows 'Unable to process vote,' with the server message on failure", async () => {
    server({ vote: { status: 409, body: { message: 'You have already voted for Chairperson National' } } });
    await renderWithProviders(<Elect />, '/voter/elect');
    fireEvent.click(await screen.findByRole('radio', { name: 'Jane Wanjiku' }));
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cast my vote' }));
    expect(await screen.findByText('Unable to process vote, You have already voted for Chairperson National')).toBeTruthy();
    expect(screen.queryByText('You have successfully voted')).toBeNull();
  });

  it('says plainly when voting is disabled and disables Vote', async () => {
    server({ active: '0' });
    await renderWithProviders(<Elect />, '/voter/elect');
    expect(await screen.findByText(/Voting is currently disabled/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Vote' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('keeps the rest of the ballot votable after voting for some positions', async () => {
    const calls = server({
      vote: { status: 201, body: { message: 'Successfully voted', receipts: [{ position_id: 1, vvpat: 'VP-AAAA-BBBB' }] } },
    });
    await renderWithProviders(<Elect />, '/voter/elect');
    fireEvent.click(await screen.findByRole('radio', { name: 'Jane Wanjiku' }));
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cast my vote' }));
    expect(await screen.findByText('You have successfully voted')).toBeTruthy();
    // The voted position is done; the other one can still be chosen and voted for, without a reload.
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Jane Wanjiku' }).matches(':disabled')).toBe(true));
    expect(screen.getByText('You have already voted for this position.')).toBeTruthy();
    const amina = screen.getByRole('radio', { name: 'Amina Hassan' }) as HTMLInputElement;
    expect(amina.matches(':disabled')).toBe(false);
    fireEvent.click(amina);
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cast my vote' }));
    await waitFor(() => expect(callsTo(calls, contract.api.ballots.castVote)).toHaveLength(2));
    expect(callsTo(calls, contract.api.ballots.castVote).map((c) => c.body)).toEqual([
      { candidates: { '1': 11 } },
      { candidates: { '2': 21 } },
    ]);
  }, 20_000);

  it.each(['Cancel', 'Escape'])('%s closes the dialog, clears the choices and returns focus to Vote', async (how) => {
    server();
    await renderWithProviders(<Elect />, '/voter/elect');
    fireEvent.click(await screen.findByRole('radio', { name: 'Jane Wanjiku' }));
    const vote = screen.getByRole('button', { name: 'Vote' });
    fireEvent.click(vote);
    const dialog = await screen.findByRole('alertdialog');
    if (how === 'Cancel') fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    else fireEvent.keyDown(document.activeElement ?? dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect((screen.getByRole('radio', { name: 'Jane Wanjiku' }) as HTMLInputElement).checked).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Vote' })));
  });

  it('returns focus to Vote after Cast my vote', async () => {
    server();
    await renderWithProviders(<Elect />, '/voter/elect');
    fireEvent.click(await screen.findByRole('radio', { name: 'Jane Wanjiku' }));
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cast my vote' }));
    expect(await screen.findByText('You have successfully voted')).toBeTruthy();
    await waitFor(() => expect(document.activeElement?.textContent).toMatch(/^Vot(e|ing…)$/));
  });
});

describe('a position with several seats', () => {
  const board = aBallotGroup(
    7,
    'board member national',
    [
      aCandidate(71, 'Achieng A', { statement: 'Ten years on the credit committee.' }),
      aCandidate(72, 'Barasa B'),
      aCandidate(73, 'Chebet C'),
      aCandidate(74, 'Daudi D'),
    ],
    { seats: 3 },
  );
  const treasurer = aBallotGroup(8, 'treasurer national', [aCandidate(81, 'Tresa T')]);
  const multiServer = () => server({ groups: [board, treasurer] });

  it('has checkboxes that stop at the number of seats ("Choose up to 3"), radios for one seat, and posts a list', async () => {
    const calls = multiServer();
    await renderWithProviders(<Elect />, '/voter/elect');
    expect(await screen.findByText('Choose up to 3 (0 chosen)')).toBeTruthy();
    const box = (name: RegExp) => screen.getByRole('checkbox', { name }) as HTMLInputElement;
    expect(screen.getByRole('radio', { name: 'Tresa T' })).toBeTruthy();
    fireEvent.click(box(/Achieng A/));
    fireEvent.click(box(/Barasa B/));
    fireEvent.click(box(/Daudi D/));
    expect(screen.getByText('Choose up to 3 (3 chosen)')).toBeTruthy();
    // Full: the fourth cannot be ticked until one is unticked.
    expect(box(/Chebet C/).disabled).toBe(true);
    fireEvent.click(box(/Barasa B/));
    expect(box(/Chebet C/).disabled).toBe(false);
    fireEvent.click(box(/Chebet C/));
    fireEvent.click(screen.getByRole('radio', { name: 'Tresa T' }));
    // The statement is on the ballot, collapsed.
    expect(screen.getByText('Read statement')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(/Achieng A, Daudi D, Chebet C/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cast my vote' }));
    await waitFor(() => expect(callsTo(calls, contract.api.ballots.castVote).length > 0).toBe(true));
    expect(callsTo(calls, contract.api.ballots.castVote)[0]?.body).toEqual({ candidates: { '7': [71, 74, 73], '8': 81 } });
  });
});

describe('motions, approval and ranked positions (docs/api.md "Many elections, motions and ranked counts")', () => {
  const motion: BallotGroup = {
    title: 'adopt the budget',
    position_id: 20,
    seats: 1,
    kind: 'motion',
    method: null,
    threshold: 'two_thirds',
    quorum_percent: 40,
    description: 'That the 2027 budget be adopted.',
    candidates: [
      { id: 201, name: 'Yes', photo: null, statement: null },
      { id: 202, name: 'No', photo: null, statement: null },
      { id: 203, name: 'Abstain', photo: null, statement: null },
    ],
  };
  const approval: BallotGroup = {
    title: 'committee national',
    position_id: 21,
    seats: 2,
    kind: 'candidates',
    method: 'approval',
    threshold: null,
    quorum_percent: null,
    description: null,
    candidates: [
      { id: 211, name: 'Ann A', photo: null, statement: null },
      { id: 212, name: 'Ben B', photo: null, statement: null },
      { id: 213, name: 'Cy C', photo: null, statement: null },
    ],
  };
  const ranked: BallotGroup = {
    title: 'chair national',
    position_id: 22,
    seats: 1,
    kind: 'candidates',
    method: 'ranked',
    threshold: null,
    quorum_percent: null,
    description: null,
    candidates: [
      { id: 221, name: 'Dee D', photo: null, statement: null },
      { id: 222, name: 'Eve E', photo: null, statement: null },
      { id: 223, name: 'Fay F', photo: null, statement: null },
    ],
  };
  const kindsServer = (groups: BallotGroup[]) => server({ groups });

  it.each([
    ['majority', null, 'Passes if more than half of Yes and No votes are Yes.'],
    ['two_thirds', null, 'Passes if at least two thirds of Yes and No votes are Yes.'],
    [
      'three_quarters',
      25,
      'Passes if at least three quarters of Yes and No votes are Yes and at least 25% of members on the roll vote on it.',
    ],
  ] as const)('words the %s rule (quorum %s) plainly', (threshold, quorum, text) => {
    expect(motionRule(threshold, quorum)).toBe(text);
  });

  it('shows a motion with its text, rule and quorum, and posts the one option chosen', async () => {
    const calls = kindsServer([motion]);
    await renderWithProviders(<Elect />, '/voter/elect');
    expect(await screen.findByText('That the 2027 budget be adopted.')).toBeTruthy();
    expect(
      screen.getByText('Passes if at least two thirds of Yes and No votes are Yes and at least 40% of members on the roll vote on it.'),
    ).toBeTruthy();
    const group = screen.getByRole('group', { name: 'adopt the budget' });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual(['201', '202', '203']);
    fireEvent.click(within(group).getByRole('radio', { name: 'Abstain' }));
    fireEvent.click(within(group).getByRole('radio', { name: 'No' }));
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(/: No$/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cast my vote' }));
    await waitFor(() => expect(callsTo(calls, contract.api.ballots.castVote).length > 0).toBe(true));
    expect(callsTo(calls, contract.api.ballots.castVote)[0]?.body).toEqual({ candidates: { '20': 202 } });
  });

  it('lets an approval position take any number ("Choose any number") and posts a list, even of one', async () => {
    const calls = kindsServer([approval]);
    await renderWithProviders(<Elect />, '/voter/elect');
    expect(await screen.findByText('Choose any number (0 chosen)')).toBeTruthy();
    for (const name of ['Ann A', 'Ben B', 'Cy C']) fireEvent.click(screen.getByRole('checkbox', { name }));
    // more than the two seats: approval has no limit
    expect(screen.getByText('Choose any number (3 chosen)')).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Ben B' }));
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cast my vote' }));
    await waitFor(() => expect(callsTo(calls, contract.api.ballots.castVote).length > 0).toBe(true));
    expect(callsTo(calls, contract.api.ballots.castVote)[0]?.body).toEqual({ candidates: { '21': [211, 213] } });

    expect(choiceValue([{ id: 9, name: 'X', photo: null, positionId: 1, position: 'p', seats: 3, method: 'approval' }])).toEqual([9]);
  });

  it('ranks by keyboard alone, announces each move, shows the order and posts it in order', async () => {
    const user = userEvent.setup();
    const calls = kindsServer([ranked]);
    await renderWithProviders(<Elect />, '/voter/elect');
    expect(await screen.findByText('No candidate ranked yet.')).toBeTruthy();
    const status = () => screen.getByRole('status').textContent;

    // Tab to "Rank Fay F number 1" and press Enter: focus stays on Fay's row.
    screen.getByRole('button', { name: 'Rank Dee D number 1' }).focus();
    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Rank Fay F number 1' }));
    await user.keyboard('{Enter}');
    expect(status()).toBe('Fay F is now number 1 of 1.');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove Fay F from your order' }));

    // Dee second (Space), Eve third
    screen.getByRole('button', { name: 'Rank Dee D number 2' }).focus();
    await user.keyboard(' ');
    expect(status()).toBe('Dee D is now number 2 of 2.');
    screen.getByRole('button', { name: 'Rank Eve E number 3' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByText('Your order: 1. Fay F, 2. Dee D, 3. Eve E')).toBeTruthy();

    // Eve up one: focus follows Eve's "Move up", which is pressed again to make her first.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Eve E up' }));
    await user.keyboard('{Enter}');
    expect(status()).toBe('Eve E is now number 2 of 3.');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Eve E up' }));
    await user.keyboard('{Enter}');
    expect(status()).toBe('Eve E is now number 1 of 3.');
    // at the top, "Move up" is disabled: focus moves to "Move down"
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Eve E down' }));
    expect(screen.getByText('Your order: 1. Eve E, 2. Fay F, 3. Dee D')).toBeTruthy();

    // Remove Fay: the rest close up
    screen.getByRole('button', { name: 'Remove Fay F from your order' }).focus();
    await user.keyboard('{Enter}');
    expect(status()).toBe('Fay F is no longer ranked.');
    expect(screen.getByText('Your order: 1. Eve E, 2. Dee D')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Rank Fay F number 3' }));

    // the confirmation repeats the order; the request lists it first preference first
    screen.getByRole('button', { name: 'Vote' }).focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(/1\. Eve E, 2\. Dee D/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cast my vote' }));
    await waitFor(() => expect(callsTo(calls, contract.api.ballots.castVote).length > 0).toBe(true));
    expect(callsTo(calls, contract.api.ballots.castVote)[0]?.body).toEqual({ candidates: { '22': [222, 221] } });
  }, 20_000);

  it('keeps a position whose choices were all taken back votable after voting for another', async () => {
    const calls = kindsServer([motion, ranked]);
    await renderWithProviders(<Elect />, '/voter/elect');
    fireEvent.click(await screen.findByRole('button', { name: 'Rank Dee D number 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Dee D from your order' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Yes' }));
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cast my vote' }));
    expect(await screen.findByText('You have successfully voted')).toBeTruthy();
    expect(callsTo(calls, contract.api.ballots.castVote)[0]?.body).toEqual({ candidates: { '20': 201 } });
    expect(screen.getAllByText('You have already voted for this position.')).toHaveLength(1);
    expect((screen.getByRole('button', { name: 'Rank Dee D number 1' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('the ballot a secretary sets up (issue 37, item 4)', () => {
  const group = (over: Partial<BallotGroup> & Pick<BallotGroup, 'title' | 'position_id'>): BallotGroup => ({
    seats: 1,
    kind: 'candidates',
    method: 'plurality',
    threshold: null,
    quorum_percent: null,
    description: null,
    candidates: [],
    ...over,
  });
  const chair = group({
    title: 'Chairperson of the UFC Board National',
    name: 'Chairperson of the UFC Board',
    branch: null,
    position_id: 31,
    description: 'Chairs the board for two years.',
    candidates: [
      { id: 311, name: 'Ann A', photo: '/uploads/ann.png', statement: null },
      { id: 312, name: 'Ben B', photo: null, statement: null },
    ],
  });
  const board = group({
    title: 'Board National',
    name: 'Board',
    branch: null,
    position_id: 32,
    seats: 3,
    method: 'ranked',
    description: 'Three seats, counted by STV.',
    candidates: [
      { id: 321, name: 'Cy C', photo: '/uploads/cy.png', statement: null },
      { id: 322, name: 'Dee D', photo: null, statement: null },
    ],
  });
  const branchRep = group({
    title: 'Branch rep Mombasa',
    name: 'Branch rep',
    branch: 'Mombasa',
    position_id: 33,
    candidates: [{ id: 331, name: 'Eve E', photo: null, statement: null }],
  });
  const withElection = (groups: BallotGroup[]) => server({ groups });

  it('heads each position as typed, without "National" when the ballot has one level', async () => {
    withElection([chair, board]);
    await renderWithProviders(<Elect />, '/voter/elect?election=5');
    expect(await screen.findByRole('heading', { name: 'Chairperson of the UFC Board' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Board' })).toBeTruthy();
    expect(screen.queryByText(/National/)).toBeNull();
  });

  it('names the level where the ballot has branch positions, "National" in the reader\'s language', async () => {
    withElection([chair, branchRep]);
    await renderWithProviders(<Elect />, '/voter/elect?election=5');
    expect(await screen.findByRole('heading', { name: 'Chairperson of the UFC Board (National)' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Branch rep – Mombasa' })).toBeTruthy();
    vi.unstubAllGlobals();
    window.sessionStorage.clear();
    const { cleanup } = await import('@testing-library/react');
    cleanup();
    const { setLocale } = await import('@/i18n');
    setLocale('sw');
    try {
      withElection([chair, branchRep]);
      await renderWithProviders(<Elect />, '/voter/elect?election=5');
      expect(await screen.findByRole('heading', { name: 'Chairperson of the UFC Board (Kitaifa)' })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Piga kura' })).toBeTruthy();
    } finally {
      setLocale('en');
    }
  });

  it("shows each position's description to voters and the candidates' photos on a ranked position", async () => {
    withElection([chair, board]);
    await renderWithProviders(<Elect />, '/voter/elect?election=5');
    expect(await screen.findByText('Chairs the board for two years.')).toBeTruthy();
    expect(screen.getByText('Three seats, counted by STV.')).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Board' }).getAttribute('aria-describedby')).toMatch(/position-32-description/);
    const photos = () =>
      Array.from(screen.getByRole('group', { name: 'Board' }).querySelectorAll('img')).map((img) => img.getAttribute('src'));
    expect(photos()).toEqual(['/uploads/cy.png', '/default-avatar.svg']);
    // once ranked, the photo goes with the candidate into the order
    fireEvent.click(screen.getByRole('button', { name: 'Rank Dee D number 1' }));
    expect(photos()).toEqual(['/default-avatar.svg', '/uploads/cy.png']);
  });

  it('keeps a half-filled ballot across a refresh in this tab; a vote or Reset removes it', async () => {
    withElection([chair, board]);
    const first = await renderWithProviders(<Elect />, '/voter/elect?election=5');
    fireEvent.click(await screen.findByRole('radio', { name: 'Ben B' }));
    fireEvent.click(screen.getByRole('button', { name: 'Rank Dee D number 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Rank Cy C number 2' }));
    first.unmount();

    // "refresh": a new page in the same tab
    const second = await renderWithProviders(<Elect />, '/voter/elect?election=5');
    expect(((await screen.findByRole('radio', { name: 'Ben B' })) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText('Your order: 1. Dee D, 2. Cy C')).toBeTruthy();
    // another election's ballot does not take it
    second.unmount();
    await renderWithProviders(<Elect />, '/voter/elect?election=6');
    expect(((await screen.findByRole('radio', { name: 'Ben B' })) as HTMLInputElement).checked).toBe(false);
    const { cleanup } = await import('@testing-library/react');
    cleanup();

    await renderWithProviders(<Elect />, '/voter/elect?election=5');
    expect(((await screen.findByRole('radio', { name: 'Ben B' })) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(window.sessionStorage.getItem('kura.ballot-draft.5')).toBeNull();

    fireEvent.click(screen.getByRole('radio', { name: 'Ann A' }));
    expect(window.sessionStorage.getItem('kura.ballot-draft.5')).toBe('{"31":[311]}');
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cast my vote' }));
    expect(await screen.findByText('You have successfully voted')).toBeTruthy();
    expect(window.sessionStorage.getItem('kura.ballot-draft.5')).toBeNull();
  });

  it('asks before leaving a ballot with choices not cast; Stay keeps the page, Leave goes', async () => {
    withElection([chair]);
    const { router } = await renderWithProviders(<Elect />, '/voter/elect?election=5');
    fireEvent.click(await screen.findByRole('radio', { name: 'Ann A' }));
    void router.navigate({ to: '/voter' });
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Leave without voting?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stay on the ballot' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/voter/elect');
    void router.navigate({ to: '/voter' });
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/voter'));
  });

  it('words the confirmation as casting the vote, not as a motion option', async () => {
    withElection([chair]);
    await renderWithProviders(<Elect />, '/voter/elect?election=5');
    fireEvent.click(await screen.findByRole('radio', { name: 'Ann A' }));
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByRole('button', { name: 'Cast my vote' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: /^(Yes|Yes!|No)$/ })).toBeNull();
  });
});
