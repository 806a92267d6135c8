import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { contract, type Nomination } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { anElection } from '@/test/elections';
import { callsTo, paginator, stub, stubRoutes } from '@/test/fetch';
import { NominationsPage } from './nominations-page';

afterEach(() => vi.unstubAllGlobals());

/** A decision button of a card (the status filter has buttons named Valid and Invalid too). */
const decisionButton = (name: string, scope: HTMLElement = document.body) =>
  within(scope)
    .getAllByRole('button', { name })
    .find((b) => !b.closest('[role="group"]')) as HTMLButtonElement;

const nomination = (over: Partial<Nomination> = {}): Nomination => ({
  id: 21,
  election_id: 4,
  position_id: 7,
  position: 'Treasurer',
  nominee: { member_no: 'M-9', name: 'Achieng Otieno' },
  statement: 'I will keep the books open.',
  photo: null,
  supporters: [
    { member_no: 'M-1', name: 'Baraka Mwangi', role: 'proposer', confirmed: true },
    { member_no: 'M-2', name: 'Chebet Kariuki', role: 'seconder', confirmed: true },
  ],
  accepted: true,
  status: 'submitted',
  checks: [
    { rule: 'Shares at least 1000', met: true },
    { rule: 'Joined at least 1 year before voting opens', met: false },
  ],
  decision: null,
  appeal: null,
  created_at: '2026-03-02T08:00:00.000Z',
  ...over,
});

const annual = anElection(4, 'Annual election 2026');
const byelection = anElection(5, 'Nakuru by-election');

function server(queue: Nomination[], appeals: Nomination[] = []) {
  return stubRoutes(
    stub(contract.api.organisation.listElections, { status: 200, body: { data: [annual, byelection] } }),
    stub(contract.api.elections.getElection, { status: 200, body: { data: annual } }),
    stub(contract.api.nominations.listNominations, (c) => {
      const status = c.search.get('status');
      const rows = status === 'invalid' ? appeals : queue.filter((n) => !status || n.status === status);
      const page = Number(c.search.get('page') ?? '1');
      return { status: 200, body: paginator(rows, page, status === 'submitted' ? 2 : 1) };
    }),
    stub(contract.api.nominations.decideNomination, (c) => ({
      status: 200,
      body: {
        data: nomination({
          status: 'valid',
          decision: { valid: true, reason: null, at: '2026-03-03T08:00:00.000Z' },
          ...(c.body as object),
        }),
      },
    })),
    stub(contract.api.nominations.decideAppeal, () => ({ status: 200, body: { data: nomination({ status: 'valid' }) } })),
  );
}

describe('the returning officer’s Nominations page', () => {
  it('shows a submitted nomination with its supporters and checks; valid over a failed check needs the logged override', async () => {
    const calls = server([nomination()]);
    await renderWithProviders(<NominationsPage />, '/admin/nominations');
    await screen.findByText('Achieng Otieno (M-9) — Treasurer');
    expect(screen.getByText('I will keep the books open.')).toBeTruthy();
    const checks = screen.getByRole('list', { name: 'Eligibility checks' });
    expect(within(checks).getByText('Not met: Joined at least 1 year before voting opens')).toBeTruthy();
    expect(within(checks).getByText('Met: Shares at least 1000')).toBeTruthy();

    // A failed check: Valid waits for the override reason; Invalid waits for a reason.
    const valid = decisionButton('Valid');
    const invalid = decisionButton('Invalid');
    expect(valid.disabled).toBe(true);
    expect(invalid.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Why valid although a check failed (logged)'), {
      target: { value: 'Joined 11 months before: the board waived it' },
    });
    expect(valid.disabled).toBe(false);
    fireEvent.click(valid);
    await waitFor(() =>
      expect(callsTo(calls, contract.api.nominations.decideNomination)[0]).toMatchObject({
        path: '/nominations/21/decision',
        body: { valid: true, override_reason: 'Joined 11 months before: the board waived it' },
      }),
    );
    expect(await screen.findByText('Decided valid: the nominee is now a candidate')).toBeTruthy();
  });

  it('decides invalid with the reason, lists the appeals pending, and decides an appeal', async () => {
    const appealed = nomination({
      id: 22,
      status: 'invalid',
      nominee: { member_no: 'M-3', name: 'Daudi Njoroge' },
      decision: { valid: false, reason: 'Not in good standing', at: '2026-03-03T08:00:00.000Z' },
      appeal: { grounds: 'My arrears were cleared on 1 March', status: 'pending', reason: null },
    });
    const calls = server([nomination()], [appealed]);
    await renderWithProviders(<NominationsPage />, '/admin/nominations');
    const appeals = await screen.findByRole('region', { name: 'Appeals pending' });
    expect(within(appeals).getByText('Daudi Njoroge (M-3) — Treasurer')).toBeTruthy();
    expect(within(appeals).getByText('Grounds: My arrears were cleared on 1 March')).toBeTruthy();
    fireEvent.change(within(appeals).getByLabelText('Reason (required when invalid)'), { target: { value: 'The receipt is on file' } });
    fireEvent.click(within(appeals).getByRole('button', { name: 'Uphold: the nomination becomes valid' }));
    await waitFor(() =>
      expect(callsTo(calls, contract.api.nominations.decideAppeal)[0]).toMatchObject({
        path: '/nominations/22/appeal/decision',
        body: { upheld: true, reason: 'The receipt is on file' },
      }),
    );

    const queue = screen.getByRole('region', { name: 'Nominations' });
    const reasons = within(queue).getAllByLabelText('Reason (required when invalid)');
    fireEvent.change(reasons[0]!, { target: { value: 'Seconder is not on the roll' } });
    fireEvent.click(decisionButton('Invalid', queue));
    await waitFor(() =>
      expect(callsTo(calls, contract.api.nominations.decideNomination)[0]).toMatchObject({
        body: { valid: false, reason: 'Seconder is not on the roll' },
      }),
    );
  });

  it('follows the chosen election (?election=N), filters by status and pages with the staff pager', async () => {
    const calls = server([nomination(), nomination({ id: 23, status: 'awaiting_support' })]);
    await renderWithProviders(<NominationsPage />, '/admin/nominations?election=5');
    await screen.findByText('Achieng Otieno (M-9) — Treasurer');
    const asked = callsTo(calls, contract.api.nominations.listNominations);
    expect(asked.every((c) => c.search.get('election_id') === '5')).toBe(true);
    expect(asked.some((c) => c.search.get('status') === 'submitted')).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(callsTo(calls, contract.api.nominations.listNominations).at(-1)?.search.get('page')).toBe('2'));

    const filter = screen.getByRole('group', { name: 'Show nominations by status' });
    fireEvent.click(within(filter).getByRole('button', { name: 'All' }));
    await waitFor(() => {
      const last = callsTo(calls, contract.api.nominations.listNominations).at(-1)!;
      expect(last.search.get('status')).toBeNull();
      expect(last.search.get('page')).toBe('1');
    });
    expect(within(filter).getByRole('button', { name: 'All' }).getAttribute('aria-pressed')).toBe('true');
  });
});
