import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { contract } from '@kura/contract';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { SignUp } from './sign-up-page';

/** The web's own words for a 409 (toast.accountExists), whatever the server said. */
const ACCOUNT_EXISTS = 'Such an account already exists, try signing in or use a different voter id';

// Google is configured, and its button hands over a credential when clicked (no script in tests).
vi.mock('@/lib/config', async (importOriginal) => {
  const real = await importOriginal<typeof import('@/lib/config')>();
  return { ...real, config: { ...real.config, googleClientId: 'test-client.apps.googleusercontent.com' } };
});
let credentials = 0;
vi.mock('@/components/auth/google-button', () => ({
  GoogleButton: ({ onCredential }: { onCredential: (r: { credential: string }) => void }) => (
    <button type="button" onClick={() => onCredential({ credential: `google-credential-${++credentials}` })}>
      Sign up with Google
    </button>
  ),
}));

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

async function fillDetails() {
  fireEvent.change(await screen.findByLabelText('Voter ID'), { target: { value: '1234' } });
  fireEvent.change(screen.getByLabelText('Phone Number'), { target: { value: '0712345689' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign up with Google' }));
  fireEvent.click(screen.getByRole('checkbox'));
  fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
}

describe('sign-up (docs/screens.md "Sign-in and session loss")', () => {
  it('asks for the code texted to the registered phone, then links the account and goes to /sign-in', async () => {
    const calls = stubRoutes(
      stub(contract.api.auth.signup, {
        status: 202,
        body: { message: 'A 6 digit code has been sent to your phone ********89', pfNumber: '1234' },
      }),
      stub(contract.api.auth.verifySignup, {
        status: 201,
        body: { message: 'Account created successfully, you can now sign in', pfNumber: '1234' },
      }),
    );
    const { router } = await renderWithProviders(<SignUp />, '/sign-up');
    await fillDetails();

    expect(await screen.findByText('A 6 digit code has been sent to your phone ********89')).toBeTruthy();
    // Nothing is linked, and nothing stored, before the code.
    expect(callsTo(calls, contract.api.auth.verifySignup).length > 0).toBe(false);
    expect(window.localStorage.getItem('pfNumber')).toBeNull();
    expect(callsTo(calls, contract.api.auth.signup)[0]?.body).toMatchObject({
      pfNumber: '1234',
      phone: '0712345689',
      credential: 'google-credential-1',
    });

    const code = screen.getByLabelText('SMS code');
    fireEvent.change(code, { target: { value: '12' } });
    expect(await screen.findByText('Must be at least 6 characters long')).toBeTruthy();
    fireEvent.change(code, { target: { value: '654321' } });
    await waitFor(() => expect(screen.queryByText('Must be at least 6 characters long')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
    expect(callsTo(calls, contract.api.auth.verifySignup)[0]?.body).toEqual({ token: '654321' });
    expect(window.localStorage.getItem('pfNumber')).toBe('1234');
  });

  it('shows a wrong code and stays on the code step; 409 says the account exists', async () => {
    let verify = 0;
    stubRoutes(
      stub(contract.api.auth.signup, {
        status: 202,
        body: { message: 'A 6 digit code has been sent to your phone ********89', pfNumber: '1234' },
      }),
      stub(contract.api.auth.verifySignup, () =>
        ++verify === 1
          ? { status: 401, body: { message: 'The code is incorrect, please try again', issue: 'The code is incorrect, please try again' } }
          : { status: 409, body: { message: 'This voter ID already has an account' } },
      ),
    );
    const { router } = await renderWithProviders(<SignUp />, '/sign-up');
    await fillDetails();
    const code = await screen.findByLabelText('SMS code');
    fireEvent.change(code, { target: { value: '111111' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Verify' }));
    expect((await screen.findAllByText('The code is incorrect, please try again')).length).toBeGreaterThan(0);
    expect(router.state.location.pathname).toBe('/sign-up');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findAllByText(ACCOUNT_EXISTS)).length).toBeGreaterThan(0);
    expect(window.localStorage.getItem('pfNumber')).toBeNull();
  });

  it('a refused first step asks for Google again (a Google sign-in is accepted once)', async () => {
    stubRoutes(stub(contract.api.auth.signup, { status: 404, body: { message: 'No member matches this voter ID and phone number' } }));
    await renderWithProviders(<SignUp />, '/sign-up');
    await fillDetails();
    expect((await screen.findAllByText(/No member matches this voter ID and phone number/)).length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Sign up with Google' })).toBeTruthy();
    expect(screen.queryByLabelText('SMS code')).toBeNull();
  });
});
