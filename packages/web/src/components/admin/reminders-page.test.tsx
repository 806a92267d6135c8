import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { contract } from '@kura/contract';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
import { RemindersPage } from './reminders-page';

afterEach(() => vi.unstubAllGlobals());

describe('reminders page', () => {
  it('counts first (dry run), then queues and follows the progress until done', async () => {
    let polls = 0;
    let queued = false;
    const calls = stubRoutes(
      stub(contract.api.reminders.createReminder, ({ body }) => {
        const dry = (body as { dry_run?: boolean }).dry_run;
        if (!dry) queued = true;
        return { status: 202, body: { id: dry ? null : 7, recipients: 42 } };
      }),
      stub(contract.api.reminders.listReminders, () => {
        if (!queued) return { status: 200, body: { data: [] } };
        polls++;
        const sent = Math.min(42, polls * 20);
        return {
          status: 200,
          body: { data: [{ id: 7, channel: 'email', total: 42, sent, failed: 0, skipped: 0, status: sent === 42 ? 'done' : 'sending' }] },
        };
      }),
    );
    await renderWithProviders(<RemindersPage />, '/admin/reminders');
    expect(await screen.findByText('No reminders have been sent.')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Email'));
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Hi {name}, please vote' } });
    fireEvent.click(screen.getByRole('button', { name: 'Count recipients' }));
    expect(await screen.findByText("42 members of this election's roll would receive this reminder.")).toBeTruthy();
    expect(callsTo(calls, contract.api.reminders.createReminder)[0]!.body).toEqual({
      channel: 'email',
      message: 'Hi {name}, please vote',
      dry_run: true,
    });

    fireEvent.click(screen.getByRole('button', { name: 'Send reminder' }));
    expect(await screen.findByText(/20 sent, 0 failed, 0 skipped of 42|40 sent, 0 failed, 0 skipped of 42/)).toBeTruthy();
    await waitFor(() => expect(screen.getByText('42 sent, 0 failed, 0 skipped of 42')).toBeTruthy(), { timeout: 5000 });
    expect(screen.getByText('Done')).toBeTruthy();
    expect(callsTo(calls, contract.api.reminders.createReminder).at(-1)!.body).toEqual({
      channel: 'email',
      message: 'Hi {name}, please vote',
      dry_run: false,
    });
  });
});
