import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { contract, type PublicNomination } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { anElection } from '@/test/elections';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
import { PublicNominations } from './public-nominations';

afterEach(() => vi.unstubAllGlobals());

const DAY = 86_400_000;
const listed: PublicNomination[] = [
  {
    position_id: 7,
    position: 'Treasurer',
    nominee: { member_no: 'M-9', name: 'Achieng Otieno' },
    statement: null,
    supporters: [
      { name: 'Baraka Mwangi', role: 'proposer' },
      { name: 'Chebet Kariuki', role: 'seconder' },
    ],
    status: 'valid',
  },
];
const withWindow = (closesIn: number) =>
  anElection(4, 'Annual election 2026', {
    nominations: {
      opens_at: new Date(Date.now() - 10 * DAY).toISOString(),
      closes_at: new Date(Date.now() + closesIn).toISOString(),
      appeal_days: 3,
    },
  });

describe('the public list of nominations on the Elections page', () => {
  it('after the window: each nominee with position, outcome and supporters by name, no contact data', async () => {
    const calls = stubRoutes(stub(contract.api.nominations.listPublicNominations, { status: 200, body: { data: listed } }));
    await renderWithProviders(<PublicNominations election={withWindow(-DAY)} />, '/elections');
    fireEvent.click(await screen.findByText('Nominations'));
    const item = screen.getByRole('listitem');
    expect(item.textContent).toContain('Achieng Otieno');
    expect(item.textContent).toContain('Treasurer');
    expect(item.textContent).toContain('Baraka Mwangi');
    expect(item.textContent).toContain('Chebet Kariuki');
    expect(item.textContent).not.toContain('M-9');
    expect(callsTo(calls, contract.api.nominations.listPublicNominations)[0]?.path).toBe('/elections/4/nominations');
  });

  it('asks nothing and shows nothing while the window is open, or for an election without nominations', async () => {
    const calls = stubRoutes(stub(contract.api.nominations.listPublicNominations, { status: 200, body: { data: listed } }));
    const open = await renderWithProviders(<PublicNominations election={withWindow(DAY)} />, '/elections');
    open.unmount();
    await renderWithProviders(<PublicNominations election={anElection(5, 'By-election')} />, '/elections');
    await waitFor(() => expect(screen.queryByText('Nominations')).toBeNull());
    expect(callsTo(calls, contract.api.nominations.listPublicNominations)).toEqual([]);
  });
});
