import type { Election } from '@kura/contract';

/** An election as GET elections answers it (the tests' fixture); `overrides` name what differs. */
export function anElection(id: number, title: string, overrides: Partial<Election> = {}): Election {
  return {
    id,
    title,
    organisation: 'Kura Co-operative',
    website: null,
    support_email: null,
    opens_at: null,
    closes_at: null,
    time_zone: 'Africa/Nairobi',
    results_visibility: 'live',
    phase: 'setup',
    active: '0',
    description: null,
    archived: false,
    created_at: '2026-01-01T08:00:00.000Z',
    electorate: { branch_ids: null },
    roll_frozen_at: null,
    ...overrides,
  };
}
