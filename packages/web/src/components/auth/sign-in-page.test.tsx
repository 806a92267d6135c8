import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { contract, IDENTIFIER_FORMAT_MESSAGE, inEnglish } from '@kura/contract';
import { stub, stubRoutes } from '@/test/fetch';
import { anElection } from '@/test/elections';
import { anOrganisation } from '@/test/organisation';
import { renderWithProviders } from '@/test/render';
import { SignIn } from './sign-in-page';
import { SignUp, SIGN_UP_UNAVAILABLE } from './sign-up-page';
import { AuthenticatorHint } from '@/components/voter/dashboard-page';

async function setup() {
  await renderWithProviders(<SignIn />, '/sign-in');
  const input = await screen.findByLabelText('Member number, phone number or email');
  const button = screen.getByRole('button', { name: 'Sign in' });
  return { input: input as HTMLInputElement, button: button as HTMLButtonElement };
}

const type = (input: HTMLInputElement, value: string) => fireEvent.change(input, { target: { value } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('sign-in identifier validation (docs/api.md "Validation")', () => {
  it('says too short below 3 characters and disables Sign in', async () => {
    const { input, button } = await setup();
    type(input, 'ab');
    expect(await screen.findByText('Must be at least 3 characters long')).toBeTruthy();
    expect(button.disabled).toBe(true);
  });

  it('says too long above 150 characters', async () => {
    const { input, button } = await setup();
    type(input, '1'.repeat(151));
    expect(await screen.findByText('Must be at most 150 characters long')).toBeTruthy();
    expect(button.disabled).toBe(true);
  });

  it('rejects anything that is not digits, an email or CMAKE##/##', async () => {
    const { input } = await setup();
    type(input, 'hello world');
    expect(await screen.findByText(inEnglish(IDENTIFIER_FORMAT_MESSAGE))).toBeTruthy();
    type(input, 'CMAKE 12');
    expect(await screen.findByText(inEnglish(IDENTIFIER_FORMAT_MESSAGE))).toBeTruthy();
  });

  it("follows the organisation's member-number format: UFC 001 (with a space) under 'UFC \\d{3}', not XYZ-1", async () => {
    stubRoutes(
      stub(contract.api.organisation.getOrganisation, {
        status: 200,
        body: { data: anOrganisation({ name: 'Umoja', time_zone: 'UTC', member_no_pattern: 'UFC \\d{3}' }) },
      }),
    );
    const { input, button } = await setup();
    // The default rule refuses a space; the organisation's format takes it once it is read.
    type(input, 'ab');
    await screen.findByText('Must be at least 3 characters long');
    await waitFor(() => {
      type(input, 'UFC 00');
      type(input, 'UFC 001');
      expect(screen.queryByRole('alert')).toBeNull();
      expect(button.disabled).toBe(false);
    });
    type(input, 'XYZ-1');
    expect(await screen.findByText(inEnglish(IDENTIFIER_FORMAT_MESSAGE))).toBeTruthy();
    type(input, '0712 345 678');
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it.each(['12345', 'jane@example.org', 'CMAKE12/34', '0712 345 678', '0712-345-678', '254712345678', '+254 712 345 678'])(
    'accepts %s live and enables Sign in',
    async (value) => {
      const { input, button } = await setup();
      type(input, 'ab');
      await screen.findByText('Must be at least 3 characters long');
      type(input, value);
      await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
      expect(button.disabled).toBe(false);
      expect(input.getAttribute('aria-invalid')).toBeNull();
    },
  );

  it('asks for the member number when empty and for consent before sending', async () => {
    const { input, button } = await setup();
    fireEvent.click(button);
    expect(await screen.findByText('Enter your member number', { selector: '[role=alert]' })).toBeTruthy();
    type(input, '12345');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('You must accept the data collection, privacy and terms to continue')).toBeTruthy();
  });

  it('links the three consent documents and explains Google sign-in is unavailable without a client id', async () => {
    await setup();
    expect(screen.getByRole('link', { name: 'data collection' }).getAttribute('href')).toBe('/data-collection');
    expect(screen.getByRole('link', { name: 'privacy policy' }).getAttribute('href')).toBe('/privacy');
    expect(screen.getByRole('link', { name: 'terms and conditions' }).getAttribute('href')).toBe('/terms');
    const google = screen.getByRole('button', { name: 'Sign in with Google' }) as HTMLButtonElement;
    expect(google.disabled).toBe(true);
    expect(screen.getByText(/Google sign-in is unavailable/)).toBeTruthy();
  });
});

describe('the ways in from the sign-in page', () => {
  it('offers the authenticator sign-in and the admin and agent logins', async () => {
    await setup();
    expect(screen.getByRole('link', { name: 'Sign in with your authenticator app' }).getAttribute('href')).toBe('/password');
    expect(screen.getByRole('link', { name: 'Admin login' }).getAttribute('href')).toBe('/admin/login');
    expect(screen.getByRole('link', { name: 'Agent login' }).getAttribute('href')).toBe('/agent/login');
  });

  it('the voter dashboard leads to the authenticator set-up (/scan-qr)', async () => {
    await renderWithProviders(<AuthenticatorHint />, '/voter');
    expect((await screen.findByRole('link', { name: 'set up an authenticator app' })).getAttribute('href')).toBe('/scan-qr');
  });

  it('without Google, "No account yet?" leads to checking the member details, not to a sign-up that cannot work', async () => {
    await setup();
    expect(screen.queryByRole('link', { name: 'Sign up' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Check your member details' }).getAttribute('href')).toBe('/verify');
  });

  it('without Google, sign-up explains why and what to do instead, and hides the form that cannot succeed', async () => {
    // The support address is the one the admin set on the election (GET election).
    stubRoutes(
      stub(contract.api.elections.getElection, {
        status: 200,
        body: { data: anElection(1, 'AGM', { organisation: 'Umoja Savings', support_email: 'help@umoja.example', time_zone: 'UTC' }) },
      }),
    );
    await renderWithProviders(<SignUp />, '/sign-up');
    const note = await screen.findByRole('note');
    await screen.findByRole('link', { name: 'help@umoja.example' });
    expect(note.textContent).toContain('Umoja Savings registers its members');
    expect(note.textContent).toContain(SIGN_UP_UNAVAILABLE);
    expect(screen.getByRole('link', { name: 'Sign in with your member number or email' }).getAttribute('href')).toBe('/sign-in');
    expect(screen.getByRole('link', { name: 'Check your member details' }).getAttribute('href')).toBe('/verify');
    expect(screen.getByRole('link', { name: 'help@umoja.example' }).getAttribute('href')).toBe('mailto:help@umoja.example');
    expect(screen.queryByRole('button', { name: 'Sign up' })).toBeNull();
  });
});
