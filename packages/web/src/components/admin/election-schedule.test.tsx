import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { contract, type Election } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
import { ElectionSchedule } from './election-schedule';

afterEach(() => vi.unstubAllGlobals());

const election: Election = {
  title: 'Coop Elections 2026',
  organisation: 'Umoja Savings Cooperative',
  website: null,
  support_email: null,
  opens_at: '2099-05-04T12:00:00.000Z',
  closes_at: '2099-05-04T21:00:00.000Z',
  time_zone: 'America/New_York',
  results_visibility: 'live',
  phase: 'scheduled',
  active: '0',
};

describe("the schedule on the organisation's clock", () => {
  it('shows and saves times in the organisation zone, whatever zone the browser is in', async () => {
    let current = election;
    const calls = stubRoutes(
      stub(contract.api.elections.updateElection, ({ body }) => {
        current = { ...current, ...(body as Partial<Election>) };
        return { status: 200, body: { data: current } };
      }),
      stub(contract.api.elections.getElection, () => ({ status: 200, body: { data: current } })),
    );
    await renderWithProviders(<ElectionSchedule />, '/admin');
    const opens = (await screen.findByLabelText('Voting opens')) as HTMLInputElement;
    // 12:00 UTC is 08:00 in New York (daylight time in May).
    await waitFor(() => expect(opens.value).toMatch(/^2099-05-04T08:00(:00)?$/));
    expect((screen.getByLabelText('Voting closes') as HTMLInputElement).value).toMatch(/^2099-05-04T17:00(:00)?$/);
    expect(screen.getByText(/America\/New_York \(UTC-04:00\)/)).toBeTruthy();

    // The admin moves the organisation to Nairobi and sets 08:00 there.
    fireEvent.change(screen.getByLabelText("The organisation's time zone"), { target: { value: 'Africa/Nairobi' } });
    fireEvent.change(opens, { target: { value: '2099-05-04T08:00:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
    await waitFor(() => expect(callsTo(calls, contract.api.elections.updateElection).length > 0).toBe(true));
    const put = callsTo(calls, contract.api.elections.updateElection)[0]!.body as Record<string, unknown>;
    expect(put).toMatchObject({ time_zone: 'Africa/Nairobi', opens_at: '2099-05-04T05:00:00.000Z', closes_at: '2099-05-04T14:00:00.000Z' });
  });

  it("checks the time zone before sending and puts the server's 422 under its field", async () => {
    const calls = stubRoutes(
      stub(contract.api.elections.updateElection, {
        status: 422,
        body: { message: 'The given data was invalid', errors: { closes_at: ['The closing time must be after the opening time'] } },
      }),
      stub(contract.api.elections.getElection, { status: 200, body: { data: election } }),
    );
    await renderWithProviders(<ElectionSchedule />, '/admin');
    const zone = (await screen.findByLabelText("The organisation's time zone")) as HTMLInputElement;
    await waitFor(() => expect(zone.value).toBe('America/New_York'));
    fireEvent.change(zone, { target: { value: '+03:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
    expect(await screen.findByText(/must be an IANA time zone name/)).toBeTruthy();
    expect(zone.getAttribute('aria-invalid')).toBe('true');
    expect(callsTo(calls, contract.api.elections.updateElection).length > 0).toBe(false);

    fireEvent.change(zone, { target: { value: 'America/New_York' } });
    fireEvent.change(screen.getByLabelText('Voting closes'), { target: { value: '2099-05-04T07:00:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
    const closes = screen.getByLabelText('Voting closes');
    await waitFor(() => expect(closes.getAttribute('aria-invalid')).toBe('true'));
    const described = closes.getAttribute('aria-describedby')!.split(' ');
    expect(described.map((id) => document.getElementById(id)?.textContent)).toContain('The closing time must be after the opening time');
    expect(screen.getByText('The schedule could not be saved')).toBeTruthy();
  });

  describe('read anew while the admin edits (another admin, voting switched, a scheduled opening)', () => {
    /** The election as the server holds it, changed by the test as someone elsewhere would. */
    async function schedule() {
      const server = { current: election };
      const calls = stubRoutes(
        stub(contract.api.elections.updateElection, ({ body }) => {
          server.current = { ...server.current, ...(body as Partial<Election>) };
          return { status: 200, body: { data: server.current } };
        }),
        stub(contract.api.elections.getElection, () => ({ status: 200, body: { data: server.current } })),
      );
      const { queryClient } = await renderWithProviders(<ElectionSchedule />, '/admin');
      const closes = (await screen.findByLabelText('Voting closes')) as HTMLInputElement;
      await waitFor(() => expect(closes.value).toMatch(/^2099-05-04T17:00(:00)?$/));
      /** Someone elsewhere changes the election and the screen reads it again. */
      const elsewhere = async (change: Partial<Election>) => {
        server.current = { ...server.current, ...change };
        await act(() => queryClient.invalidateQueries());
      };
      return { calls, closes, elsewhere };
    }

    it('keeps the closing time the admin is typing and says the election changed', async () => {
      const { closes, elsewhere } = await schedule();
      fireEvent.change(closes, { target: { value: '2099-05-04T19:30:00' } });
      // Voting opens and another admin moves the opening: the election is read anew.
      await elsewhere({ phase: 'open', opens_at: '2099-05-04T11:00:00.000Z' });
      await waitFor(() => expect(screen.getByTestId('election-phase').textContent).toBe('Open: members can vote.'));
      expect(closes.value).toMatch(/^2099-05-04T19:30(:00)?$/);
      expect((screen.getByLabelText('Voting opens') as HTMLInputElement).value).toMatch(/^2099-05-04T08:00(:00)?$/);
      expect(screen.getByRole('status').textContent).toMatch(/changed elsewhere while you were editing/);
    });

    it('follows the new times while nothing is typed, without a note', async () => {
      const { closes, elsewhere } = await schedule();
      await elsewhere({ closes_at: '2099-05-04T22:00:00.000Z' });
      await waitFor(() => expect(closes.value).toMatch(/^2099-05-04T18:00(:00)?$/));
      expect(screen.queryByText(/changed elsewhere/)).toBeNull();
    });

    it('is clean with the saved times after a save, so the next change elsewhere shows', async () => {
      const { calls, closes, elsewhere } = await schedule();
      fireEvent.change(closes, { target: { value: '2099-05-04T19:30:00' } });
      fireEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
      expect(await screen.findByText('Schedule saved')).toBeTruthy();
      expect(callsTo(calls, contract.api.elections.updateElection)[0]!.body).toMatchObject({ closes_at: '2099-05-04T23:30:00.000Z' });
      expect(closes.value).toMatch(/^2099-05-04T19:30(:00)?$/);
      expect(screen.queryByText(/changed elsewhere/)).toBeNull();

      await elsewhere({ closes_at: '2099-05-04T22:00:00.000Z' });
      await waitFor(() => expect(closes.value).toMatch(/^2099-05-04T18:00(:00)?$/));
      expect(screen.queryByText(/changed elsewhere/)).toBeNull();
    });
  });
});
