import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { contract } from '@kura/contract';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
import { ReceiptCheck } from './receipt-page';
import { Commitments } from './commitments-page';
import { VoterVvpat } from '@/components/voter/vvpat-page';

afterEach(() => vi.unstubAllGlobals());

describe('public receipt check', () => {
  it('says a counted receipt is in the count, for its position only; an unknown one is not', async () => {
    const calls = stubRoutes(
      stub(
        contract.api.elections.getReceipt,
        { status: 200, body: { vvpat: 'VP-AAAA-BBBB', position: 'Chairperson National', recorded: true, election_id: 1, election: 'AGM' } },
        { vvpat: 'VP-AAAA-BBBB' },
      ),
      stub(contract.api.elections.getReceipt, { status: 404, body: { message: 'No ballot has this receipt code' } }),
    );
    await renderWithProviders(<ReceiptCheck />, '/receipt');
    fireEvent.change(screen.getByLabelText('Receipt code'), { target: { value: 'VP-AAAA-BBBB' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check receipt' }));
    expect(await screen.findByText(/is in the count, for Chairperson National/)).toBeTruthy();
    expect(callsTo(calls, contract.api.elections.getReceipt, { vvpat: 'VP-AAAA-BBBB' }).length > 0).toBe(true);

    fireEvent.change(screen.getByLabelText('Receipt code'), { target: { value: ' VP-ZZZZ-ZZZZ ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check receipt' }));
    expect(await screen.findByText(/No ballot has the receipt code/)).toBeTruthy();
    expect(screen.getByText('VP-ZZZZ-ZZZZ')).toBeTruthy();
  });

  it('lists the published commitments with time, count and hash, and how to check them', async () => {
    stubRoutes(
      stub(contract.api.elections.listCommitments, {
        status: 200,
        body: { data: [{ at: '2026-11-23T10:00:00.000Z', count: 12, hash: 'ab'.repeat(32) }] },
      }),
    );
    await renderWithProviders(<Commitments />, '/commitments');
    expect(await screen.findByText('ab'.repeat(32))).toBeTruthy();
    expect(screen.getByText('12')).toBeTruthy();
    expect(screen.getByText(/recompute the hash/)).toBeTruthy();
  });

  it("offers the voter's codes to copy and download (codes and positions, never the candidate), each linked to the check", async () => {
    stubRoutes(
      stub(contract.api.vvpat.getMyVvpat, {
        status: 200,
        body: {
          data: {
            votes: [
              {
                vvpat: 'VP-AAAA-BBBB',
                name: 'Alice Achieng',
                count: 1,
                position: 'Chairperson National',
                kind: 'candidates',
                election_id: 1,
                election: 'AGM',
              },
            ],
          },
        },
      }),
    );
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await renderWithProviders(<VoterVvpat />, '/voter/vpat');
    fireEvent.click(await screen.findByRole('button', { name: 'Copy codes' }));
    await waitFor(() => expect(writeText).toHaveBeenCalled());
    const text = (writeText.mock.calls[0] as unknown as [string])[0];
    // The code, its election (named on each receipt, as the contract has it) and the position.
    expect(text).toContain('VP-AAAA-BBBB  AGM: Chairperson National');
    expect(text).toContain('/receipt');
    expect(text).not.toContain('Alice');
    expect(await screen.findByText('Receipt codes copied.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Check receipt VP-AAAA-BBBB' }).getAttribute('href')).toBe('/receipt?code=VP-AAAA-BBBB');
    expect(screen.getByRole('button', { name: 'Download codes' })).toBeTruthy();
  });
});

describe('My receipts (issue 37)', () => {
  it("shows a ranked ballot's rows with the voter's ranks, other rows as they are", async () => {
    const row = { count: null, kind: 'candidates' as const, election_id: 1, election: 'AGM' };
    stubRoutes(
      stub(contract.api.vvpat.getMyVvpat, {
        status: 200,
        body: {
          data: {
            votes: [
              { ...row, vvpat: 'VP-AAAA-AAAA', name: 'Yes', position: 'Adopt the budget', kind: 'motion' },
              { ...row, vvpat: 'VP-BBBB-BBBB', name: 'Zola Z', position: 'Board', rank: 1 },
              { ...row, vvpat: 'VP-BBBB-BBBB', name: 'Xavi X', position: 'Board', rank: 2 },
            ],
          },
        },
      }),
    );
    await renderWithProviders(<VoterVvpat />, '/voter/vpat');
    expect(await screen.findByText('1. Zola Z')).toBeTruthy();
    expect(screen.getByText('2. Xavi X')).toBeTruthy();
    expect(screen.getByText('Yes')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Receipt code' })).toBeTruthy();
  });
});

describe('commitments during a small election (issue 37)', () => {
  it('say why they read 0 ballots: the mixer batch, and the close commits the rest', async () => {
    stubRoutes(
      stub(contract.api.elections.listCommitments, {
        status: 200,
        body: { data: [{ at: '2026-11-23T10:00:00.000Z', count: 0, hash: 'cd'.repeat(32) }], mix_batch: 20 },
      }),
    );
    await renderWithProviders(<Commitments />, '/commitments');
    const note = await screen.findByTestId('commitments-batch');
    expect(note.textContent).toMatch(/Why a commitment can read 0 ballots/);
    expect(note.textContent).toMatch(/once at least 20 of them are waiting, and all the rest at the close/);
  });
});

describe('position names in Kiswahili (issue 37)', () => {
  it("says the level word of a national position in the reader's language on My receipts", async () => {
    const { setLocale } = await import('@/i18n');
    setLocale('sw');
    try {
      stubRoutes(
        stub(contract.api.vvpat.getMyVvpat, {
          status: 200,
          body: {
            data: {
              votes: [
                {
                  vvpat: 'VP-AAAA-AAAA',
                  name: 'Ann',
                  position: 'Chairperson National',
                  kind: 'candidates',
                  count: null,
                  election_id: 1,
                  election: 'AGM',
                },
              ],
            },
          },
        }),
      );
      await renderWithProviders(<VoterVvpat />, '/voter/vpat');
      expect(await screen.findByText('Chairperson (Kitaifa)')).toBeTruthy();
      expect(screen.queryByText(/National/)).toBeNull();
    } finally {
      setLocale('en');
    }
  });

  it("says a motion's option in the reader's language by the row's kind; a candidate named Yes keeps the name", async () => {
    const { setLocale } = await import('@/i18n');
    setLocale('sw');
    try {
      const row = { count: null, election_id: 1, election: 'AGM' };
      stubRoutes(
        stub(contract.api.vvpat.getMyVvpat, {
          status: 200,
          body: {
            data: {
              votes: [
                { ...row, vvpat: 'VP-AAAA-AAAA', name: 'Abstain', position: 'Adopt the budget', kind: 'motion' },
                { ...row, vvpat: 'VP-BBBB-BBBB', name: 'Yes', position: 'Treasurer', kind: 'candidates' },
              ],
            },
          },
        }),
      );
      await renderWithProviders(<VoterVvpat />, '/voter/vpat');
      expect(await screen.findByText('Najizuia')).toBeTruthy();
      expect(screen.queryByText('Abstain')).toBeNull();
      expect(screen.getByText('Yes')).toBeTruthy();
    } finally {
      setLocale('en');
    }
  });
});
