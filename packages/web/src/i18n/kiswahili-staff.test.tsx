import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { contract } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { stub, stubRoutes } from '@/test/fetch';
import { StaffLogin } from '@/components/staff/staff-login';
import { StatisticsTiles } from '@/components/staff/statistics-tiles';
import { Pager } from '@/components/staff/pager';
import { ReminderProgress } from '@/components/admin/reminders-page';
import { userIdCell } from '@/components/admin/logs-page';
import { positionSummary } from '@/components/admin/setup/positions-section';
import { useCreateBranch } from '@/lib/mutations';
import { useToast } from '@/hooks/use-toast';
import { setLocale } from './index';

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

/** The toasts of a failed staff write, on a fresh query client, in the language active when it failed. */
function failingBranch() {
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  return renderHook(() => ({ create: useCreateBranch(), toasts: useToast().toasts }), { wrapper });
}

describe('staff failure toasts of lib/ come from the catalogue, never from matching their English', () => {
  it('a refused write says its own words in Kiswahili, and the server’s reason as the server said it', async () => {
    // The server answers in the reader's language (Accept-Language): its reason arrives in Kiswahili.
    stubRoutes(stub(contract.api.setup.createBranch, { status: 409, body: { message: 'Tawi lenye jina hili lipo tayari' } }));
    setLocale('sw');
    const hook = failingBranch();
    await act(() => hook.result.current.create.mutateAsync({ body: { name: 'Nairobi' } }).catch(() => undefined));
    await waitFor(() =>
      expect(hook.result.current.toasts.map((x) => [x.title, x.description])).toContainEqual([
        'Imeshindwa kuongeza tawi',
        'Tawi lenye jina hili lipo tayari',
      ]),
    );
  });

  it('with no reason from the server, the generic words are the catalogue’s too', async () => {
    stubRoutes(stub(contract.api.setup.createBranch, { status: 409, body: { message: '' } }));
    setLocale('sw');
    const hook = failingBranch();
    await act(() => hook.result.current.create.mutateAsync({ body: { name: 'Nairobi' } }).catch(() => undefined));
    await waitFor(() =>
      expect(hook.result.current.toasts.map((x) => [x.title, x.description])).toContainEqual([
        'Imeshindwa kuongeza tawi',
        'Tafadhali jaribu tena.',
      ]),
    );
  });
});
