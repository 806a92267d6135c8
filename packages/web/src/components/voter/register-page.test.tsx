import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { contract, type Claim, type MyRegisterEntry } from '@kura/contract';
import { setLocale } from '@/i18n';
import { renderWithProviders } from '@/test/render';
import { anElection } from '@/test/elections';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
import { RegisterCheck, windowState } from './register-page';

afterEach(() => {
  vi.unstubAllGlobals();
  setLocale('en');
});

const DAY = 86_400_000;
const open = { opens_at: new Date(Date.now() - DAY).toISOString(), closes_at: new Date(Date.now() + DAY).toISOString() };

const entry = (over: Partial<MyRegisterEntry> = {}): MyRegisterEntry => ({
  on_roll: false,
  frozen: false,
  member_no: 'M-7',
  name: 'Wanjiru Kamau',
  branch: 'Nakuru',
  reasons: ['Subscription paid: no value', 'Shares (KSh): must be at least 20000'],
  register: open,
  ...over,
});

const claim = (over: Partial<Claim> = {}): Claim => ({
  id: 3,
  election_id: 1,
  member_no: 'M-7',
  name: 'Wanjiru Kamau',
  kind: 'correction',
  subject_member_no: null,
  details: 'My shares were paid in March.',
  status: 'pending',
  reason: null,
  created_at: '2026-03-02T08:00:00.000Z',
  decided_at: null,
  ...over,
});

function server(me: MyRegisterEntry, claims: Claim[], fileClaim?: (body: unknown) => Claim | { status: 422 | 403 }) {
  return stubRoutes(
    stub(contract.api.elections.getElection, { status: 200, body: { data: anElection(1, 'Annual election 2026') } }),
    stub(contract.api.register.getMyRegisterEntry, { status: 200, body: { data: me } }),
    stub(contract.api.register.listMyClaims, { status: 200, body: { data: claims } }),
    stub(contract.api.register.fileClaim, (c) => {
      const made = fileClaim?.(c.body);
      if (!made) return undefined;
      if ('status' in made && (made.status === 422 || made.status === 403))
        return made.status === 422
          ? ({
              status: 422,
              body: {
                message: 'An objection must name a member on the roll',
                errors: { subject_member_no: ['An objection must name a member on the roll'] },
              },
            } as never)
          : ({ status: 403, body: { message: 'The register is not open for claims' } } as never);
      return { status: 201, body: { data: made as Claim } };
    }),
  );
}

describe('the member’s "Am I on the roll?" page', () => {
  it('says I am not on the roll and why, shows the window open, and files an objection naming the member', async () => {
    const calls = server(entry(), [], (body) => claim({ kind: 'objection', subject_member_no: 'M-9', ...(body as object) }));
    await renderWithProviders(<RegisterCheck />, '/voter/register');
    expect((await screen.findByTestId('roll-answer')).textContent).toBe('No: you are not on the roll of Annual election 2026.');
    const reasons = screen.getByRole('list', { name: 'The rules of this roll' });
    expect(
      within(reasons)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Not met: Subscription paid: no value', 'Not met: Shares (KSh): must be at least 20000']);
    expect(screen.getByText('Nakuru')).toBeTruthy();
    expect(screen.getByTestId('register-window-state').textContent).toMatch(
      /^The register is open for inspection from .+ to .+\. It is open now: you can make a claim below\.$/,
    );
    expect(screen.getByText('You have made no claim in this election.')).toBeTruthy();

    // An objection needs the member's number: the form says so and sends nothing.
    fireEvent.click(screen.getByRole('radio', { name: 'Objection' }));
    fireEvent.change(screen.getByLabelText('Details'), { target: { value: 'M-9 left the society in 2024.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Make the claim' }));
    expect(await screen.findByText('An objection names the member it objects to')).toBeTruthy();
    expect(callsTo(calls, contract.api.register.fileClaim)).toEqual([]);

    fireEvent.change(screen.getByLabelText('Member number of the member you object to'), { target: { value: 'M-9' } });
    fireEvent.click(screen.getByRole('button', { name: 'Make the claim' }));
    await waitFor(() =>
      expect(callsTo(calls, contract.api.register.fileClaim)[0]?.body).toEqual({
        kind: 'objection',
        details: 'M-9 left the society in 2024.',
        subject_member_no: 'M-9',
      }),
    );
    expect(await screen.findByText('Your claim is recorded: the returning officer will rule on it')).toBeTruthy();
  });

  it('shows the server’s refusal of an objection under the member number field', async () => {
    server(entry(), [], () => ({ status: 422 }));
    await renderWithProviders(<RegisterCheck />, '/voter/register');
    fireEvent.click(await screen.findByRole('radio', { name: 'Objection' }));
    fireEvent.change(screen.getByLabelText('Member number of the member you object to'), { target: { value: 'X-1' } });
    fireEvent.change(screen.getByLabelText('Details'), { target: { value: 'Not a member.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Make the claim' }));
    const field = screen.getByLabelText('Member number of the member you object to');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toBe(
      'An objection must name a member on the roll',
    );
  });

  it('on the roll, with the window closed: no claim form, and my claims with the ruling and its reason', async () => {
    const closed = { opens_at: '2026-02-01T06:00:00.000Z', closes_at: '2026-02-15T15:00:00.000Z' };
    server(entry({ on_roll: true, frozen: true, reasons: [], register: closed }), [
      claim({ status: 'upheld', reason: 'The March payment is on the ledger.', decided_at: '2026-02-10T09:00:00.000Z' }),
      claim({ id: 2, kind: 'objection', subject_member_no: 'M-9', status: 'dismissed', reason: 'M-9 paid on time.' }),
    ]);
    await renderWithProviders(<RegisterCheck />, '/voter/register');
    expect((await screen.findByTestId('roll-answer')).textContent).toBe('Yes: you are on the roll of Annual election 2026.');
    expect(screen.getByText("You meet every rule of this election's roll.")).toBeTruthy();
    expect(screen.getByText('The roll is frozen: it no longer changes for this election.')).toBeTruthy();
    expect(screen.getByTestId('register-window-state').textContent).toMatch(/It is closed: claims can no longer be made\.$/);
    expect(screen.queryByRole('button', { name: 'Make the claim' })).toBeNull();
    const list = await screen.findByRole('list', { name: 'My claims' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(within(first!).getByText('Correction')).toBeTruthy();
    expect(within(first!).getByText('Upheld')).toBeTruthy();
    expect(within(first!).getByText("The returning officer's reason: The March payment is on the ledger.")).toBeTruthy();
    expect(within(second!).getByText('Objection to member M-9')).toBeTruthy();
    expect(within(second!).getByText('Dismissed')).toBeTruthy();
  });

  it('a failed read says so and reads again on Retry', async () => {
    let fail = true;
    stubRoutes(
      stub(contract.api.elections.getElection, { status: 200, body: { data: anElection(1, 'Annual election 2026') } }),
      stub(contract.api.register.getMyRegisterEntry, () =>
        fail ? ({ status: 500, body: { message: 'Server Error' } } as never) : { status: 200, body: { data: entry({ register: null }) } },
      ),
      stub(contract.api.register.listMyClaims, { status: 200, body: { data: [] } }),
    );
    await renderWithProviders(<RegisterCheck />, '/voter/register');
    expect((await screen.findByRole('alert')).textContent).toContain('Your entry on the register could not be loaded.');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: /retry/i }));
    expect(await screen.findByText(/This election has no inspection period/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Make the claim' })).toBeNull();
  });

  it('speaks Kiswahili', async () => {
    setLocale('sw');
    server(entry({ register: null }), []);
    await renderWithProviders(<RegisterCheck />, '/voter/register');
    expect((await screen.findByTestId('roll-answer')).textContent).toBe(
      'Hapana: haumo kwenye daftari la wapiga kura la Annual election 2026.',
    );
    expect(screen.getByRole('heading', { name: 'Madai yangu' })).toBeTruthy();
  });
});

describe('windowState', () => {
  it('is none, upcoming, open or closed, and closed once the roll is frozen', () => {
    const w = { opens_at: '2026-02-01T00:00:00Z', closes_at: '2026-02-10T00:00:00Z' };
    expect(windowState({ register: null, frozen: false })).toBe('none');
    expect(windowState({ register: w, frozen: false }, Date.parse('2026-01-31T23:59:59Z'))).toBe('upcoming');
    expect(windowState({ register: w, frozen: false }, Date.parse('2026-02-01T00:00:00Z'))).toBe('open');
    expect(windowState({ register: w, frozen: true }, Date.parse('2026-02-05T00:00:00Z'))).toBe('closed');
    expect(windowState({ register: w, frozen: false }, Date.parse('2026-02-10T00:00:00Z'))).toBe('closed');
  });
});
