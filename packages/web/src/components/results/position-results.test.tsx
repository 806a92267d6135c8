import { describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import type { ResultGroup } from '@kura/contract';
import { setLocale, t } from '@/i18n';
import { FIRST_PREFERENCES_TEXT, PositionResults } from './position-results';

const value = (candidate_id: number, name: string, count: number) => ({ candidate_id, title: name, name, member_no: '', count });

const ranked: ResultGroup = {
  position_id: 7,
  title: 'Board National',
  key: 'Board_National',
  kind: 'candidates',
  method: 'ranked',
  first_preferences_only: true,
  values: [value(1, 'Grace Achieng', 5), value(4, 'Daniel Kiprop', 2)],
  total: 7,
};
const motion: ResultGroup = {
  position_id: 8,
  title: 'Amend rule 12 National',
  key: 'Amend rule 12_National',
  kind: 'motion',
  values: [value(101, 'Yes', 6), value(102, 'No', 3), value(103, 'Abstain', 1)],
  total: 10,
};

const show = (groups: ResultGroup[], key: string) =>
  render(<PositionResults positions={undefined} groups={groups} defaultKey={key} noVotesText="No votes yet" />);

describe('live results of ranked positions and motions (docs/api.md "Many elections, motions and ranked counts")', () => {
  it('says a ranked position shows first preferences only', () => {
    show([ranked, motion], 'Board_National');
    expect(screen.getByText(FIRST_PREFERENCES_TEXT).textContent).toBe(
      'First preferences only: the count by single transferable vote runs when voting closes.',
    );
    expect(screen.getByText('71.43% 5 votes')).toBeTruthy();
  });

  it('shows a motion’s Yes, No and Abstain in ballot order, without the ranked note', () => {
    show([ranked, motion], 'Amend rule 12_National');
    expect(screen.queryByText(FIRST_PREFERENCES_TEXT)).toBeNull();
    const labels = screen.getAllByRole('progressbar').map((b) => b.getAttribute('aria-label'));
    expect(labels).toEqual(['Yes share', 'No share', 'Abstain share']);
    expect(screen.getByText('60.00% 6 votes')).toBeTruthy();
    expect(screen.getByText('10.00% 1 vote')).toBeTruthy();
  });

  it('names a motion’s options in Kiswahili by their catalogue keys; a candidate named Yes stays Yes', () => {
    setLocale('sw');
    try {
      show([motion], 'Amend rule 12_National');
      expect(screen.getAllByRole('progressbar').map((b) => b.getAttribute('aria-label'))).toEqual(
        ['Ndiyo', 'Hapana', 'Najizuia'].map((label) => t('results.share', { label })),
      );
      expect(screen.getByText('Ndiyo')).toBeTruthy();
      expect(screen.getByText('Hapana')).toBeTruthy();
      expect(screen.getByText('Najizuia')).toBeTruthy();
      cleanup();
      // Only a motion's values are its options: a candidates position shows names as they are.
      show([{ position_id: 1, title: 'Chair National', key: 'Chair_National', values: [value(1, 'Yes', 2)], total: 2 }], 'Chair_National');
      expect(screen.getByText('Yes')).toBeTruthy();
    } finally {
      setLocale('en');
    }
  });

  it('says nothing of first preferences for a plurality position', () => {
    show(
      [{ position_id: 1, title: 'Chair National', key: 'Chair_National', values: [value(1, 'Jane Doe', 2)], total: 2 }],
      'Chair_National',
    );
    expect(screen.queryByText(FIRST_PREFERENCES_TEXT)).toBeNull();
    expect(screen.getByText('Jane Doe')).toBeTruthy();
  });
});

describe('before there is a position to show', () => {
  it.each([
    ['while loading', { positions: undefined, groups: undefined, loading: true }, 'Loading positions…'],
    ['with no positions at all', { positions: [], groups: [], loading: false }, 'Choose a position'],
    ['when the results failed', { positions: undefined, groups: undefined, loading: false, error: true }, 'Choose a position'],
  ])('%s it never shows the default key as a position name (it is demo content)', (_, props, placeholder) => {
    render(<PositionResults {...props} defaultKey="Chairperson_National" noVotesText="No votes yet" />);
    expect(screen.queryByText(/Chairperson/)).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Position' }).textContent).toContain(placeholder);
    expect(screen.getByText('Results')).toBeTruthy();
  });
});
