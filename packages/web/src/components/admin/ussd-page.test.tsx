import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { contract, type UssdStatus } from '@kura/contract';
import { setLocale } from '@/i18n';
import { renderWithProviders } from '@/test/render';
import { stub, stubRoutes } from '@/test/fetch';
import { UssdPage } from './ussd-page';
import { USSD_SCREEN_MAX } from './ussd-simulator';

const TOKEN = 'secret-token-0123456789abcdef0123456789';
const PATH = `/api/v1/ussd/${TOKEN}`;

type GatewayCall = { sessionId: string; phoneNumber: string; serviceCode: string; text: string };

/**
 * The server as the page sees it: GET ussd/status through the typed stub, and the callback as a
 * tiny gateway script answering text/plain by the session's `text` (the real answers are the
 * server's tests'). Answers the callback's requests, decoded from their form bodies.
 */
function server(status: UssdStatus, answers: Record<string, string> = {}) {
  stubRoutes(stub(contract.api.ussd.getUssdStatus, { status: 200, body: status }));
  const routed = globalThis.fetch;
  const gateway: GatewayCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url !== PATH) return routed(input, init);
      expect(init?.method).toBe('POST');
      expect(new Headers(init?.headers).get('Content-Type')).toBe('application/x-www-form-urlencoded');
      const form = Object.fromEntries(new URLSearchParams(String(init?.body))) as GatewayCall;
      gateway.push(form);
      const answer = answers[form.text];
      return answer === undefined
        ? new Response('Not found', { status: 404 })
        : new Response(answer, { headers: { 'Content-Type': 'text/plain' } });
    }),
  );
  return gateway;
}

afterEach(() => {
  vi.unstubAllGlobals();
  setLocale('en');
});

describe('the admin’s USSD page', () => {
  it('says the channel is on and shows the callback URL hidden until asked for', async () => {
    server({ enabled: true, callback_path: PATH });
    await renderWithProviders(<UssdPage />, '/admin/ussd');
    expect((await screen.findByTestId('ussd-channel-state')).textContent).toBe('On');
    const url = screen.getByTestId('ussd-callback-url');
    expect(url.textContent).toBe(`${window.location.origin}/api/v1/ussd/secr…`);
    expect(document.body.textContent).not.toContain(TOKEN);
    const show = screen.getByRole('button', { name: 'Show the full address' });
    expect(show.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(show);
    expect(url.textContent).toBe(`${window.location.origin}${PATH}`);
    const hide = screen.getByRole('button', { name: 'Hide the address' });
    expect(hide.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(hide);
    expect(document.body.textContent).not.toContain(TOKEN);
  });

  it('says the channel is off and how to turn it on, with no simulator', async () => {
    server({ enabled: false, callback_path: null });
    await renderWithProviders(<UssdPage />, '/admin/ussd');
    expect((await screen.findByTestId('ussd-channel-state')).textContent).toBe('Off');
    expect(screen.getByText(/USSD_CALLBACK_TOKEN/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Dial' })).toBeNull();
    expect(screen.getByText('The simulator works once the USSD channel is on.')).toBeTruthy();
  });

  it('shows an error with a retry when the state cannot be read', async () => {
    let fail = true;
    stubRoutes(
      stub(contract.api.ussd.getUssdStatus, () =>
        fail ? { status: 500, body: { message: 'Server Error' } } : { status: 200, body: { enabled: false, callback_path: null } },
      ),
    );
    await renderWithProviders(<UssdPage />, '/admin/ussd');
    expect((await screen.findByRole('alert')).textContent).toBe("The USSD channel's state could not be loaded.");
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByTestId('ussd-channel-state')).textContent).toBe('Off');
  });

  it('drives the callback as the gateway does: one sessionId, the phone, every input so far in text', async () => {
    const gateway = server(
      { enabled: true, callback_path: PATH },
      {
        '': 'CON Chama cha Walimu\nEnter your member number',
        '1001': 'CON A 6-digit code has been sent to you by SMS.\nEnter the code',
        '1001*483920': 'CON Chair\n1.Alice\n2.Brian\n0.Back 00.Skip',
        '1001*483920*2': 'END Your vote is recorded. Your receipts follow by SMS. Thank you.',
      },
    );
    await renderWithProviders(<UssdPage />, '/admin/ussd');
    const dial = await screen.findByRole('button', { name: 'Dial' });
    expect(dial.hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByLabelText('Dialling phone number'), { target: { value: '+254712345678' } });
    fireEvent.click(dial);
    const log = screen.getByRole('log', { name: 'Phone screen' });
    await waitFor(() => expect(log.textContent).toBe('Chama cha Walimu\nEnter your member number'));
    expect(screen.getByText(`41 of ${USSD_SCREEN_MAX} characters`)).toBeTruthy();
    // Typed, then sent.
    const answer = screen.getByLabelText('Your answer');
    await waitFor(() => expect(document.activeElement).toBe(answer));
    fireEvent.change(answer, { target: { value: '1001' } });
    fireEvent.submit(answer);
    await waitFor(() => expect(log.textContent).toMatch(/^A 6-digit code/));
    // Keyed in on the keypad, one slip deleted.
    const keypad = screen.getByRole('group', { name: 'Keypad' });
    for (const key of ['4', '8', '3', '9', '2', '0', '7']) fireEvent.click(within(keypad).getByRole('button', { name: key }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect((answer as HTMLInputElement).value).toBe('483920');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(log.textContent).toMatch(/^Chair/));
    fireEvent.click(within(keypad).getByRole('button', { name: '2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(log.textContent).toBe('Your vote is recorded. Your receipts follow by SMS. Thank you.'));
    expect(screen.getByTestId('ussd-state').textContent).toBe('Session ended. Dial again to start a new one.');
    expect(answer.hasAttribute('disabled')).toBe(true);

    expect(gateway.map((g) => g.text)).toEqual(['', '1001', '1001*483920', '1001*483920*2']);
    expect(new Set(gateway.map((g) => g.sessionId)).size).toBe(1);
    expect(gateway.every((g) => g.phoneNumber === '+254712345678' && g.serviceCode)).toBe(true);

    // Dialling again is a new session.
    fireEvent.click(screen.getByRole('button', { name: 'Hang up' }));
    fireEvent.click(screen.getByRole('button', { name: 'Dial' }));
    await waitFor(() => expect(gateway).toHaveLength(5));
    expect(gateway[4]!.text).toBe('');
    expect(gateway[4]!.sessionId).not.toBe(gateway[0]!.sessionId);
  });

  it('says so when the callback refuses', async () => {
    server({ enabled: true, callback_path: PATH }, {});
    await renderWithProviders(<UssdPage />, '/admin/ussd');
    fireEvent.change(await screen.findByLabelText('Dialling phone number'), { target: { value: '+254712345678' } });
    fireEvent.click(screen.getByRole('button', { name: 'Dial' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The callback answered with status 404.');
  });

  it('speaks Kiswahili', async () => {
    server({ enabled: true, callback_path: PATH });
    setLocale('sw');
    await renderWithProviders(<UssdPage />, '/admin/ussd');
    expect((await screen.findByTestId('ussd-channel-state')).textContent).toBe('Imewashwa');
    expect(screen.getByRole('button', { name: 'Piga' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Vitufe' })).toBeTruthy();
    expect(screen.getByRole('log', { name: 'Skrini ya simu' })).toBeTruthy();
  });
});
