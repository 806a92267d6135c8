import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { contract } from '@kura/contract';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
import { anElection } from '@/test/elections';
import { SignIn } from './sign-in-page';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** GET election of the AGM of Umoja Savings, with the support e-mail `support_email`. */
const election = (support_email: string | null) =>
  stub(contract.api.elections.getElection, {
    status: 200,
    body: { data: anElection(1, 'AGM', { organisation: 'Umoja Savings', support_email, time_zone: 'UTC' }) },
  });
/** POST verify/phone for an identifier the server does not know. */
const UNKNOWN = stub(contract.api.auth.verifyPhone, {
  status: 404,
  body: { message: 'No account found, try signing up', issue: 'No such user exists' },
});
/** POST verify/phone that sends a code. */
const CODE_SENT = stub(contract.api.auth.verifyPhone, { status: 200, body: { message: 'Code sent' } });

async function submitIdentifier(value: string) {
  const input = await screen.findByLabelText('Member number, phone number or email');
  fireEvent.change(input, { target: { value } });
  fireEvent.click(screen.getByRole('checkbox'));
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('sign-in flow (docs/screens.md "Sign-in and session loss")', () => {
  it('says an unknown member number or phone was not found, with the support e-mail, and stays on the page', async () => {
    const calls = stubRoutes(UNKNOWN, election('help@umoja.example'));
    const { router } = await renderWithProviders(<SignIn />, '/sign-in');
    await submitIdentifier('0712 345 678');
    const link = await screen.findByRole('link', { name: 'help@umoja.example' });
    expect(link.getAttribute('href')).toBe('mailto:help@umoja.example');
    expect(link.closest('[role=alert]')?.textContent).toBe(
      'We could not find that member number or phone number. Check it, or contact help@umoja.example.',
    );
    expect(router.state.location.pathname).toBe('/sign-in');
    // No sign-up dead end and no toast repeating the server's "try signing up".
    expect(screen.queryByText('There has been the below issue')).toBeNull();
    expect(screen.queryByText(/try signing up/)).toBeNull();
    expect(callsTo(calls, contract.api.auth.verifyPhone)[0]?.body).toEqual({ unique_id: '0712 345 678', consent: true });
    // Typing again clears it.
    fireEvent.change(screen.getByLabelText('Member number, phone number or email'), { target: { value: '1001' } });
    await waitFor(() => expect(screen.queryByText(/We could not find/)).toBeNull());
  });

  it('without a support e-mail, names the organisation to contact', async () => {
    stubRoutes(UNKNOWN, election(null));
    await renderWithProviders(<SignIn />, '/sign-in');
    await submitIdentifier('99999');
    expect(
      await screen.findByText('We could not find that member number or phone number. Check it, or contact Umoja Savings.'),
    ).toBeTruthy();
  });

  it('offers "Resend code" after the server\'s minute, counting down, and sends a new code for the same identifier', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = stubRoutes(CODE_SENT);
    await renderWithProviders(<SignIn />, '/sign-in');
    await submitIdentifier('+254 712 345 678');
    const resend = await screen.findByRole('button', { name: 'Resend code' });
    expect(resend.getAttribute('aria-disabled')).toBe('true');
    const countdown = document.getElementById(resend.getAttribute('aria-describedby')!)!;
    expect(countdown.textContent).toMatch(/^You can ask for a new code in (60|59) seconds\.$/);
    // Keyboard users keep it in the tab order while waiting; a click then sends nothing.
    resend.focus();
    expect(document.activeElement).toBe(resend);
    fireEvent.click(resend);
    expect(callsTo(calls, contract.api.auth.verifyPhone)).toHaveLength(1);
    await act(async () => {
      vi.advanceTimersByTime(30_000);
    });
    expect(countdown.textContent).toMatch(/^You can ask for a new code in (30|29) seconds\.$/);
    expect(screen.getByTestId('resend-status').textContent).toBe('');
    await act(async () => {
      vi.advanceTimersByTime(31_000);
    });
    expect(resend.getAttribute('aria-disabled')).toBe('false');
    expect(screen.getByTestId('resend-status').textContent).toBe("Didn't get the code? You can ask for a new one now.");
    fireEvent.click(resend);
    await waitFor(() => expect(callsTo(calls, contract.api.auth.verifyPhone)).toHaveLength(2));
    expect(callsTo(calls, contract.api.auth.verifyPhone)[1]!.body).toEqual({ unique_id: '+254 712 345 678', consent: true });
    await waitFor(() =>
      expect(screen.getByTestId('resend-status').textContent).toBe('We sent a new code. The code sent before no longer works.'),
    );
    expect(resend.getAttribute('aria-disabled')).toBe('true');
    expect(countdown.textContent).toMatch(/in (60|59) seconds/);
  });

  it("waits the server's Retry-After when a resend is refused as too soon", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let sends = 0;
    stubRoutes(
      stub(contract.api.auth.verifyPhone, () => {
        sends += 1;
        return sends === 1
          ? { status: 200, body: { message: 'Code sent' } }
          : {
              status: 429,
              body: { message: 'A code was sent less than a minute ago, please wait before asking for another' },
              headers: { 'Retry-After': '17' },
            };
      }),
    );
    await renderWithProviders(<SignIn />, '/sign-in');
    await submitIdentifier('1001');
    const resend = await screen.findByRole('button', { name: 'Resend code' });
    await act(async () => {
      vi.advanceTimersByTime(61_000);
    });
    fireEvent.click(resend);
    await waitFor(() => expect(sends).toBe(2));
    const countdown = document.getElementById(resend.getAttribute('aria-describedby')!)!;
    await waitFor(() => expect(countdown.textContent).toMatch(/in (17|16) seconds/));
  });

  it('shows the 6-digit code step, stores the session as member and goes to /voter after 2 s', async () => {
    const session = { bearer_token: 'tok', hash: 'hh', name: 'Jane', photo: null, balance: 0, message: 'Welcome' };
    const calls = stubRoutes(CODE_SENT, stub(contract.api.auth.verifySms, { status: 200, body: session }));
    const { router } = await renderWithProviders(<SignIn />, '/sign-in');
    await submitIdentifier('1001');
    expect(await screen.findByText('Enter the 6-digit code we sent to your phone by SMS.')).toBeTruthy();
    const token = screen.getByLabelText('6-digit code');
    fireEvent.change(token, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Enter the 6-digit code')).toBeTruthy();
    expect(screen.queryByText(/OTP|SMS token/)).toBeNull();
    fireEvent.change(token, { target: { value: '12' } });
    expect(await screen.findByText('Must be at least 6 characters long')).toBeTruthy();
    fireEvent.change(token, { target: { value: '123456' } });
    await waitFor(() => expect(screen.queryByText('Must be at least 6 characters long')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(window.localStorage.getItem('token')).toBe('tok'), { timeout: 3000 });
    expect(window.localStorage.getItem('hash')).toBe('hh');
    expect(window.localStorage.getItem('account_type')).toBe('member');
    expect(window.localStorage.getItem('pfNumber')).toBe('1001');
    expect(callsTo(calls, contract.api.auth.verifySms)[0]?.body).toEqual({ token: '123456' });
    expect(router.state.location.pathname).toBe('/sign-in');
    await waitFor(() => expect(router.state.location.pathname).toBe('/voter'), { timeout: 3500 });
  }, 10_000);

  it("goes back to the details with 'Back to input details'", async () => {
    stubRoutes(CODE_SENT);
    await renderWithProviders(<SignIn />, '/sign-in');
    await submitIdentifier('1001');
    fireEvent.click(await screen.findByRole('button', { name: 'Back to input details' }));
    expect(await screen.findByLabelText('Member number, phone number or email')).toBeTruthy();
  });
});
