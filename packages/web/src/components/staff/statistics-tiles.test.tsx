import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { STATISTICS_HEADING, StatisticsTiles, tileLabel, STATISTICS_TILES } from './statistics-tiles';

const tile = (key: string) => screen.getByTestId(`tile-${key}`);

describe('General Election Statistics tiles (docs/screens.md "Staff pages": wording follows the count)', () => {
  it('has the five tiles in the spec order under the heading', () => {
    render(
      <StatisticsTiles statistics={{ votesCasted: 5, verifiedMembers: 4, unverifiedMembers: 3, membersVoted: 2, membersNotVoted: 6 }} />,
    );
    expect(screen.getByRole('heading', { name: STATISTICS_HEADING }).textContent).toBe('General Election Statistics');
    const items = within(screen.getByRole('list'))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual([
      '5Votes cast (one per position)',
      '4Members verified',
      '3Members not verified',
      '2Members Voted',
      '6Members not Voted',
    ]);
  });

  it('reads singular for exactly one', () => {
    render(
      <StatisticsTiles statistics={{ votesCasted: 1, verifiedMembers: 1, unverifiedMembers: 1, membersVoted: 1, membersNotVoted: 1 }} />,
    );
    expect(within(tile('votesCasted')).getByText('Vote cast (one per position)')).toBeTruthy();
    expect(within(tile('verifiedMembers')).getByText('Member verified')).toBeTruthy();
    expect(within(tile('unverifiedMembers')).getByText('Member not verified')).toBeTruthy();
    expect(within(tile('membersVoted')).getByText('Member Voted')).toBeTruthy();
    expect(within(tile('membersNotVoted')).getByText('Member not Voted')).toBeTruthy();
  });

  it('reads plural for zero and for more than one', () => {
    render(
      <StatisticsTiles statistics={{ votesCasted: 0, verifiedMembers: 2, unverifiedMembers: 0, membersVoted: 1200, membersNotVoted: 0 }} />,
    );
    expect(within(tile('votesCasted')).getByText('Votes cast (one per position)')).toBeTruthy();
    expect(within(tile('verifiedMembers')).getByText('Members verified')).toBeTruthy();
    expect(within(tile('membersVoted')).getByText('Members Voted')).toBeTruthy();
    expect(within(tile('membersVoted')).getByText((1200).toLocaleString())).toBeTruthy();
    for (const t of STATISTICS_TILES) {
      expect(tileLabel(t, 1)).toBe(t.singular);
      expect(tileLabel(t, 0)).toBe(t.plural);
      expect(tileLabel(t, 2)).toBe(t.plural);
    }
  });

  it('says when the counters could not be loaded', () => {
    render(<StatisticsTiles statistics={undefined} error />);
    expect(screen.getByRole('alert').textContent).toMatch(/could not be loaded/);
  });
});
