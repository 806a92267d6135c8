import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { stubFetch } from '@/test/fetch';
import { SignIn } from './sign-in-page';

afterEach(() => {
  vi.unstubAllGlobals();
});

async function submitIdentifier(value: string) {
  const input = await screen.findByLabelText('Member number or email');
  fireEvent.change(input, { target: { value } });
  fireEvent.click(screen.getByRole('checkbox'));
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('sign-in flow (docs/screens.md "Sign-in and session loss")', () => {
  it("sends an unknown member to /sign-up with 'There has been the below issue'", async () => {
    const calls = stubFetch(({ path }) =>
      path === '/verify/phone'
        ? { status: 404, body: { message: 'No account found, try signing up', issue: 'No such user exists' } }
        : { status: 204 },
    );
    const { router } = await renderWithProviders(<SignIn />, '/sign-in');
    await submitIdentifier('99999');
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-up'));
    expect(screen.getAllByText('There has been the below issue').length).toBeGreaterThan(0);
    expect(calls.find((c) => c.path === '/verify/phone')?.body).toEqual({ unique_id: '99999', consent: true });
  });

  it('shows the SMS token step, stores the session as member and goes to /voter after 2 s', async () => {
    const session = { bearer_token: 'tok', hash: 'hh', name: 'Jane', photo: null, balance: 0, message: 'Welcome' };
    const calls = stubFetch(({ path }) => {
      if (path === '/verify/phone') return { status: 200, body: { message: 'Code sent' } };
      if (path === '/verify/sms') return { status: 200, body: session };
      return { status: 204 };
    });
    const { router } = await renderWithProviders(<SignIn />, '/sign-in');
    await submitIdentifier('1001');
    expect(await screen.findByText('Enter 6 digit secure OTP')).toBeTruthy();
    const token = screen.getByLabelText('SMS token');
    fireEvent.change(token, { target: { value: '12' } });
    expect(await screen.findByText('Must be at least 6 characters long')).toBeTruthy();
    fireEvent.change(token, { target: { value: '123456' } });
    await waitFor(() => expect(screen.queryByText('Must be at least 6 characters long')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(window.localStorage.getItem('token')).toBe('tok'), { timeout: 3000 });
    expect(window.localStorage.getItem('hash')).toBe('hh');
    expect(window.localStorage.getItem('account_type')).toBe('member');
    expect(window.localStorage.getItem('pfNumber')).toBe('1001');
    expect(calls.find((c) => c.path === '/verify/sms')?.body).toEqual({ token: '123456' });
    expect(router.state.location.pathname).toBe('/sign-in');
    await waitFor(() => expect(router.state.location.pathname).toBe('/voter'), { timeout: 3500 });
  }, 10_000);

  it("goes back to the details with 'Back to input details'", async () => {
    stubFetch(({ path }) => (path === '/verify/phone' ? { status: 200, body: { message: 'Code sent' } } : { status: 204 }));
    await renderWithProviders(<SignIn />, '/sign-in');
    await submitIdentifier('1001');
    fireEvent.click(await screen.findByRole('button', { name: 'Back to input details' }));
    expect(await screen.findByLabelText('Member number or email')).toBeTruthy();
  });
});
