import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { declaredResult, motionResult } from '@/test/results';
import { contract } from '@kura/contract';
import { stub, stubRoutes } from '@/test/fetch';
import { aBallotGroup, aCandidate, aMotionGroup } from '@/test/ballots';
import { SignIn } from '@/components/auth/sign-in-page';
import { Elect } from '@/components/voter/elect-page';
import { Declaration } from '@/components/results/results-page';
import { setLocale } from './index';
import { LANGUAGE_STORAGE_KEY } from './storage';

const ballot = [
  aBallotGroup(
    1,
    'chairperson national',
    [aCandidate(11, 'Jane Wanjiku'), aCandidate(12, 'Otieno Omondi'), aCandidate(13, 'Amina Hassan')],
    { seats: 2 },
  ),
  aMotionGroup(2, 'Constitution amendment', [21, 22, 23], { threshold: 'two_thirds', description: 'Raise the annual fee.' }),
];

function server() {
  return stubRoutes(
    stub(contract.api.ballots.getBallot, { status: 200, body: { data: ballot } }),
    stub(contract.api.elections.getElectionStatus, { status: 200, body: { active: '1' } }),
    stub(contract.api.vvpat.getMyVvpat, { status: 200, body: { data: { votes: [] } } }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the voter screens in Kiswahili (docs/i18n.md)', () => {
  it('the ballot, its motion and the confirmation speak Kiswahili; names stay as they are', async () => {
    server();
    setLocale('sw');
    await renderWithProviders(<Elect />, '/voter/elect');
    expect(await screen.findByText('Chagua hadi 2 (umechagua 0)')).toBeTruthy();
    expect(screen.getByText('Hoja inapita ikiwa angalau theluthi mbili ya kura za Ndiyo na Hapana ni Ndiyo.')).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Ndiyo' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Najizuia' })).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Jane Wanjiku' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Hapana' }));
    expect(screen.getByText('Chagua hadi 2 (umechagua 1)')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Futa chaguo' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Piga kura' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Una uhakika?' });
    expect(within(dialog).getByText('Chaguo zako:')).toBeTruthy();
    expect(within(dialog).getByText(/Jane Wanjiku/)).toBeTruthy();
    expect(within(dialog).getByText(/Hapana/)).toBeTruthy();
    expect(within(dialog).getByText('Kura ikishapigwa haiwezi kubadilishwa.')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Piga kura yangu' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Ghairi' })).toBeTruthy();
  });

  it('sign-in speaks Kiswahili, validation included, and the switcher changes the page and <html lang> at once', async () => {
    // No server behind it (every call 404): the form's own texts speak.
    stubRoutes();
    setLocale('sw');
    await renderWithProviders(<SignIn />, '/sign-in');
    expect(await screen.findByRole('button', { name: 'Ingia' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('sw');
    const input = screen.getByLabelText('Nambari ya mwanachama, nambari ya simu au barua pepe');
    fireEvent.change(input, { target: { value: 'ab' } });
    expect(await screen.findByText('Lazima iwe na angalau herufi 3')).toBeTruthy();
    expect(screen.getByText('Weka nambari yako ya mwanachama au nambari yako ya simu.')).toBeTruthy();

    const select = screen.getByLabelText('Lugha') as HTMLSelectElement;
    expect(select.value).toBe('sw');
    act(() => {
      fireEvent.change(select, { target: { value: 'en' } });
    });
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByText('Must be at least 3 characters long')).toBeTruthy();
    expect(screen.getByLabelText('Language')).toBeTruthy();
    expect(document.documentElement.lang).toBe('en');
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('en');
  });

  it('sign-in in Kiswahili: an unknown member or phone, then the 6-digit code step and "Resend code" in plain words', async () => {
    let known = false;
    stubRoutes(
      stub(contract.api.auth.verifyPhone, () =>
        known
          ? { status: 200, body: { message: 'Code sent' } }
          : { status: 404, body: { message: 'No account found, try signing up', issue: 'No such user exists' } },
      ),
    );
    setLocale('sw');
    await renderWithProviders(<SignIn />, '/sign-in');
    fireEvent.change(await screen.findByLabelText('Nambari ya mwanachama, nambari ya simu au barua pepe'), {
      target: { value: '0712 345 678' },
    });
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Ingia' }));
    expect(await screen.findByText(/^Hatukupata nambari hiyo ya mwanachama au ya simu\. Iangalie, au wasiliana na/)).toBeTruthy();
    known = true;
    fireEvent.click(screen.getByRole('button', { name: 'Ingia' }));
    expect(await screen.findByText('Weka msimbo wa tarakimu 6 tuliokutumia kwa SMS.')).toBeTruthy();
    expect(screen.getByLabelText('Msimbo wa tarakimu 6')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Tuma msimbo tena' }).getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByText(/^Unaweza kuomba msimbo mpya baada ya sekunde (60|59)\.$/)).toBeTruthy();
  });

  it('the printed declaration speaks Kiswahili', async () => {
    // No server behind it (every call 404): the declaration shows what it is given.
    stubRoutes();
    setLocale('sw');
    await renderWithProviders(<Declaration result={declaredResult([motionResult()])} />);
    expect(screen.getByRole('heading', { name: 'Tangazo la matokeo' })).toBeTruthy();
    expect(screen.getByTestId('motion-outcome-8').textContent).toBe('Matokeo: IMEPITA');
    expect(screen.getByRole('rowheader', { name: 'Najizuia' })).toBeTruthy();
    expect(screen.getByText(/Waliopiga kura: 10 kati ya wanachama 12/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Waliopiga kura kwa kila tawi' })).toBeTruthy();
  });
});
