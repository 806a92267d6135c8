import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { contract } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
import { anElection } from '@/test/elections';
import { electionSearch, useElectionParam } from '@/lib/election-search';
import { setLocale } from '@/i18n';
import { ElectionSwitcher } from './election-switcher';

afterEach(() => vi.unstubAllGlobals());

const annual = anElection(1, 'Annual election 2026', { phase: 'open', active: '1' });
const by = anElection(2, 'Nairobi by-election', { phase: 'setup' });
const old = anElection(3, 'Annual election 2025', { phase: 'closed', archived: true });

function server(list = [by, annual, old]) {
  return stubRoutes(
    stub(contract.api.organisation.listElections, { status: 200, body: { data: list } }),
    stub(contract.api.elections.getElection, { status: 200, body: { data: annual } }),
  );
}

/** What a page reads: the election of the URL (none: the current one). */
function Shown() {
  const election = useElectionParam();
  return <p data-testid="shown">{election ?? 'current'}</p>;
}

const page = (
  <>
    <ElectionSwitcher />
    <Shown />
  </>
);

describe('ElectionSwitcher (docs/api.md "Many elections")', () => {
  it('is a labelled combobox showing the current election without a param, and lists every election with title and phase', async () => {
    server();
    await renderWithProviders(page, '/admin', { validateSearch: electionSearch });
    const box = await screen.findByRole('combobox', { name: 'Election' });
    await waitFor(() => expect(box.textContent).toContain('Annual election 2026 (Open), current'));
    expect(screen.getByTestId('shown').textContent).toBe('current');

    box.focus();
    fireEvent.keyDown(box, { key: 'Enter' });
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'Nairobi by-election (Set-up)',
      'Annual election 2026 (Open), current',
      'Annual election 2025 (Archived)',
    ]);
  });

  it('choosing an election with the keyboard sets ?election=N, which the page reads', async () => {
    server();
    const { router } = await renderWithProviders(page, '/admin?page=3', { validateSearch: electionSearch });
    const box = await screen.findByRole('combobox', { name: 'Election' });
    await waitFor(() => expect(box.textContent).toContain('Annual election 2026'));
    box.focus();
    fireEvent.keyDown(box, { key: 'Enter' });
    fireEvent.click(await screen.findByRole('option', { name: 'Nairobi by-election (Set-up)' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ election: 2 }));
    expect(screen.getByTestId('shown').textContent).toBe('2');
    expect(box.textContent).toContain('Nairobi by-election (Set-up)');
  });

  it('opens on the election a shared link names, and drops a malformed param', async () => {
    server();
    await renderWithProviders(page, '/admin?election=2', { validateSearch: electionSearch });
    const box = await screen.findByRole('combobox', { name: 'Election' });
    await waitFor(() => expect(box.textContent).toContain('Nairobi by-election (Set-up)'));
    expect(screen.getByTestId('shown').textContent).toBe('2');

    for (const bad of ['abc', '0', '-4', '1.5', '99999999999']) expect(electionSearch({ election: bad }), bad).toEqual({});
    expect(electionSearch({ election: 7 })).toEqual({ election: 7 });
    expect(electionSearch({ election: '7', page: 2 })).toEqual({ election: 7 });
  });

  it('shows nothing in an installation with one election', async () => {
    const calls = server([annual]);
    await renderWithProviders(page, '/admin', { validateSearch: electionSearch });
    await waitFor(() => expect(callsTo(calls, contract.api.organisation.listElections)).toHaveLength(1));
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(screen.queryByRole('combobox', { name: 'Election' })).toBeNull();
  });

  it('speaks Kiswahili', async () => {
    server();
    setLocale('sw');
    await renderWithProviders(page, '/admin?election=2', { validateSearch: electionSearch });
    const box = await screen.findByRole('combobox', { name: 'Uchaguzi' });
    await waitFor(() => expect(box.textContent).toContain('Nairobi by-election (Maandalizi)'));
  });
});
