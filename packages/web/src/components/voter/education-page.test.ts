import { describe, expect, it } from 'vitest';
import { VOTING_WINDOW_TEXT, votingWindowText } from './education-page';

describe('the tutorial footer', () => {
  it("says the election's own window when it has a schedule, and the tutorial's sentence otherwise", () => {
    expect(
      votingWindowText({ opens_at: '2026-05-04T05:00:00.000Z', closes_at: '2026-05-06T14:00:00.000Z', time_zone: 'Africa/Nairobi' }),
    ).toBe('voting starts on 4th May 2026 and ends on 6th May 2026');
    expect(votingWindowText({ opens_at: null, closes_at: null, time_zone: 'UTC' })).toBe(VOTING_WINDOW_TEXT);
    expect(votingWindowText(undefined)).toBe(VOTING_WINDOW_TEXT);
  });
});
