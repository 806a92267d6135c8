import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { contract, type Election } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { stub, stubRoutes } from '@/test/fetch';
import { Education, votingWindowText } from './education-page';

const election = (over: Partial<Election>): Election => ({
  title: 'By-election 2027',
  organisation: 'Coop',
  website: null,
  support_email: null,
  opens_at: null,
  closes_at: null,
  time_zone: 'Africa/Nairobi',
  results_visibility: 'live',
  phase: 'setup',
  active: '0',
  ...over,
});

afterEach(() => vi.unstubAllGlobals());

describe("the tutorial footer: every date a voter reads is the election's own, or none", () => {
  it("says the election's own window when it has a schedule, and nothing otherwise", () => {
    expect(
      votingWindowText({ opens_at: '2026-05-04T05:00:00.000Z', closes_at: '2026-05-06T14:00:00.000Z', time_zone: 'Africa/Nairobi' }),
    ).toBe('voting starts on 4th May 2026 and ends on 6th May 2026');
    expect(votingWindowText({ opens_at: null, closes_at: null, time_zone: 'UTC' })).toBe('');
    expect(votingWindowText({ opens_at: '2026-05-04T05:00:00.000Z', closes_at: null, time_zone: 'UTC' })).toBe('');
    expect(votingWindowText(undefined)).toBe('');
  });

  it('shows an election without a schedule no dates at all (not the demo sentence)', async () => {
    stubRoutes(stub(contract.api.elections.getElection, { status: 200, body: { data: election({}) } }));
    await renderWithProviders(<Education />, '/voter/education');
    await screen.findByText('Open Voting');
    const text = document.body.textContent ?? '';
    expect(text).not.toMatch(/voting starts on/);
    expect(text).not.toMatch(/\b20\d\d\b/);
  });

  it("shows a scheduled election's own window", async () => {
    stubRoutes(
      stub(contract.api.elections.getElection, {
        status: 200,
        body: { data: election({ opens_at: '2027-03-01T05:00:00.000Z', closes_at: '2027-03-02T14:00:00.000Z' }) },
      }),
    );
    await renderWithProviders(<Education />, '/voter/education');
    expect(await screen.findByText('voting starts on 1st Mar 2027 and ends on 2nd March 2027')).toBeTruthy();
  });
});

describe('the tutorial (issue 37: ranked ballots and motions)', () => {
  it('tells how to rank and how to vote on a motion, names the buttons the ballot has and the receipts as "My receipts"', async () => {
    stubRoutes(stub(contract.api.elections.getElection, { status: 200, body: { data: election({}) } }));
    await renderWithProviders(<Education />, '/voter/education');
    await screen.findByText('Open Voting');
    const text = document.body.textContent ?? '';
    expect(text).toMatch(/press Rank beside your first choice/);
    expect(text).toMatch(/On a motion, choose Yes, No or Abstain/);
    expect(text).toMatch(/press Cast my vote/);
    expect(text).toMatch(/Open My receipts in the menu/);
    // no jargon, no single-candidate-only instruction, no button the ballot does not have
    expect(text).not.toMatch(/vvp|Yes!|choose one candidate by selecting/i);
  });
});
