import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { contract } from '@kura/contract';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
import { ChangePinDialog } from './change-pin-dialog';

afterEach(() => vi.unstubAllGlobals());

const TRIVIAL = 'Choose a pin that is harder to guess: not one digit repeated or a run like 1234';

async function openDialog() {
  await renderWithProviders(<ChangePinDialog />, '/voter');
  fireEvent.click(await screen.findByRole('button', { name: 'Change pin' }));
  return screen.findByRole('dialog', { name: 'Change pin' });
}

function fill(dialog: HTMLElement, current: string, next: string) {
  fireEvent.change(within(dialog).getByLabelText('Current pin'), { target: { value: current } });
  fireEvent.change(within(dialog).getByLabelText('New pin'), { target: { value: next } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
}

describe('Change pin dialog (docs/screens.md "Screens")', () => {
  it('sends the current and the new pin and closes with a toast', async () => {
    const calls = stubRoutes(stub(contract.api.auth.changePin, { status: 200, body: { message: 'Pin changed' } }));
    const dialog = await openDialog();
    fill(dialog, '1234', '5083');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(calls, contract.api.auth.changePin)[0]?.body).toEqual({ current_pin: '1234', new_pin: '5083' });
    expect(await screen.findByText('Use your new pin the next time you sign in with your authenticator app.')).toBeTruthy();
  });

  it('refuses a trivial or malformed pin before sending anything', async () => {
    const calls = stubRoutes();
    const dialog = await openDialog();
    fill(dialog, '1234', '1111');
    expect((await within(dialog).findByRole('alert')).textContent).toBe(TRIVIAL);
    fill(dialog, '', '12a');
    expect(await within(dialog).findByText('Enter your current pin')).toBeTruthy();
    expect(within(dialog).getByText('The pin must be 4 to 8 digits')).toBeTruthy();
    expect(callsTo(calls, contract.api.auth.changePin)).toEqual([]);
  });

  it("shows the server's field message (a wrong current pin) beside the field and stays open", async () => {
    stubRoutes(
      stub(contract.api.auth.changePin, { status: 422, body: { message: 'Incorrect pin', errors: { current_pin: ['Incorrect pin'] } } }),
    );
    const dialog = await openDialog();
    fill(dialog, '0000', '5083');
    const current = within(dialog).getByLabelText('Current pin');
    await waitFor(() => expect(current.getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByText('Incorrect pin')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Change pin' })).toBeTruthy();
  });
});
