import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { contract, type Election, type VvpatRow } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { anElection } from '@/test/elections';
import { callsTo, stub, stubOffContract, stubRoutes, type RouteReply, type RouteStub } from '@/test/fetch';
import { aBallotGroup, aCandidate } from '@/test/ballots';
import { electionSearch } from '@/lib/election-search';
import { Elect } from './elect-page';
import { MyElections } from './my-elections';
import { VoterVvpat } from './vvpat-page';

const election = (id: number, title: string, over: Partial<Election> = {}): Election =>
  anElection(id, title, { phase: 'open', active: '1', ...over });

const group = (position_id: number, title: string, candidateId: number) =>
  aBallotGroup(position_id, title, [aCandidate(candidateId, `Candidate ${candidateId}`)]);

const ELECTIONS = [
  election(3, 'By-election 2027'),
  election(2, 'Elections 2027'),
  election(4, 'Branch AGM'), // the member is not on its roll: an empty ballot
  election(5, 'Treasurer recall'), // refused outright
  election(1, 'Elections 2026', { phase: 'closed', active: '0' }),
];
const BALLOTS: Record<string, ReturnType<typeof group>[]> = {
  '3': [group(31, 'Treasurer National', 310)],
  // the copy has the same titles as the closed election the member voted in
  '2': [group(21, 'Chairperson National', 210), group(22, 'Secretary National', 220)],
  '4': [],
};

/** A receipt as GET psk/vvpat answers it, of election `election_id` titled `election`. */
const receipt = (vvpat: string, name: string, position: string, election_id: number, election: string): VvpatRow => ({
  vvpat,
  name,
  count: 1,
  position,
  kind: 'candidates',
  election_id,
  election,
});

/**
 * Receipts as an older server answered them (off the contract, which names the election by
 * election_id and election): the election as an object {id, title}, or not named at all. The app
 * still reads both (src/lib/receipts.ts).
 */
const olderReceipts = (votes: object[]) => stubOffContract(contract.api.vvpat.getMyVvpat, { status: 200, body: { data: { votes } } });

/** The voter's server: their `receipts`, POST psk/vote answered by `vote`; the `first` stubs answer before the rest. */
function server(receipts: VvpatRow[], vote?: RouteReply<typeof contract.api.ballots.castVote>, ...first: RouteStub[]) {
  return stubRoutes(
    ...first,
    stub(contract.api.organisation.listElections, { status: 200, body: { data: ELECTIONS } }),
    stub(contract.api.elections.getElection, { status: 200, body: { data: election(2, 'Elections 2027') } }),
    stub(contract.api.vvpat.getMyVvpat, { status: 200, body: { data: { votes: receipts } } }),
    stub(contract.api.elections.getElectionStatus, { status: 200, body: { active: '1' } }),
    stub(contract.api.ballots.getBallot, ({ search }) => {
      const id = search.get('election_id') ?? '2';
      if (id === '5') return { status: 403, body: { message: 'You are not on the roll for this election' } };
      return { status: 200, body: { data: BALLOTS[id] ?? [] } };
    }),
    stub(contract.api.ballots.castVote, vote ?? { status: 201, body: { message: 'Successfully voted', receipts: [] } }),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('the voter\'s elections (docs/api.md "Many elections": each open election on the voter\'s roll, voted or not)', () => {
  it('lists each open election the member is on the roll of, with voted / not voted and its own ballot link', async () => {
    server([
      receipt('VP-AAAA-0001', 'X', 'Chairperson National', 1, 'Elections 2026'),
      receipt('VP-AAAA-0002', 'Y', 'Treasurer National', 3, 'By-election 2027'),
    ]);
    await renderWithProviders(<MyElections />, '/voter');
    const by = await screen.findByTestId('my-election-3');
    const annual = screen.getByTestId('my-election-2');
    expect(within(by).getByRole('heading', { name: 'By-election 2027' })).toBeTruthy();
    expect(within(by).getByText('You have voted')).toBeTruthy();
    expect(within(by).queryByRole('link', { name: /Vote in/ })).toBeNull();
    // a receipt of the closed 2026 election does not count towards its copy's same titles
    expect(within(annual).getByText('You have not voted yet')).toBeTruthy();
    expect(within(annual).getByRole('link', { name: 'Vote in Elections 2027' }).getAttribute('href')).toBe('/voter/elect?election=2');
    // off the roll (empty ballot, or refused), closed: not listed
    expect(screen.queryByTestId('my-election-4')).toBeNull();
    expect(screen.queryByTestId('my-election-5')).toBeNull();
    expect(screen.queryByTestId('my-election-1')).toBeNull();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
  });

  it('says so when no open election has the member on its roll', async () => {
    stubRoutes(
      stub(contract.api.organisation.listElections, { status: 200, body: { data: [election(4, 'Branch AGM')] } }),
      stub(contract.api.vvpat.getMyVvpat, { status: 200, body: { data: { votes: [] } } }),
      stub(contract.api.ballots.getBallot, { status: 200, body: { data: [] } }),
    );
    await renderWithProviders(<MyElections />, '/voter');
    expect(await screen.findByText('There is no open election for you at the moment.')).toBeTruthy();
  });
});

describe('the ballot of the election in the URL', () => {
  it("reads and casts with ?election_id, names the election, and tells its receipts from another election's", async () => {
    const calls = server([receipt('VP-AAAA-0001', 'X', 'Chairperson National', 1, 'Elections 2026')]);
    await renderWithProviders(<Elect />, '/voter/elect?election=2', { validateSearch: electionSearch });
    expect(await screen.findByRole('heading', { name: 'Elections 2027' })).toBeTruthy();
    // Chairperson was voted for in 2026, not in this election: its candidates are open to choose
    fireEvent.click(await screen.findByRole('radio', { name: 'Candidate 210' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Candidate 220' }));
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cast my vote' }));
    expect(await screen.findByText('You have successfully voted')).toBeTruthy();
    const ballot = callsTo(calls, contract.api.ballots.getBallot)[0];
    expect(ballot?.search.get('election_id')).toBe('2');
    const vote = callsTo(calls, contract.api.ballots.castVote)[0];
    expect(vote?.search.get('election_id')).toBe('2');
    expect(vote?.body).toEqual({ candidates: { '21': 210, '22': 220 } });
  });

  it('keeps a choice made as soon as the ballot shows, when the current election answers after the ballot', async () => {
    server([]);
    // The current election's answer (which names the ballot's draft) comes after the ballot's.
    const answered = globalThis.fetch;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (new URL(String(input), 'http://localhost').pathname === '/api/v1/election') await held;
      return answered(input, init);
    });
    await renderWithProviders(<Elect />, '/voter/elect', { validateSearch: electionSearch });
    // Clicked the moment it shows. Before the fix it showed before the election answered, and the
    // form then started again under the election's draft key and dropped the choice.
    const early = await Promise.race([
      screen.findByRole('radio', { name: 'Candidate 210' }),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 1500)),
    ]);
    if (early) fireEvent.click(early);
    release();
    // The election named (its title over the ballot), then the choice is still there.
    expect(await screen.findByRole('heading', { name: 'Elections 2027' })).toBeTruthy();
    const radio = await screen.findByRole('radio', { name: 'Candidate 210' });
    if (!early) fireEvent.click(radio);
    await waitFor(() => expect((screen.getByRole('radio', { name: 'Candidate 210' }) as HTMLInputElement).checked).toBe(true));
    expect(early).toBeNull();
  });

  it('says clearly "You are not on the roll for this election" when the vote is refused with it', async () => {
    server([], { status: 403, body: { message: 'You are not on the roll for this election' } });
    await renderWithProviders(<Elect />, '/voter/elect?election=3', { validateSearch: electionSearch });
    fireEvent.click(await screen.findByRole('radio', { name: 'Candidate 310' }));
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cast my vote' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('You are not on the roll for this election')).toBeTruthy();
    expect(within(alert).getByRole('link', { name: 'Back to your elections' }).getAttribute('href')).toBe('/voter');
    await waitFor(() => expect(document.activeElement).toBe(alert));
    expect(screen.queryByRole('button', { name: 'Vote' })).toBeNull();
  });

  it("tells the refusal apart in Kiswahili too, by its issue (the message comes in the reader's language)", async () => {
    server([], {
      status: 403,
      body: { message: 'Hauko kwenye orodha ya wapiga kura wa uchaguzi huu', issue: 'You are not on the roll for this election' },
    });
    await renderWithProviders(<Elect />, '/voter/elect?election=3', { validateSearch: electionSearch });
    fireEvent.click(await screen.findByRole('radio', { name: 'Candidate 310' }));
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cast my vote' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('link', { name: 'Back to your elections' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Vote' })).toBeNull();
  });

  it('says it too when the ballot itself is refused', async () => {
    server([]);
    await renderWithProviders(<Elect />, '/voter/elect?election=5', { validateSearch: electionSearch });
    expect(await screen.findByText('You are not on the roll for this election')).toBeTruthy();
  });
});

describe('the receipts of every election', () => {
  it("shows each receipt's election when the server names it (and the copy says it too)", async () => {
    server(
      [],
      undefined,
      // The first as an older server named its election (an object), the second as the contract does.
      olderReceipts([
        { vvpat: 'VP-AAAA-0001', name: 'X', count: 1, position: 'Chairperson National', election: { id: 2, title: 'Elections 2027' } },
        receipt('VP-AAAA-0002', 'Y', 'Treasurer National', 3, 'By-election 2027'),
      ]),
    );
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await renderWithProviders(<VoterVvpat />, '/voter/vpat');
    expect(await screen.findByRole('columnheader', { name: 'Election' })).toBeTruthy();
    const rows = screen.getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('Elections 2027')).toBeTruthy();
    expect(within(rows[1]!).getByText('By-election 2027')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Copy codes' }));
    await waitFor(() => expect(writeText).toHaveBeenCalled());
    expect((writeText.mock.calls[0] as unknown as [string])[0]).toContain('VP-AAAA-0002  By-election 2027: Treasurer National');
  });

  it('keeps the single-election table when the receipts name no election, or all the same one', async () => {
    // An older server's receipt that names no election (off the contract).
    server([], undefined, olderReceipts([{ vvpat: 'VP-AAAA-0001', name: 'X', count: 1, position: 'Chairperson National' }]));
    const first = await renderWithProviders(<VoterVvpat />, '/voter/vpat');
    await screen.findByText('VP-AAAA-0001');
    expect(screen.queryByRole('columnheader', { name: 'Election' })).toBeNull();
    first.unmount();
    server([
      receipt('VP-AAAA-0003', 'X', 'Chairperson National', 1, 'Elections 2026'),
      receipt('VP-AAAA-0004', 'Y', 'Treasurer National', 1, 'Elections 2026'),
    ]);
    await renderWithProviders(<VoterVvpat />, '/voter/vpat');
    await screen.findByText('VP-AAAA-0003');
    expect(screen.queryByRole('columnheader', { name: 'Election' })).toBeNull();
  });
});
