import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { contract } from '@kura/contract';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
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
    const calls = stubRoutes(
      stub(contract.api.auth.loginAdmin, { status: 200, body: { message: 'Code sent' } }),
      stub(contract.api.auth.verifyAdmin, { status: 200, body: session }),
    );
    const { router } = await renderWithProviders(<StaffLogin role="admin" />, '/admin/login');
    await fillAdmin();
    expect(await screen.findByText(OTP_PROMPT)).toBeTruthy();
    expect(OTP_PROMPT).toBe('Enter security otp sent to your email');
    expect(window.localStorage.getItem('account_type')).toBe('admin');
    expect(callsTo(calls, contract.api.auth.loginAdmin)[0]!.body).toEqual({ email: 'admin@example.org', password: 'secret' });

    fireEvent.change(screen.getByLabelText('Security code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(window.localStorage.getItem('token')).toBe('tok'), { timeout: 3000 });
    expect(callsTo(calls, contract.api.auth.verifyAdmin)[0]!.body).toEqual({ token: '123456' });
    expect(router.state.location.pathname).toBe('/admin/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'), { timeout: 4000 });
  }, 10_000);

  it("says 'An error occurred' / 'Invalid credentials' on a 401", async () => {
    stubRoutes(stub(contract.api.auth.loginAdmin, { status: 401, body: { message: 'Invalid credentials' } }));
    await renderWithProviders(<StaffLogin role="admin" />, '/admin/login');
    await fillAdmin();
    expect(await screen.findByText('Invalid credentials')).toBeTruthy();
    expect(screen.getByText('An error occurred')).toBeTruthy();
    expect(screen.queryByText(OTP_PROMPT)).toBeNull();
  });

  it('shows the server message on other login failures', async () => {
    stubRoutes(stub(contract.api.auth.loginAdmin, { status: 502, body: { message: 'The email could not be sent' } }));
    await renderWithProviders(<StaffLogin role="admin" />, '/admin/login');
    await fillAdmin();
    expect(await screen.findByText('The email could not be sent')).toBeTruthy();
    expect(screen.getByText('An error occurred')).toBeTruthy();
  });

  it("says 'There has been the following issue' when the code fails, and 'Back to input details' returns", async () => {
    stubRoutes(
      stub(contract.api.auth.loginAdmin, { status: 200, body: { message: 'Code sent' } }),
      stub(contract.api.auth.verifyAdmin, { status: 401, body: { message: 'The code is wrong or has expired' } }),
    );
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

describe('admin login: the fields', () => {
  it('asks for the username and the password before sending anything', async () => {
    const calls = stubRoutes();
    await renderWithProviders(<StaffLogin role="admin" />, '/admin/login');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter your username')).toBeTruthy();
    expect(screen.getByText('Enter your password')).toBeTruthy();
    expect(callsTo(calls, contract.api.auth.loginAdmin)).toEqual([]);
  });
});

describe('agent login (docs/screens.md "Sign-in and session loss")', () => {
  it('asks for the email only, then the code, and stores account type agent', async () => {
    const calls = stubRoutes(stub(contract.api.auth.loginAgent, { status: 200, body: { message: 'Code sent' } }));
    await renderWithProviders(<StaffLogin role="agent" />, '/agent/login');
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'agent@example.org' } });
    expect(screen.queryByLabelText('Password')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(OTP_PROMPT)).toBeTruthy();
    expect(window.localStorage.getItem('account_type')).toBe('agent');
    expect(callsTo(calls, contract.api.auth.loginAgent)[0]!.body).toEqual({ email: 'agent@example.org' });
  });

  it('asks for the email before sending anything, and the message goes once it is typed', async () => {
    const calls = stubRoutes();
    await renderWithProviders(<StaffLogin role="agent" />, '/agent/login');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    const email = screen.getByLabelText('Email');
    expect((await screen.findByRole('alert')).textContent).toBe('Enter your email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toBe(screen.getByRole('alert').id);
    fireEvent.change(email, { target: { value: 'agent@example.org' } });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(email.getAttribute('aria-invalid')).toBeNull();
    // Nothing sent: the only call is the read of whether an admin exists (the first-admin note).
    expect(calls.filter((c) => c.path !== '/staff/status').length).toBe(0);
  });
});
