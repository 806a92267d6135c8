import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { Nomination } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { stubFetch } from '@/test/fetch';
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

const position = {
  id: 5,
  name: 'Chair',
  level: 'National',
  seats: 1,
  description: null,
  branch_id: null,
  kind: 'candidates',
  method: 'plurality',
  threshold: null,
  quorum_percent: null,
  nomination: { proposers: 1, seconders: 1, same_branch: false, self: false },
};

const registerEntry = { on_roll: true, frozen: false, member_no: 'ME-1', name: 'Me', branch: 'Harbour', reasons: [], register: null };

describe('the voter Nominations page', () => {
  it('shows what waits for me first and confirms my support', async () => {
    // Signed in with a phone number: the page takes my member number from psk/register.
    setPfNumber('0712345678');
    const calls = stubFetch(({ method, path }) => {
      if (path === '/psk/register') return { status: 200, body: { data: registerEntry } };
      if (method === 'GET' && path === '/psk/nominations') return { status: 200, body: { data: [nomination({})] } };
      if (path === '/psk/positions') return { status: 200, body: { data: [position] } };
      if (method === 'POST' && path === '/psk/nominations/1/support')
        return { status: 200, body: { data: nomination({ status: 'awaiting_acceptance' }) } };
      return undefined;
    });
    await renderWithProviders(<Nominate />, '/voter/nominate');
    expect(await screen.findByText('Seconder of Nia Nominee for Chair National?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm my support' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ confirm: true }));
  });

  it('nominates with me as the first proposer', async () => {
    // Signed in with a phone number: the page takes my member number from psk/register.
    setPfNumber('0712345678');
    const calls = stubFetch(({ method, path }) => {
      if (path === '/psk/register') return { status: 200, body: { data: registerEntry } };
      if (method === 'GET' && path === '/psk/nominations') return { status: 200, body: { data: [] } };
      if (path === '/psk/positions') return { status: 200, body: { data: [position] } };
      if (method === 'POST' && path === '/psk/nominations') return { status: 201, body: { data: nomination({}) } };
      return undefined;
    });
    await renderWithProviders(<Nominate />, '/voter/nominate');
    expect(await screen.findByText('Nothing is waiting for you.')).toBeTruthy();
    fireEvent.change(await screen.findByLabelText("Nominee's member number"), { target: { value: 'N-1' } });
    fireEvent.change(screen.getByLabelText('Seconder 1: member number'), { target: { value: 'S-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Nominate' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
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
