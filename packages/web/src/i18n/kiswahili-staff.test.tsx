import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { stubRoutes } from '@/test/fetch';
import { StaffLogin } from '@/components/staff/staff-login';
import { StatisticsTiles } from '@/components/staff/statistics-tiles';
import { Pager } from '@/components/staff/pager';
import { ReminderProgress } from '@/components/admin/reminders-page';
import { userIdCell } from '@/components/admin/logs-page';
import { positionSummary } from '@/components/admin/setup/positions-section';
import { setLocale, tKnown } from './index';

afterEach(() => {
  vi.unstubAllGlobals();
  setLocale('en');
});

/** docs/i18n.md "What is converted": the staff screens come from the catalogues too. */
describe('the staff screens in Kiswahili (docs/i18n.md)', () => {
  it('the admin login speaks Kiswahili, its validation included', async () => {
    // The server answers nothing here (404): the form's own validation speaks.
    stubRoutes();
    setLocale('sw');
    await renderWithProviders(<StaffLogin role="admin" />, '/admin/login');
    expect(await screen.findByLabelText('Jina la mtumiaji')).toBeTruthy();
    expect(screen.getByLabelText('Nenosiri')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Ingia' }));
    expect(await screen.findByText('Weka jina lako la mtumiaji')).toBeTruthy();
    expect(screen.getByText('Weka nenosiri lako')).toBeTruthy();
  });

  it('the statistics tiles, the pager and a reminder speak Kiswahili', () => {
    setLocale('sw');
    render(
      <>
        <StatisticsTiles statistics={{ votesCasted: 1, verifiedMembers: 2, unverifiedMembers: 0, membersVoted: 1, membersNotVoted: 3 }} />
        <Pager page={2} lastPage={3} onPageChange={() => undefined} />
        <ul>
          <ReminderProgress reminder={{ id: 5, channel: 'sms', total: 10, sent: 3, failed: 1, skipped: 2, status: 'sending' }} />
        </ul>
      </>,
    );
    expect(screen.getByRole('heading', { name: 'Takwimu za Uchaguzi Mkuu' })).toBeTruthy();
    expect(within(screen.getByTestId('tile-votesCasted')).getByText('Kura iliyopigwa (moja kwa kila nafasi)')).toBeTruthy();
    expect(within(screen.getByTestId('tile-verifiedMembers')).getByText('Wanachama waliothibitishwa')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Kurasa' }).textContent).toContain('Ukurasa 2 kati ya 3');
    expect(screen.getByText('#5 kwa SMS')).toBeTruthy();
    expect(screen.getByText('Kinatumwa')).toBeTruthy();
    expect(screen.getByText('3 vimetumwa, 1 vimeshindwa, 2 vimerukwa kati ya 10')).toBeTruthy();
  });

  it('texts built outside components follow the language, English unchanged', () => {
    const motion = { kind: 'motion', seats: 1, method: null, threshold: 'two_thirds', quorum_percent: 40 } as const;
    const seats = { kind: 'candidates', seats: 2, method: 'ranked', threshold: null, quorum_percent: null } as const;
    expect(positionSummary(motion)).toBe('Motion · two thirds · quorum 40%');
    expect(positionSummary(seats)).toBe('2 seats · ranked');
    expect(userIdCell({ user_id: 7, user_type: 'voter' })).toBe('7 (member)');
    setLocale('sw');
    expect(positionSummary(motion)).toBe('Hoja · theluthi mbili · akidi 40%');
    expect(positionSummary(seats)).toBe('viti 2 · kwa mpangilio');
    expect(userIdCell({ user_id: 7, user_type: 'voter' })).toBe('7 (mwanachama)');
    expect(userIdCell({ user_id: null })).toBe('Hakuna');
  });
});

describe('staff failure toasts written in lib/ in English', () => {
  it('are shown in Kiswahili through tKnown', () => {
    setLocale('sw');
    expect(tKnown('Failed to add the branch')).toBe('Imeshindwa kuongeza tawi');
    expect(tKnown('Error fetching branches')).toBe('Hitilafu katika kupata matawi');
    expect(tKnown('An error occurred')).toBe('Hitilafu imetokea');
  });
});
