import type { Member } from '@kura/contract';

/** Wanjiru Kamau (UM-1001) as the add-candidate dialog's member search answers her (the tests' fixture); `overrides` name what differs. */
export function wanjiruKamau(overrides: Partial<Member> = {}): Member {
  return {
    id: 7,
    member_no: 'UM-1001',
    name: 'Wanjiru Kamau',
    email: 'w.kamau@umoja.example',
    phone: '0711000001',
    county: 'Nairobi',
    psk_position_ids: [],
    language: null,
    ...overrides,
  };
}
