import type { Organisation } from '@kura/contract';

/** The organisation as GET organisation answers it (the tests' fixture); `overrides` name what differs. */
export function anOrganisation(overrides: Partial<Organisation> = {}): Organisation {
  return {
    name: 'Umoja Sacco',
    website: null,
    support_email: null,
    time_zone: 'Africa/Nairobi',
    current_election_id: null,
    default_language: 'en',
    member_no_pattern: null,
    ...overrides,
  };
}
