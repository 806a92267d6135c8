import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { contract, type FinalResultsResponse, type RankedResult } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { stub, stubRoutes } from '@/test/fetch';
import { declaredResult, motionResult } from '@/test/results';
import { anElection } from '@/test/elections';
import { Declaration } from './results-page';

// The count of this ballot file by `pnpm cli count --json` (4 candidates, 2 seats, 9 ballots):
// 1 2 / 1 3 / 1 2 / 1 / 2 3 / 3 2 / 4 3 / 4 2 / 1 4.
const ranked: RankedResult = {
  position_id: 7,
  title: 'Board National',
  kind: 'candidates',
  method: 'ranked',
  seats: 2,
  ballots: 9,
  quota: '4.00000',
  values: [
    { candidate_id: 1, name: 'Grace Achieng', first_preferences: 5, votes: '4.00000', elected: true },
    { candidate_id: 2, name: 'Peter Otieno', first_preferences: 1, votes: '3.40000', elected: true },
    { candidate_id: 4, name: 'Daniel Kiprop', first_preferences: 2, votes: '0.00000', elected: false },
    { candidate_id: 3, name: 'Ruth Njoki', first_preferences: 1, votes: '0.00000', elected: false },
  ],
  nontransferable: '1.60000',
  rounds: [
    {
      round: 1,
      action: 'elect',
      candidate_ids: [1],
      votes: { 1: '5.00000', 2: '1.00000', 3: '1.00000', 4: '2.00000' },
      nontransferable: '0.00000',
    },
    {
      round: 2,
      action: 'transfer',
      candidate_ids: [1],
      votes: { 1: '4.00000', 2: '1.40000', 3: '1.20000', 4: '2.20000' },
      nontransferable: '0.20000',
    },
    {
      round: 3,
      action: 'exclude',
      candidate_ids: [3],
      votes: { 1: '4.00000', 2: '2.40000', 3: '0.00000', 4: '2.20000' },
      nontransferable: '0.40000',
    },
    {
      round: 4,
      action: 'exclude',
      candidate_ids: [4],
      votes: { 1: '4.00000', 2: '3.40000', 3: '0.00000', 4: '0.00000' },
      nontransferable: '1.60000',
    },
    {
      round: 5,
      action: 'elect',
      candidate_ids: [2],
      votes: { 1: '4.00000', 2: '3.40000', 3: '0.00000', 4: '0.00000' },
      nontransferable: '1.60000',
    },
  ],
};

async function renderDeclaration(data: FinalResultsResponse['data'], election?: number) {
  // No server behind it (every call 404): the declaration shows what it is given.
  stubRoutes();
  return renderWithProviders(<Declaration result={declaredResult(data)} election={election} />);
}

afterEach(() => vi.unstubAllGlobals());

describe('the declaration of a ranked position (docs/decisions/005)', () => {
  it('shows the quota, the elected and every round with each candidate’s votes and the non-transferable', async () => {
    await renderDeclaration([ranked]);
    const section = screen.getByRole('region', { name: /^Board National/ });
    expect(within(section).getByText(/Quota:/).textContent).toBe('Quota: 4.00000. Elected: Grace Achieng, Peter Otieno.');

    const table = within(section).getByRole('table', { name: 'Count of Board National, round by round' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Round', 'Action', 'Grace Achieng', 'Peter Otieno', 'Daniel Kiprop', 'Ruth Njoki', 'Non-transferable']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(5);
    const cells = (i: number) => [...rows[i]!.querySelectorAll('th, td')].map((c) => c.textContent);
    expect(cells(0)).toEqual(['1', 'Elected Grace Achieng', '5.00000', '1.00000', '2.00000', '1.00000', '0.00000']);
    expect(cells(1)).toEqual(['2', 'Surplus transferred from Grace Achieng', '4.00000', '1.40000', '2.20000', '1.20000', '0.20000']);
    expect(cells(2)[1]).toBe('Excluded Ruth Njoki');
    expect(cells(3)).toEqual(['4', 'Excluded Daniel Kiprop', '4.00000', '3.40000', '0.00000', '0.00000', '1.60000']);
    expect(cells(4)[1]).toBe('Elected Peter Otieno');
    // On a narrow screen the table scrolls inside a region the keyboard can reach.
    const scroller = within(section).getByRole('region', { name: 'Rounds of Board National' });
    expect(scroller.getAttribute('tabindex')).toBe('0');
    expect(scroller.contains(table)).toBe(true);
    // The round number heads its row for a screen reader.
    expect(within(rows[0]!).getByRole('rowheader').textContent).toBe('1');
  });

  it('links the ballots as a BLT file for a recount', async () => {
    await renderDeclaration([ranked]);
    const link = screen.getByRole('link', { name: 'Download the ballots (BLT)' });
    expect(link.getAttribute('href')).toBe('/api/v1/psk/results/ballots?position_id=7');
    expect(screen.getByText('kura count')).toBeTruthy();
  });

  it("names the declaration's election in the BLT link (a position of another election than the current one is a 404 without it)", async () => {
    await renderDeclaration([ranked], 3);
    const link = screen.getByRole('link', { name: 'Download the ballots (BLT)' });
    const url = new URL(link.getAttribute('href')!, 'http://localhost');
    expect(url.pathname).toBe('/api/v1/psk/results/ballots');
    // The query the contract's getRankedBallots takes: position_id and election_id.
    const query = contract.api.lifecycle.getRankedBallots.query.parse(Object.fromEntries(url.searchParams));
    expect(query.position_id).toBe(7);
    expect(String(query.election_id)).toBe('3');
  });
});

describe('a tie in a ranked count', () => {
  it('says under the round how the tie was broken, by lot with its seed or by an earlier round', async () => {
    const seed = 'ab12cd34ef56' + '0'.repeat(52);
    const tied: RankedResult = {
      ...ranked,
      rounds: ranked.rounds.map((round) =>
        round.round === 3
          ? { ...round, tie: { candidate_ids: [3, 4], chosen: 3, by: 'lot', drawn_from: [3, 4], seed } }
          : round.round === 4
            ? { ...round, tie: { candidate_ids: [4, 2], chosen: 4, by: 'earlier_stage', stage: 2 } }
            : round,
      ),
    };
    await renderDeclaration([tied]);
    const rows = within(screen.getByRole('table', { name: 'Count of Board National, round by round' })).getAllByRole('row');
    expect(rows[3]!.textContent).toContain(
      'Tie between Ruth Njoki and Daniel Kiprop, equal at every round: decided by lot (seed ab12cd34ef56…).',
    );
    expect(rows[4]!.textContent).toContain('Tie between Daniel Kiprop and Peter Otieno: decided by the votes at the end of round 2.');
    expect(screen.getByText(/draws the same lot/)).toBeTruthy();
  });
});

describe('the declaration of a motion', () => {
  it('shows Yes, No, Abstain, the rule in words and PASSED', async () => {
    await renderDeclaration([motionResult()]);
    const section = screen.getByRole('region', { name: /Amend rule 12 National/ });
    const table = within(section).getByRole('table', { name: 'Votes on the motion Amend rule 12 National' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Yes', '6'],
      ['No', '3'],
      ['Abstain', '1'],
    ]);
    expect(within(section).getByText(/To pass it needed/).textContent).toBe(
      'To pass it needed at least two thirds of Yes and No, and a quorum of 50% of the members on the roll voting on it (abstentions count towards the quorum): the quorum was met.',
    );
    expect(screen.getByTestId('motion-outcome-8').textContent).toBe('Outcome: PASSED');
  });

  it('says NOT PASSED, and when the quorum was not met or there was none', async () => {
    await renderDeclaration([
      motionResult({ yes: 2, no: 1, abstain: 0, quorum_met: false, passed: false }),
      motionResult({
        position_id: 9,
        title: 'Dissolve National',
        threshold: 'majority',
        quorum_percent: null,
        yes: 1,
        no: 1,
        passed: false,
      }),
    ]);
    expect(screen.getByTestId('motion-outcome-8').textContent).toBe('Outcome: NOT PASSED');
    expect(screen.getByText(/the quorum was not met\.$/)).toBeTruthy();
    expect(screen.getByTestId('motion-outcome-9').textContent).toBe('Outcome: NOT PASSED');
    expect(screen.getByText('To pass it needed more than half of Yes and No, with no quorum.')).toBeTruthy();
  });
});

describe('plurality and approval positions keep their table', () => {
  it('declares them beside motions and ranked counts, in the order of the results', async () => {
    await renderDeclaration([
      motionResult(),
      {
        position_id: 1,
        title: 'Chairperson National',
        kind: 'candidates',
        method: 'approval',
        seats: 1,
        total: 5,
        values: [
          { candidate_id: 11, title: 'Jane Doe', name: 'Jane Doe', member_no: '1001', count: 3, elected: true, tied: false },
          { candidate_id: 12, title: 'John Roe', name: 'John Roe', member_no: '1002', count: 2, elected: false, tied: false },
        ],
      },
      ranked,
    ]);
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.id)).toEqual(['pos-8', 'pos-1', 'pos-7', 'turnout-h', 'commitment-h']);
    const table = screen.getByRole('table', { name: 'Votes for Chairperson National' });
    expect(within(table).getByRole('rowheader', { name: 'Jane Doe' })).toBeTruthy();
    expect(within(table).getByRole('cell', { name: 'Elected' })).toBeTruthy();
  });
});

describe('turnout by branch', () => {
  it('has a row per branch with its members, voters and share, figures in their own columns', async () => {
    await renderDeclaration([motionResult()]);
    const section = screen.getByRole('region', { name: 'Turnout by branch' });
    const table = within(section).getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Branch', 'Members', 'Voted', 'Turnout']);
    expect(
      within(table)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Nairobi', '12', '10', '83.3%']);
  });
});

describe('the arithmetic behind a declared motion, and the organisation on the printed page (issue 37)', () => {
  it('shows Yes against the threshold and the quorum as "14 of 30 = 46.7 % ≥ 20 %"', async () => {
    await renderDeclaration([
      motionResult({ yes: 9, no: 3, abstain: 2, threshold: 'two_thirds', quorum_percent: 20, roll: 30, quorum_met: true, passed: true }),
      motionResult({
        position_id: 9,
        title: 'B',
        yes: 2,
        no: 2,
        abstain: 0,
        threshold: 'majority',
        quorum_percent: 20,
        roll: 30,
        quorum_met: false,
        passed: false,
      }),
      motionResult({
        position_id: 10,
        title: 'C',
        yes: 1,
        no: 0,
        abstain: 0,
        threshold: 'three_quarters',
        quorum_percent: null,
        roll: null,
        quorum_met: true,
      }),
    ]);
    const lines = (id: number) => [...screen.getByTestId(`motion-arithmetic-${id}`).querySelectorAll('li')].map((li) => li.textContent);
    expect(lines(8)).toEqual([
      'Yes: 9 of 12 Yes and No votes = 75 % ≥ 66.7 % needed: the threshold was met.',
      'Quorum: 14 of 30 members on the roll voted on it = 46.7 % ≥ 20 %: the quorum was met.',
    ]);
    // a majority is "more than half": 2 of 4 is not
    expect(lines(9)).toEqual([
      'Yes: 2 of 4 Yes and No votes = 50 % ≤ 50 % needed: the threshold was not met.',
      'Quorum: 4 of 30 members on the roll voted on it = 13.3 % < 20 %: the quorum was not met.',
    ]);
    expect(lines(10)).toEqual(['Yes: 1 of 1 Yes and No votes = 100 % ≥ 75 % needed: the threshold was met.']);
  });

  it('names the organisation in the declaration itself (the site header does not print)', async () => {
    stubRoutes(
      stub(contract.api.elections.getElection, {
        status: 200,
        body: { data: anElection(1, 'AGM 2026', { organisation: 'Umoja Farmers Cooperative' }) },
      }),
    );
    await renderWithProviders(<Declaration result={declaredResult([motionResult()])} />);
    expect((await screen.findByTestId('declaration-organisation')).textContent).toBe('Umoja Farmers Cooperative');
    expect(screen.getByTestId('declaration-organisation').closest('article')).toBeTruthy();
  });
});
