import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { contract, type BallotGroup, type Candidate, type Position } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { anElection } from '@/test/elections';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
import { aPosition } from '@/test/positions';
import { Elect } from '@/components/voter/elect-page';
import { Declaration } from '@/components/results/results-page';
import { PositionResults } from '@/components/results/position-results';
import { LanguageSelect } from '@/components/layout/language-select';
import { EditPositionForm } from '@/components/admin/setup/position-form';
import { CandidatesPage } from '@/components/admin/candidates-page';
import { RemindersPage } from '@/components/admin/reminders-page';
import { requireVoter } from '@/lib/guards';
import { clearSession, storeSession } from '@/lib/session';
import { getLocale, resetLocale, setLocale } from './index';

/**
 * docs/i18n.md "Ballot content" and "Which language is used": the organisation's texts show in the
 * reader's language where the admin translated them (else the original); a signed-in member's
 * choice is saved on their record and their own language comes back with the session check; the
 * admin translates a position, a statement and a reminder.
 */

const ballot: BallotGroup[] = [
  {
    title: 'Chairperson National',
    position_id: 1,
    kind: 'candidates',
    method: 'plurality',
    seats: 1,
    description: null,
    threshold: null,
    quorum_percent: null,
    translations: { sw: { title: 'Mwenyekiti National' } },
    candidates: [
      { id: 11, name: 'Jane Wanjiku', photo: null, statement: 'I will serve', translations: { sw: { statement: 'Nitatumikia' } } },
      { id: 12, name: 'Otieno Omondi', photo: null, statement: 'Vote for me' },
    ],
  },
  {
    title: 'Budget National',
    position_id: 2,
    kind: 'motion',
    method: null,
    seats: 1,
    threshold: 'majority',
    quorum_percent: null,
    description: 'Approve the budget.',
    translations: { sw: { title: 'Bajeti National', description: 'Kuidhinisha bajeti.' } },
    candidates: [
      { id: 21, name: 'Yes', photo: null, statement: null },
      { id: 22, name: 'No', photo: null, statement: null },
      { id: 23, name: 'Abstain', photo: null, statement: null },
    ],
  },
];

afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
  window.localStorage.clear();
  resetLocale({});
});

describe('the organisation’s texts in the reader’s language', () => {
  it('shows the Kiswahili title, motion text and statement on the ballot, the originals in English, switching without a new fetch', async () => {
    const calls = stubRoutes(
      stub(contract.api.ballots.getBallot, { status: 200, body: { data: ballot } }),
      stub(contract.api.elections.getElectionStatus, { status: 200, body: { active: '1' } }),
      stub(contract.api.vvpat.getMyVvpat, { status: 200, body: { data: { votes: [] } } }),
    );
    setLocale('sw');
    await renderWithProviders(<Elect />, '/voter/elect');
    expect(await screen.findByRole('heading', { name: 'Mwenyekiti National' })).toBeTruthy();
    expect(screen.getByText('Kuidhinisha bajeti.')).toBeTruthy();
    expect(screen.getByText('Nitatumikia')).toBeTruthy();
    // Without a translation, the original shows.
    expect(screen.getByText('Vote for me')).toBeTruthy();
    const fetched = callsTo(calls, contract.api.ballots.getBallot).length;

    act(() => setLocale('en'));
    expect(screen.getByRole('heading', { name: 'Chairperson National' })).toBeTruthy();
    expect(screen.getByText('Approve the budget.')).toBeTruthy();
    expect(screen.getByText('I will serve')).toBeTruthy();
    expect(screen.queryByText('Nitatumikia')).toBeNull();
    expect(callsTo(calls, contract.api.ballots.getBallot).length).toBe(fetched);
  });

  it('names the positions of the live results and the declaration in Kiswahili', async () => {
    // No server behind it (every call 404): the results show what they are given.
    stubRoutes();
    setLocale('sw');
    const positions: Position[] = [
      {
        id: 1,
        name: 'Chairperson',
        level: 'National',
        seats: 1,
        description: null,
        branch_id: null,
        kind: 'candidates',
        method: 'plurality',
        threshold: null,
        quorum_percent: null,
        translations: { sw: { name: 'Mwenyekiti' } },
      },
    ];
    const groups = [
      {
        position_id: 1,
        title: 'Chairperson National',
        key: 'Chairperson_National',
        total: 3,
        translations: { sw: { title: 'Mwenyekiti National' } },
        values: [{ candidate_id: 11, title: 'Jane Wanjiku', name: 'Jane Wanjiku', member_no: '1', count: 3 }],
      },
    ];
    await renderWithProviders(<PositionResults positions={positions} groups={groups} defaultKey="Chairperson_National" noVotesText="-" />);
    expect(screen.getAllByText('Mwenyekiti National').length).toBeGreaterThan(0);
    expect(screen.queryByText('Chairperson National')).toBeNull();
  });

  it('prints the declaration with the Kiswahili name of a translated motion', async () => {
    // No server behind it (every call 404): the declaration shows what it is given.
    stubRoutes();
    setLocale('sw');
    await renderWithProviders(
      <Declaration
        result={{
          data: [
            {
              position_id: 8,
              title: 'Amend rule 12 National',
              translations: { sw: { title: 'Kurekebisha kanuni 12 National' } },
              kind: 'motion',
              yes: 6,
              no: 3,
              abstain: 1,
              threshold: 'two_thirds',
              quorum_percent: null,
              quorum_met: true,
              passed: true,
            },
            {
              position_id: 9,
              title: 'Treasurer National',
              translations: { sw: { title: 'Mweka hazina National' } },
              seats: 1,
              total: 2,
              values: [{ candidate_id: 5, title: 'Amina', name: 'Amina', member_no: '5', count: 2, elected: true, tied: false }],
            },
          ],
          turnout: { members: 12, voted: 10, branches: [] },
          commitment: { hash: 'ab'.repeat(32), count: 19, at: '2026-05-03T17:00:00.000Z' },
          closed_at: '2026-05-03T17:00:00.000Z',
          audit: { ok: true, problems: [], at: '2026-05-03T17:00:01.000Z' },
        }}
      />,
    );
    expect(screen.getByRole('heading', { name: /^Kurekebisha kanuni 12 National/ })).toBeTruthy();
    expect(screen.getByRole('heading', { name: /^Mweka hazina National/ })).toBeTruthy();
    expect(screen.queryByText(/Amend rule 12/)).toBeNull();
  });
});

describe('a member’s own language', () => {
  it('saves a signed-in member’s choice on their record; a visitor’s stays on the device', async () => {
    const calls = stubRoutes(stub(contract.api.members.setOwnLanguage, { status: 200, body: { data: { language: 'sw' } } }));
    await renderWithProviders(<LanguageSelect />);
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'sw' } });
    expect(getLocale()).toBe('sw');
    expect(callsTo(calls, contract.api.members.setOwnLanguage)).toHaveLength(0);

    storeSession({ bearer_token: 'tok', hash: 'h', name: 'Jane', photo: null, balance: 0 }, 'member');
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'en' } });
    await waitFor(() => expect(callsTo(calls, contract.api.members.setOwnLanguage)).toHaveLength(1));
    expect(callsTo(calls, contract.api.members.setOwnLanguage)[0]!.body).toEqual({ language: 'en' });
    expect(getLocale()).toBe('en');
  });

  it('comes back with the session check and comes first, before this device’s choice', async () => {
    stubRoutes(
      stub(contract.api.auth.validateVoter, { status: 200, body: { user_type: 'voter', data: { name: 'Jane', language: 'sw' } } }),
    );
    setLocale('en');
    storeSession({ bearer_token: 'tok', hash: 'h', name: 'Jane', photo: null, balance: 0 }, 'member');
    await requireVoter(new QueryClient({ defaultOptions: { queries: { retry: false } } }));
    expect(getLocale()).toBe('sw');
    expect(document.documentElement.lang).toBe('sw');
  });

  it('a choice the record has not answered yet is newer than the session check’s language, and is sent again until it is', async () => {
    // The page that made the choice went before its save was answered (the save failed here).
    let saveStatus: 200 | 503 = 503;
    let recorded = 'en';
    const calls = stubRoutes(
      stub(contract.api.members.setOwnLanguage, (call) => {
        if (saveStatus === 200) recorded = (call.body as { language: string }).language;
        return saveStatus === 200
          ? { status: 200, body: { data: { language: recorded } } }
          : { status: 503, body: { message: 'Service unavailable' } };
      }),
      stub(contract.api.auth.validateVoter, () => ({
        status: 200,
        body: { user_type: 'voter', data: { name: 'Jane', language: recorded } },
      })),
    );
    storeSession({ bearer_token: 'tok', hash: 'h', name: 'Jane', photo: null, balance: 0 }, 'member');
    await renderWithProviders(<LanguageSelect />);
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'sw' } });
    await waitFor(() => expect(callsTo(calls, contract.api.members.setOwnLanguage)).toHaveLength(1));

    // The next page's session check answers the record's older English: Kiswahili stays, and is sent again.
    saveStatus = 200;
    await act(() => requireVoter(new QueryClient({ defaultOptions: { queries: { retry: false } } })));
    expect(getLocale()).toBe('sw');
    await waitFor(() => expect(recorded).toBe('sw'));
    expect(callsTo(calls, contract.api.members.setOwnLanguage).map((c) => c.body)).toEqual([{ language: 'sw' }, { language: 'sw' }]);

    // Once the record holds it, the record speaks again: a change made on another device comes through.
    await act(() => requireVoter(new QueryClient({ defaultOptions: { queries: { retry: false } } })));
    recorded = 'en';
    await act(() => requireVoter(new QueryClient({ defaultOptions: { queries: { retry: false } } })));
    expect(getLocale()).toBe('en');
    expect(callsTo(calls, contract.api.members.setOwnLanguage)).toHaveLength(2);
  });

  it('forgets a choice not yet saved at sign-out', async () => {
    stubRoutes(stub(contract.api.members.setOwnLanguage, { status: 503, body: { message: 'Service unavailable' } }));
    storeSession({ bearer_token: 'tok', hash: 'h', name: 'Jane', photo: null, balance: 0 }, 'member');
    await renderWithProviders(<LanguageSelect />);
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'sw' } });
    await waitFor(() => expect(localStorage.getItem('kura.ownLanguagePending')).toBe('sw'));
    clearSession();
    expect(localStorage.getItem('kura.ownLanguagePending')).toBeNull();
    expect(localStorage.getItem('language')).toBe('sw');
  });
});

describe('the admin’s side', () => {
  const position: Position = {
    id: 4,
    name: 'Chairperson',
    level: 'National',
    seats: 1,
    description: 'Leads the meetings',
    branch_id: null,
    kind: 'candidates',
    method: 'plurality',
    threshold: null,
    quorum_percent: null,
    translations: { sw: { name: 'Mwenyekiti' } },
  };

  it('edits a position’s name and description in Kiswahili (optional fields), sent with the position', async () => {
    const calls = stubRoutes(stub(contract.api.setup.updatePosition, { status: 200, body: { data: position } }, { id: 4 }));
    await renderWithProviders(<EditPositionForm position={position} run={(work) => work().then(() => true)} onDone={() => undefined} />);
    const name = screen.getByLabelText('Name in Kiswahili') as HTMLInputElement;
    expect(name.value).toBe('Mwenyekiti');
    expect(name.lang).toBe('sw');
    fireEvent.change(screen.getByLabelText('Description in Kiswahili'), { target: { value: 'Anaongoza mikutano' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(calls, contract.api.setup.updatePosition, { id: 4 }).length > 0).toBe(true));
    expect((callsTo(calls, contract.api.setup.updatePosition, { id: 4 })[0]!.body as { translations: unknown }).translations).toEqual({
      sw: { name: 'Mwenyekiti', description: 'Anaongoza mikutano' },
    });
  });

  it('offers the translation into English when the organisation writes in Kiswahili (issue 37: whatever the default)', async () => {
    stubRoutes(
      stub(contract.api.elections.getElection, { status: 200, body: { data: anElection(1, 'Mkutano Mkuu', { default_language: 'sw' }) } }),
    );
    await renderWithProviders(<EditPositionForm position={position} run={(work) => work().then(() => true)} onDone={() => undefined} />);
    // (the page itself may read in Kiswahili now: the organisation's default fills in)
    const name = (await screen.findByLabelText(/^(Name in|Jina kwa) English$/)) as HTMLInputElement;
    expect(name.lang).toBe('en');
    expect(screen.queryByLabelText(/^(Name in|Jina kwa) Kiswahili$/)).toBeNull();
  });

  it('refuses a translation longer than the original may be, on the field', async () => {
    // No server behind it (every call 404): the form refuses before sending.
    stubRoutes();
    await renderWithProviders(<EditPositionForm position={position} run={(work) => work().then(() => true)} onDone={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Name in Kiswahili'), { target: { value: 'x'.repeat(101) } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Must be at most 100 characters long')).toBeTruthy();
  });

  it('edits a candidate’s statement in Kiswahili, sent as JSON text beside the statement', async () => {
    const jane: Candidate = {
      id: 1,
      member_no: '1001',
      name: 'Jane Doe',
      phone: '0712345678',
      email: 'jane@example.org',
      county: 'Nairobi',
      image_url: null,
      statement: 'I will serve',
      translations: { sw: { statement: 'Nitatumikia' } },
      positions: [aPosition(1, 'Chairperson')],
    };
    const calls = stubRoutes(
      stub(contract.api.candidates.listCandidates, { status: 200, body: { data: { data: { candidates: [jane] } } } }),
      stub(contract.api.members.listBranches, { status: 200, body: { data: { data: [{ id: 1, name: 'Nairobi' }] } } }),
      stub(contract.api.members.listCandidatePositions, { status: 200, body: { data: { data: [aPosition(1, 'Chairperson')] } } }),
      stub(contract.api.candidates.updateCandidate, { status: 200, body: { data: jane } }, { id: 1 }),
    );
    await renderWithProviders(<CandidatesPage />, '/admin/candidates');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Jane Doe' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Candidate' });
    const sw = within(dialog).getByLabelText('Statement to voters in Kiswahili') as HTMLTextAreaElement;
    await waitFor(() => expect(sw.value).toBe('Nitatumikia'));
    fireEvent.change(sw, { target: { value: 'Nitatumikia wanachama wote' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Candidate updated successfully')).toBeTruthy();
    const body = callsTo(calls, contract.api.candidates.updateCandidate, { id: 1 })[0]!.body as FormData;
    expect(body.get('statement')).toBe('I will serve');
    expect(JSON.parse(body.get('translations') as string)).toEqual({ sw: { statement: 'Nitatumikia wanachama wote' } });
  });

  it('sends a reminder’s Kiswahili message only when the admin wrote one', async () => {
    const calls = stubRoutes(
      stub(contract.api.reminders.createReminder, { status: 202, body: { id: null, recipients: 3 } }),
      stub(contract.api.reminders.listReminders, { status: 200, body: { data: [] } }),
    );
    await renderWithProviders(<RemindersPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Count recipients' }));
    await waitFor(() => expect(callsTo(calls, contract.api.reminders.createReminder)).toHaveLength(1));
    expect(callsTo(calls, contract.api.reminders.createReminder)[0]!.body).not.toHaveProperty('translations');

    fireEvent.change(screen.getByLabelText('Message in Kiswahili'), { target: { value: 'Habari {name}, piga kura' } });
    fireEvent.click(screen.getByRole('button', { name: 'Count recipients' }));
    await waitFor(() => expect(callsTo(calls, contract.api.reminders.createReminder)).toHaveLength(2));
    expect((callsTo(calls, contract.api.reminders.createReminder)[1]!.body as { translations: unknown }).translations).toEqual({
      sw: { message: 'Habari {name}, piga kura' },
    });
  });
});
