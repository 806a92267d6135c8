import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { declaredResult, motionResult } from '@/test/results';
import { contract } from '@kura/contract';
import { stub, stubRoutes } from '@/test/fetch';
import { aBallotGroup, aCandidate, aMotionGroup } from '@/test/ballots';
import { anElection } from '@/test/elections';
import { SignIn } from '@/components/auth/sign-in-page';
import { VerifyDetails } from '@/components/auth/verify-page';
import { Elect } from '@/components/voter/elect-page';
import { VoterVvpat } from '@/components/voter/vvpat-page';
import { VoterDashboard } from '@/components/voter/dashboard-page';
import { Education } from '@/components/voter/education-page';
import { ReceiptCheck } from '@/components/public/receipt-page';
import { Commitments } from '@/components/public/commitments-page';
import { Landing } from '@/components/public/landing-page';
import { Declaration } from '@/components/results/results-page';
import { AppShell } from '@/components/layout/app-shell';
import { ScreenError } from '@/components/layout/screen-error';
import { StatisticsTiles } from '@/components/staff/statistics-tiles';
import { VOTER_EXTRA_TITLES, VOTER_MENU } from '@/lib/menus';
import { setLocale, t } from './index';

/**
 * The pseudo-locale run (docs/i18n.md "Pseudo-locale"): every text of the voter and public screens
 * comes out accented, so a run of plain ASCII letters on the page is a string that skipped the
 * catalogue, unless it is data the test put there (names, titles, codes) or a date from Intl.
 */
const DATA = [
  'Kura',
  'Jane Wanjiku',
  'Otieno Omondi',
  'Amina Hassan',
  'Chairperson National',
  'chairperson national',
  'Board National',
  'Grace Achieng',
  'Peter Otieno',
  'Amend rule 12 National',
  'Raise the annual fee.',
  'Nairobi',
  'Annual Meeting',
  'VP-AAAA-BBBB',
  'SHA',
  'PDF',
  'BLT',
  'QR',
  'USSD',
  'SMS',
  'Amend Rule 12 National',
  'ab'.repeat(32),
  // each language is named in itself in the switcher
  'English',
  'Kiswahili',
  'Pseudo (en-XA)',
];
const INTL = /\b(January|February|March|April|May|June|July|August|September|October|November|December|UTC|GMT|EAT|AM|PM|at)\b/g;

function plainEnglish(): string[] {
  let text = document.body.textContent ?? '';
  for (const el of document.body.querySelectorAll('[aria-label], [placeholder], [alt], [title]')) {
    for (const attr of ['aria-label', 'placeholder', 'alt', 'title']) text += ` ${el.getAttribute(attr) ?? ''}`;
  }
  for (const d of DATA) text = text.split(d).join(' ');
  text = text.replace(INTL, ' ');
  return [...new Set(text.match(/(?<![\p{L}])[A-Za-z]{2,}(?![\p{L}])/gu) ?? [])];
}

const ballot = [
  aBallotGroup(
    1,
    'chairperson national',
    [aCandidate(11, 'Jane Wanjiku', { statement: 'Raise the annual fee.' }), aCandidate(12, 'Otieno Omondi')],
    { seats: 2 },
  ),
  aBallotGroup(7, 'Board National', [aCandidate(13, 'Amina Hassan')], { method: 'ranked' }),
  aMotionGroup(8, 'Amend rule 12 National', [21, 22, 23], { threshold: 'two_thirds', quorum_percent: 50 }),
];

function server() {
  stubRoutes(
    stub(contract.api.ballots.getBallot, { status: 200, body: { data: ballot } }),
    stub(contract.api.elections.getElectionStatus, { status: 200, body: { active: '1' } }),
    stub(contract.api.vvpat.getMyVvpat, {
      status: 200,
      body: {
        data: {
          votes: [
            {
              vvpat: 'VP-AAAA-BBBB',
              name: 'Jane Wanjiku',
              position: 'Chairperson National',
              kind: 'candidates',
              count: 12,
              election_id: 1,
              election: 'Annual Meeting',
            },
          ],
        },
      },
    }),
    stub(
      contract.api.elections.getReceipt,
      {
        status: 200,
        body: { vvpat: 'VP-AAAA-BBBB', position: 'Chairperson National', recorded: true, election_id: 1, election: 'Annual Meeting' },
      },
      { vvpat: 'VP-AAAA-BBBB' },
    ),
    stub(contract.api.elections.listCommitments, {
      status: 200,
      body: { data: [{ at: '2026-11-23T10:00:00.000Z', count: 12, hash: 'ab'.repeat(32) }] },
    }),
    stub(contract.api.elections.getElection, {
      status: 200,
      body: {
        data: anElection(1, '', {
          organisation: '',
          opens_at: '2026-05-04T05:00:00.000Z',
          closes_at: '2026-05-06T14:00:00.000Z',
          phase: 'closed',
        }),
      },
    }),
  );
}

afterEach(() => vi.unstubAllGlobals());

async function pseudo(ui: ReactNode, url: string, ready: () => Promise<unknown>) {
  server();
  setLocale('en-XA');
  await renderWithProviders(ui, url);
  await ready();
}

describe('no untranslated text on the voter and public screens (en-XA)', () => {
  it('sign-in and its public frame', async () => {
    await pseudo(<SignIn />, '/sign-in', () => screen.findByTestId('voting-countdown'));
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'ab' } });
    await screen.findAllByRole('alert');
    expect(plainEnglish().join(' ')).toBe('');
  });

  it('a screen’s error state and the Retry of a failed read', async () => {
    await pseudo(
      <>
        <ScreenError error={new Error('boom')} reset={() => {}} />
        <StatisticsTiles statistics={undefined} error onRetry={() => {}} />
      </>,
      '/voter',
      () => screen.findAllByRole('alert'),
    );
    expect(screen.getAllByRole('button')).toHaveLength(2);
    expect(plainEnglish().join(' ')).toBe('');
  });

  it('verify member details', async () => {
    await pseudo(<VerifyDetails />, '/verify', () => screen.findAllByRole('button'));
    expect(plainEnglish().join(' ')).toBe('');
  });

  it('the voter shell, dashboard and tutorial', async () => {
    await pseudo(
      <AppShell menu={VOTER_MENU} extraTitles={VOTER_EXTRA_TITLES} showColourDialog showPinDialog showLanguage signOutTo="/">
        <VoterDashboard />
        <Education />
      </AppShell>,
      '/voter',
      () => screen.findAllByRole('listitem'),
    );
    expect(plainEnglish().join(' ')).toBe('');
    // the banner's dialogs, one at a time
    for (const key of ['colours.open', 'pin.open', 'issue.open'] as const) {
      fireEvent.click(screen.getByRole('button', { name: t(key) }));
      const dialog = await screen.findByRole('dialog');
      expect(plainEnglish().join(' ')).toBe('');
      fireEvent.click(within(dialog).getByRole('button', { name: t('common.close') }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    }
  });

  it('the ballot: plurality, ranked, motion, and the confirmation', async () => {
    await pseudo(<Elect />, '/voter/elect', () => screen.findAllByRole('checkbox'));
    fireEvent.click(screen.getAllByRole('checkbox')[0]!);
    fireEvent.click(screen.getAllByRole('radio')[0]!);
    fireEvent.click(screen.getAllByRole('button').find((b) => b.getAttribute('type') === 'submit')!);
    await screen.findByRole('alertdialog');
    expect(plainEnglish().join(' ')).toBe('');
  });

  it('the voter’s receipts', async () => {
    await pseudo(<VoterVvpat />, '/voter/vpat', () => screen.findByRole('table'));
    expect(plainEnglish().join(' ')).toBe('');
  });

  it('the receipt check', async () => {
    await pseudo(<ReceiptCheck />, '/receipt?code=VP-AAAA-BBBB', () => screen.findByText('VP-AAAA-BBBB'));
    expect(plainEnglish().join(' ')).toBe('');
  });

  it('commitments', async () => {
    await pseudo(<Commitments />, '/commitments', () => screen.findByRole('table'));
    expect(plainEnglish().join(' ')).toBe('');
  });

  it('landing statistics', async () => {
    await pseudo(<Landing />, '/', () => screen.findByTestId('voting-countdown'));
    expect(plainEnglish().join(' ')).toBe('');
  });

  it('the declaration', async () => {
    await pseudo(
      <Declaration
        result={declaredResult([
          motionResult(),
          {
            position_id: 1,
            title: 'Chairperson National',
            kind: 'candidates',
            method: 'plurality',
            seats: 1,
            total: 5,
            values: [
              { candidate_id: 11, title: 'Jane Wanjiku', name: 'Jane Wanjiku', member_no: '1001', count: 5, elected: true, tied: false },
            ],
          },
          {
            position_id: 7,
            title: 'Board National',
            kind: 'candidates',
            method: 'ranked',
            seats: 1,
            ballots: 3,
            quota: '2.00000',
            values: [
              { candidate_id: 1, name: 'Grace Achieng', first_preferences: 2, votes: '2.00000', elected: true },
              { candidate_id: 2, name: 'Peter Otieno', first_preferences: 1, votes: '1.00000', elected: false },
            ],
            nontransferable: '0.00000',
            rounds: [{ round: 1, action: 'elect', candidate_ids: [1], votes: { 1: '2.00000', 2: '1.00000' }, nontransferable: '0.00000' }],
          },
        ])}
      />,
      '/results',
      () => screen.findByTestId('motion-outcome-8'),
    );
    expect(plainEnglish().join(' ')).toBe('');
  });
});
