import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { contract, type Nomination } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
import { aPosition } from '@/test/positions';
import { setPfNumber } from '@/lib/session';
import { Nominate } from './nominate-page';

afterEach(() => vi.unstubAllGlobals());

const nomination = (over: Partial<Nomination>): Nomination => ({
  id: 1,
  election_id: 1,
  position_id: 5,
  position: 'Chair National',
  nominee: { member_no: 'N-1', name: 'Nia Nominee' },
  statement: null,
  photo: null,
  supporters: [
    { member_no: 'P-1', name: 'Pat Proposer', role: 'proposer', confirmed: true },
    { member_no: 'ME-1', name: 'Me Member', role: 'seconder', confirmed: false },
  ],
  accepted: null,
  status: 'awaiting_support',
  checks: [],
  decision: null,
  appeal: null,
  created_at: new Date().toISOString(),
  ...over,
});

const position = aPosition(5, 'Chair', { nomination: { proposers: 1, seconders: 1, same_branch: false, self: false } });

const registerEntry = { on_roll: true, frozen: false, member_no: 'ME-1', name: 'Me', branch: 'Harbour', reasons: [], register: null };

describe('the voter Nominations page', () => {
  it('shows what waits for me first and confirms my support', async () => {
    // Signed in with a phone number: the page takes my member number from psk/register.
    setPfNumber('0712345678');
    const calls = stubRoutes(
      stub(contract.api.register.getMyRegisterEntry, { status: 200, body: { data: registerEntry } }),
      stub(contract.api.nominations.listMyNominations, { status: 200, body: { data: [nomination({})] } }),
      stub(contract.api.members.listPositions, { status: 200, body: { data: [position] } }),
      stub(
        contract.api.nominations.supportNomination,
        { status: 200, body: { data: nomination({ status: 'awaiting_acceptance' }) } },
        { id: 1 },
      ),
    );
    await renderWithProviders(<Nominate />, '/voter/nominate');
    expect(await screen.findByText('Seconder of Nia Nominee for Chair National?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm my support' }));
    await waitFor(() => expect(callsTo(calls, contract.api.nominations.supportNomination, { id: 1 })[0]?.body).toEqual({ confirm: true }));
  });

  it('nominates with me as the first proposer', async () => {
    // Signed in with a phone number: the page takes my member number from psk/register.
    setPfNumber('0712345678');
    const calls = stubRoutes(
      stub(contract.api.register.getMyRegisterEntry, { status: 200, body: { data: registerEntry } }),
      stub(contract.api.nominations.listMyNominations, { status: 200, body: { data: [] } }),
      stub(contract.api.members.listPositions, { status: 200, body: { data: [position] } }),
      stub(contract.api.nominations.createNomination, { status: 201, body: { data: nomination({}) } }),
    );
    await renderWithProviders(<Nominate />, '/voter/nominate');
    expect(await screen.findByText('Nothing is waiting for you.')).toBeTruthy();
    fireEvent.change(await screen.findByLabelText("Nominee's member number"), { target: { value: 'N-1' } });
    fireEvent.change(screen.getByLabelText('Seconder 1: member number'), { target: { value: 'S-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Nominate' }));
    await waitFor(() =>
      expect(callsTo(calls, contract.api.nominations.createNomination)[0]?.body).toEqual({
        position_id: 5,
        nominee_member_no: 'N-1',
        supporters: [
          { member_no: 'ME-1', role: 'proposer' },
          { member_no: 'S-1', role: 'seconder' },
        ],
      }),
    );
  });
});
