import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { contract, type Claim, type RollSummary } from '@kura/contract';
import { setLocale } from '@/i18n';
import { renderWithProviders } from '@/test/render';
import { anElection } from '@/test/elections';
import { callsTo, paginator, stub, stubRoutes } from '@/test/fetch';
import { RegisterPage } from './register-page';

afterEach(() => {
  vi.unstubAllGlobals();
  setLocale('en');
});

const DAY = 86_400_000;
// GET election answers no window; GET elections/{id} does.
const annual = anElection(4, 'Annual election 2026');
const annualFull = {
  ...annual,
  register: { opens_at: new Date(Date.now() - DAY).toISOString(), closes_at: new Date(Date.now() + DAY).toISOString() },
};

const claim = (over: Partial<Claim> = {}): Claim => ({
  id: 11,
  election_id: 4,
  member_no: 'M-7',
  name: 'Wanjiru Kamau',
  kind: 'inclusion',
  subject_member_no: null,
  details: 'I paid my shares in March.',
  status: 'pending',
  reason: null,
  created_at: '2026-03-02T08:00:00.000Z',
  decided_at: null,
  ...over,
});

const openRoll: RollSummary = {
  frozen_at: null,
  size: 25,
  hash: null,
  by_branch: [
    { branch: 'Nairobi', size: 15 },
    { branch: 'Nakuru', size: 10 },
  ],
};

function server(
  options: { roll?: RollSummary; claims?: Claim[]; ruling?: (id: number, body: unknown) => { status: 200 | 409; claim?: Claim } } = {},
) {
  const claims = options.claims ?? [claim()];
  return stubRoutes(
    stub(contract.api.organisation.listElections, { status: 200, body: { data: [annual] } }),
    stub(contract.api.elections.getElection, { status: 200, body: { data: annual } }),
    stub(contract.api.organisation.getElectionById, { status: 200, body: { data: annualFull } }),
    stub(contract.api.register.getRoll, { status: 200, body: { data: options.roll ?? openRoll } }),
    stub(contract.api.register.getRollMembers, (c) => {
      const page = Number(c.search.get('page') ?? '1');
      return {
        status: 200,
        body: paginator([{ member_no: `M-${page}0`, name: `Member ${page}0`, branch: 'Nairobi' }], page, 3),
      };
    }),
    stub(contract.api.register.listClaims, (c) => {
      const status = c.search.get('status');
      return {
        status: 200,
        body: paginator(
          claims.filter((x) => !status || x.status === status),
          1,
          1,
        ),
      };
    }),
    stub(contract.api.register.ruleOnClaim, (c) => {
      const id = Number(c.path.split('/')[3]);
      const answer = options.ruling?.(id, c.body) ?? { status: 200 };
      if (answer.status === 409) return { status: 409, body: { message: 'This claim has been ruled on already' } } as never;
      return { status: 200, body: { data: answer.claim ?? claim({ status: 'upheld', reason: 'x' }) } };
    }),
  );
}

describe('the returning officer’s Register page', () => {
  it('shows the roll as it stands: its size by branch, not yet frozen, and its members page by page', async () => {
    const calls = server();
    await renderWithProviders(<RegisterPage />, '/admin/register');
    expect((await screen.findByTestId('roll-size')).textContent).toBe(
      '25 members on the roll. Not frozen yet: it follows the register until the inspection period closes or voting opens.',
    );
    expect((await screen.findByTestId('admin-register-window')).textContent).toMatch(
      /^The register is open for inspection from .+ to .+\. Open now: members can make claims\.$/,
    );
    fireEvent.click(screen.getByText('The roll by branch (2 branches)'));
    const byBranch = screen.getByRole('region', { name: 'The roll by branch' });
    expect(within(byBranch).getByText('Nakuru').closest('tr')?.textContent).toBe('Nakuru10');
    const roll = await screen.findByRole('region', { name: 'Members on the roll' });
    expect(within(roll).getByText('M-10')).toBeTruthy();
    expect(callsTo(calls, contract.api.register.getRoll)[0]?.path).toBe('/elections/4/roll');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await within(roll).findByText('M-20')).toBeTruthy();
    expect(callsTo(calls, contract.api.register.getRollMembers).at(-1)?.search.get('page')).toBe('2');
  });

  it('finds members on the roll by number or name, from page 1, and Reset shows the whole roll again', async () => {
    const calls = server();
    await renderWithProviders(<RegisterPage />, '/admin/register');
    const roll = await screen.findByRole('region', { name: 'Members on the roll' });
    expect(await within(roll).findByText('M-10')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await within(roll).findByText('M-20')).toBeTruthy();
    const find = screen.getByRole('search', { name: 'Find on the roll' });
    fireEvent.change(within(find).getByLabelText('Member number or name'), { target: { value: ' wanj ' } });
    fireEvent.click(within(find).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(callsTo(calls, contract.api.register.getRollMembers).at(-1)?.search.get('query')).toBe('wanj'));
    expect(callsTo(calls, contract.api.register.getRollMembers).at(-1)?.search.get('page')).toBe('1');
    expect(await screen.findByText(/found\.$/)).toBeTruthy();
    fireEvent.click(within(find).getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(callsTo(calls, contract.api.register.getRollMembers).at(-1)?.search.get('query')).toBeNull());
    expect(within(find).getByLabelText('Member number or name')).toHaveProperty('value', '');
  });

  it('shows a frozen roll’s time and hash', async () => {
    server({ roll: { ...openRoll, frozen_at: '2026-03-01T09:00:00.000Z', hash: 'ab'.repeat(32) } });
    await renderWithProviders(<RegisterPage />, '/admin/register');
    expect((await screen.findByTestId('roll-size')).textContent).toMatch(/^25 members on the roll\. Frozen on .+\.$/);
    expect(screen.getByText('ab'.repeat(32))).toBeTruthy();
  });

  it('rules on a pending claim with a reason, after asking once more', async () => {
    const calls = server();
    await renderWithProviders(<RegisterPage />, '/admin/register');
    const queue = await screen.findByRole('list', { name: 'Claims' });
    const card = within(queue).getByRole('listitem');
    expect(within(card).getByText('Inclusion: Wanjiru Kamau (M-7)')).toBeTruthy();
    expect(within(card).getByText('I paid my shares in March.')).toBeTruthy();

    // Neither a ruling nor a reason: the form says what is missing and nothing is sent.
    fireEvent.click(within(card).getByRole('button', { name: 'Rule on the claim' }));
    expect(await within(card).findByText('The decision must be upheld or dismissed')).toBeTruthy();
    expect(within(card).getByText('The reason is required')).toBeTruthy();

    fireEvent.click(within(card).getByRole('radio', { name: 'Uphold' }));
    fireEvent.change(within(card).getByLabelText('Reason'), { target: { value: 'The March payment is on the ledger.' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Rule on the claim' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Uphold this claim?' });
    expect(dialog.textContent).toContain('Wanjiru Kamau is told your ruling and your reason: “The March payment is on the ledger.”');
    expect(callsTo(calls, contract.api.register.ruleOnClaim)).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Uphold the claim' }));
    await waitFor(() =>
      expect(callsTo(calls, contract.api.register.ruleOnClaim)[0]).toMatchObject({
        path: '/register/claims/11/ruling',
        body: { decision: 'upheld', reason: 'The March payment is on the ledger.' },
      }),
    );
    expect(await screen.findByText('Claim upheld: the claimant is told')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('keeps the dialog open with the server’s refusal', async () => {
    server({ ruling: () => ({ status: 409 }) });
    await renderWithProviders(<RegisterPage />, '/admin/register');
    const card = within(await screen.findByRole('list', { name: 'Claims' })).getByRole('listitem');
    fireEvent.click(within(card).getByRole('radio', { name: 'Dismiss' }));
    fireEvent.change(within(card).getByLabelText('Reason'), { target: { value: 'Shares unpaid.' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Rule on the claim' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Dismiss this claim?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dismiss the claim' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('This claim has been ruled on already');
  });

  it('lists ruled claims with their ruling and reason under their filter, and says when none', async () => {
    const calls = server({
      claims: [
        claim({
          id: 12,
          kind: 'objection',
          subject_member_no: 'M-9',
          status: 'dismissed',
          reason: 'M-9 paid on time.',
          decided_at: '2026-03-03T08:00:00.000Z',
        }),
      ],
    });
    await renderWithProviders(<RegisterPage />, '/admin/register');
    expect(await screen.findByText('No claim here.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dismissed' }));
    const card = within(await screen.findByRole('list', { name: 'Claims' })).getByRole('listitem');
    expect(within(card).getByText('Against member M-9')).toBeTruthy();
    expect(within(card).getByText("The returning officer's reason: M-9 paid on time.")).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Rule on the claim' })).toBeNull();
    expect(callsTo(calls, contract.api.register.listClaims).at(-1)?.search.get('status')).toBe('dismissed');
  });

  it('speaks Kiswahili', async () => {
    setLocale('sw');
    server();
    await renderWithProviders(<RegisterPage />, '/admin/register');
    expect((await screen.findByTestId('roll-size')).textContent).toMatch(/^Wanachama 25 kwenye daftari\./);
    expect(await screen.findByRole('button', { name: 'Toa uamuzi' })).toBeTruthy();
  });
});
