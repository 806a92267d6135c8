import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { stubFetch } from '@/test/fetch';
import { OTP_PROMPT, StaffLogin } from './staff-login';

const session = { bearer_token: 'tok', hash: 'h', name: 'Ada Admin', photo: null, balance: 0, message: 'Signed in' };

afterEach(() => vi.unstubAllGlobals());

async function fillAdmin() {
  fireEvent.change(await screen.findByLabelText('Username'), { target: { value: 'admin@example.org' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('admin login (docs/screens.md "Sign-in and session loss")', () => {
  it('stores the account type at the attempt, asks for the emailed code, and goes to /admin 2 s after Verify', async () => {
    const calls = stubFetch(({ path }) => {
      if (path === '/admin/login') return { status: 200, body: { message: 'Code sent' } };
      if (path === '/verify/admin') return { status: 200, body: session };
      return undefined;
    });
    const { router } = await renderWithProviders(<StaffLogin role="admin" />, '/admin/login');
    await fillAdmin();
    expect(await screen.findByText(OTP_PROMPT)).toBeTruthy();
    expect(OTP_PROMPT).toBe('Enter security otp sent to your email');
    expect(window.localStorage.getItem('account_type')).toBe('admin');
    expect(calls.find((c) => c.path === '/admin/login')!.body).toEqual({ email: 'admin@example.org', password: 'secret' });

    fireEvent.change(screen.getByLabelText('Security code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(window.localStorage.getItem('token')).toBe('tok'), { timeout: 3000 });
    expect(calls.find((c) => c.path === '/verify/admin')!.body).toEqual({ token: '123456' });
    expect(router.state.location.pathname).toBe('/admin/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'), { timeout: 4000 });
  }, 10_000);

  it("says 'An error occurred' / 'Invalid credentials' on a 401", async () => {
    stubFetch(({ path }) => (path === '/admin/login' ? { status: 401, body: { message: 'Invalid credentials' } } : undefined));
    await renderWithProviders(<StaffLogin role="admin" />, '/admin/login');
    await fillAdmin();
    expect(await screen.findByText('Invalid credentials')).toBeTruthy();
    expect(screen.getByText('An error occurred')).toBeTruthy();
    expect(screen.queryByText(OTP_PROMPT)).toBeNull();
  });

  it('shows the server message on other login failures', async () => {
    stubFetch(({ path }) => (path === '/admin/login' ? { status: 502, body: { message: 'The email could not be sent' } } : undefined));
    await renderWithProviders(<StaffLogin role="admin" />, '/admin/login');
    await fillAdmin();
    expect(await screen.findByText('The email could not be sent')).toBeTruthy();
    expect(screen.getByText('An error occurred')).toBeTruthy();
  });

  it("says 'There has been the following issue' when the code fails, and 'Back to input details' returns", async () => {
    stubFetch(({ path }) => {
      if (path === '/admin/login') return { status: 200, body: { message: 'Code sent' } };
      if (path === '/verify/admin') return { status: 401, body: { message: 'The code is wrong or has expired' } };
      return undefined;
    });
    await renderWithProviders(<StaffLogin role="admin" />, '/admin/login');
    await fillAdmin();
    fireEvent.change(await screen.findByLabelText('Security code'), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('The code is wrong or has expired', {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByText('There has been the following issue')).toBeTruthy();
    expect(window.localStorage.getItem('token')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Back to input details' }));
    expect(await screen.findByLabelText('Username')).toBeTruthy();
  });
});

describe('agent login (docs/screens.md "Sign-in and session loss")', () => {
  it('asks for the email only, then the code, and stores account type agent', async () => {
    const calls = stubFetch(({ path }) => (path === '/agent/login' ? { status: 200, body: { message: 'Code sent' } } : undefined));
    await renderWithProviders(<StaffLogin role="agent" />, '/agent/login');
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'agent@example.org' } });
    expect(screen.queryByLabelText('Password')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(OTP_PROMPT)).toBeTruthy();
    expect(window.localStorage.getItem('account_type')).toBe('agent');
    expect(calls.find((c) => c.path === '/agent/login')!.body).toEqual({ email: 'agent@example.org' });
  });
});
