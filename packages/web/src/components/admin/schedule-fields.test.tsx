import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { contract } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { stub, stubRoutes } from '@/test/fetch';
import { anElection } from '@/test/elections';
import { controlLabels } from '@/test/controls';
import { ElectionSchedule } from './election-schedule';
import { ElectionForm, NewElectionForm } from './elections/election-form';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const election = anElection(2, 'Nairobi by-election', { opens_at: '2099-06-01T05:00:00.000Z', time_zone: 'Africa/Nairobi' });
const server = () =>
  stubRoutes(
    stub(contract.api.elections.getElection, { status: 200, body: { data: election } }),
    stub(contract.api.members.listBranches, { status: 200, body: { data: { data: [] } } }),
  );

/** The schedule's own fields, as both places show them (the visibility modes by their first words). */
const SCHEDULE = ['Voting opens', 'Voting closes', 'Live', 'Staff only', 'After close'];

describe('the schedule editor (ScheduleFields), in both places', () => {
  it("the admin dashboard's card: the organisation's time zone, the times and the visibility", async () => {
    server();
    await renderWithProviders(<ElectionSchedule />, '/admin');
    const card = await screen.findByRole('region', { name: 'Schedule and results' });
    await waitFor(() => expect((screen.getByLabelText('Voting opens') as HTMLInputElement).value).toMatch(/^2099-06-01T08:00(:00)?$/));
    expect(controlLabels(card)).toEqual(["The organisation's time zone", ...SCHEDULE]);
    expect(screen.getByLabelText("The organisation's time zone").getAttribute('aria-describedby')).toBeTruthy();
  });

  it('the election form, New and Edit: the times in the organisation zone and the visibility, between description and electorate', async () => {
    server();
    const fields = [
      'Title',
      'Description (optional)',
      ...SCHEDULE,
      'Members nominate candidates in a window',
      'Every member',
      'The members of chosen branches',
      "Only members elected in another election (a delegates' meeting)",
    ];
    const view = await renderWithProviders(<NewElectionForm timeZone="Africa/Nairobi" onDone={() => undefined} />, '/admin/elections');
    expect(controlLabels(view.container)).toEqual(fields);
    expect(screen.getByRole('group', { name: 'Schedule (optional)' })).toBeTruthy();
    view.unmount();

    const edit = await renderWithProviders(
      <ElectionForm timeZone="Africa/Nairobi" election={{ ...election, id: 2 }} onDone={() => undefined} />,
      '/admin/elections',
    );
    expect(controlLabels(edit.container)).toEqual(fields);
    expect((screen.getByLabelText('Voting opens') as HTMLInputElement).value).toMatch(/^2099-06-01T08:00(:00)?$/);
  });

  it("names the zone with its offset on polling day, not today's (daylight saving)", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-15T12:00:00Z'));
    server();
    await renderWithProviders(<NewElectionForm timeZone="Europe/London" onDone={() => undefined} />, '/admin/elections');
    expect((await screen.findByText(/Times are in the organisation's time zone/)).textContent).toContain('Europe/London (UTC+00:00)');
    fireEvent.change(screen.getByLabelText('Voting opens'), { target: { value: '2026-07-01T08:00' } });
    await waitFor(() =>
      expect(screen.getByText(/Times are in the organisation's time zone/).textContent).toContain('Europe/London (UTC+01:00)'),
    );
  });
});
