import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { percentage, resultText, voteWord } from '@/lib/format';
import { ResultsRows } from './results-rows';

describe('percentage and plural text (docs/screens.md "Ballot and results")', () => {
  it('formats count / total × 100 with 2 decimals', () => {
    expect(percentage(1, 3)).toBe('33.33%');
    expect(percentage(2, 3)).toBe('66.67%');
    expect(percentage(5, 5)).toBe('100.00%');
    expect(percentage(0, 0)).toBe('0.00%');
  });

  it("says 'vote' for a count of 1 or less and 'votes' above", () => {
    expect(voteWord(0)).toBe('vote');
    expect(voteWord(1)).toBe('vote');
    expect(voteWord(2)).toBe('votes');
    expect(resultText(1, 4)).toBe('25.00% 1 vote');
    expect(resultText(3, 4)).toBe('75.00% 3 votes');
  });

  it('renders a row per candidate: title, a bar filled to the share, then the text', () => {
    render(
      <ResultsRows
        total={3}
        values={[
          { candidate_id: 1, title: 'Jane Doe', name: 'Jane Doe', member_no: '1001', count: 1 },
          { candidate_id: 2, title: 'John Roe', name: 'John Roe', member_no: '1002', count: 2 },
        ]}
      />,
    );
    expect(screen.getByText('Jane Doe')).toBeTruthy();
    expect(screen.getByText('33.33% 1 vote')).toBeTruthy();
    expect(screen.getByText('66.67% 2 votes')).toBeTruthy();
    const bars = screen.getAllByRole('progressbar');
    expect(bars).toHaveLength(2);
    const fill = bars[1]!.firstElementChild as HTMLElement;
    expect(fill.style.width).toBe(`${(2 / 3) * 100}%`);
    expect(fill.className).toContain('bg-result-bar');
    expect(screen.getByRole('list').className).toContain('max-w-[20rem]');
  });
});
