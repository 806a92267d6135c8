import { describe, expect, it } from 'vitest';
import { UpdateOrganisationBody } from './organisation';
import { memberNoPatternIsSlow } from './validation';
import { inEnglish } from './messages';

describe('member_no_pattern: an admin pattern run against anyone’s sign-in input', () => {
  it.each([
    'UFC-\\d{3}',
    '[A-Z]{2,5}\\d+/\\d{2}',
    '(CMAKE|UFC)\\d{1,4}',
    'M-(\\d{2}/)?\\d{4}',
    '[A-Za-z0-9./-]{1,32}',
    '(a|b)+',
    '\\(\\d+\\)+',
  ])('accepts %s', (p) => {
    expect(memberNoPatternIsSlow(p)).toBe(false);
    expect(UpdateOrganisationBody.safeParse({ member_no_pattern: p }).success).toBe(true);
  });

  it.each(['(a+)+', '(\\d*-?)*', '([A-Z]+\\d)+$', '((ab)*c)+', '(x{1,9}){2,}', '(a)\\1', '(?<n>a)\\k<n>', '(?:[a-z]+)*'])(
    'refuses %s, which can backtrack for minutes',
    (p) => {
      expect(memberNoPatternIsSlow(p)).toBe(true);
      const parsed = UpdateOrganisationBody.safeParse({ member_no_pattern: p });
      expect(parsed.success).toBe(false);
      expect(inEnglish(parsed.error?.issues[0]?.message ?? '')).toMatch(/may not repeat a group that itself repeats/);
    },
  );
});
