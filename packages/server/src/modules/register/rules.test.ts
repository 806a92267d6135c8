import { ruleMet, type AttributeValue, type Rule } from '@kura/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness';
import { unmetRules } from './roll';

/**
 * Every operator on every attribute type, a missing value, and relative dates, evaluated twice: by
 * the contract's `ruleMet` (reasons, eligibility) and by the SQL function `rule_met` the roll uses
 * over the whole register (db/schema/functions.ts). Both must answer each case as expected, so
 * neither can drift from docs/api.md "The register".
 */
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.close();
});

const REF = '2026-06-15';
type Case = [string, Rule, AttributeValue | undefined, boolean];
const r = (attribute: string, op: Rule['op'], value: Rule['value']): Rule => ({ attribute, op, value });

const CASES: Case[] = [
  // number
  ['number at_least equal', r('shares', 'at_least', 20000), 20000, true],
  ['number at_least above', r('shares', 'at_least', 20000), 20000.5, true],
  ['number at_least below', r('shares', 'at_least', 20000), 19999.99, false],
  ['number at_most equal', r('arrears_days', 'at_most', 60), 60, true],
  ['number at_most above', r('arrears_days', 'at_most', 60), 61, false],
  ['number at_most negative', r('arrears_days', 'at_most', 60), -3, true],
  ['number equals', r('shares', 'equals', 5), 5, true],
  ['number equals other', r('shares', 'equals', 5), 6, false],
  ['number not_equals', r('shares', 'not_equals', 5), 6, true],
  ['number not_equals same', r('shares', 'not_equals', 5), 5, false],
  ['number missing', r('shares', 'at_least', 0), undefined, false],
  ['number null', r('shares', 'at_least', 0), null, false],
  ['number not_equals missing', r('shares', 'not_equals', 5), undefined, false],
  // date, absolute
  ['date on_or_before same day', r('joined', 'on_or_before', '2025-06-15'), '2025-06-15', true],
  ['date on_or_before later', r('joined', 'on_or_before', '2025-06-15'), '2025-06-16', false],
  ['date on_or_after same day', r('joined', 'on_or_after', '2025-06-15'), '2025-06-15', true],
  ['date on_or_after earlier', r('joined', 'on_or_after', '2025-06-15'), '2024-12-31', false],
  ['date equals', r('joined', 'equals', '2025-06-15'), '2025-06-15', true],
  ['date not_equals', r('joined', 'not_equals', '2025-06-15'), '2025-06-14', true],
  ['date not_equals same', r('joined', 'not_equals', '2025-06-15'), '2025-06-15', false],
  ['date missing', r('joined', 'on_or_before', '2025-06-15'), undefined, false],
  // date, relative to the reference day (the election's opening)
  ['years_before: a year to the day', r('joined', 'on_or_before', { years_before: 1 }), '2025-06-15', true],
  ['years_before: a day short of a year', r('joined', 'on_or_before', { years_before: 1 }), '2025-06-16', false],
  ['years_before: on_or_after', r('born', 'on_or_after', { years_before: 18 }), '2008-06-16', true],
  ['days_before: 60 days', r('last_paid', 'on_or_after', { days_before: 60 }), '2026-04-16', true],
  ['days_before: 61 days', r('last_paid', 'on_or_after', { days_before: 60 }), '2026-04-15', false],
  // text
  ['text equals', r('status', 'equals', 'active'), 'active', true],
  ['text equals is exact', r('status', 'equals', 'active'), 'Active', false],
  ['text not_equals', r('status', 'not_equals', 'suspended'), 'active', true],
  ['text not_equals same', r('status', 'not_equals', 'suspended'), 'suspended', false],
  ['text one_of in', r('zone', 'one_of', ['North', 'South']), 'South', true],
  ['text one_of out', r('zone', 'one_of', ['North', 'South']), 'East', false],
  ['text missing', r('zone', 'one_of', ['North']), undefined, false],
  // boolean
  ['boolean equals true', r('paid', 'equals', true), true, true],
  ['boolean equals false value', r('paid', 'equals', true), false, false],
  ['boolean equals false', r('paid', 'equals', false), false, true],
  ['boolean not_equals', r('paid', 'not_equals', true), false, true],
  ['boolean not_equals same', r('paid', 'not_equals', true), true, false],
  ['boolean missing', r('paid', 'equals', false), undefined, false],
  // a value of another type meets nothing
  ['text value on a number rule', r('shares', 'at_least', 1), '5', false],
];

describe('rules', () => {
  it.each(CASES)('%s', async (_name, rule, value, expected) => {
    expect(ruleMet(rule, value, REF)).toBe(expected);
    const attributes = value === undefined ? {} : { [rule.attribute]: value };
    const [row] = await db.db.execute<{ met: boolean }>(sql`
      select rule_met(${JSON.stringify(attributes)}::jsonb -> ${rule.attribute}, ${rule.op}, ${JSON.stringify(rule.value)}::jsonb, ${REF}::date) as met`);
    expect(row!.met).toBe(expected);
  });

  it('counts a year back from 29 February to 28 February, in both', async () => {
    const rule = r('joined', 'on_or_before', { years_before: 1 });
    expect(ruleMet(rule, '2027-02-28', '2028-02-29')).toBe(true);
    expect(ruleMet(rule, '2027-03-01', '2028-02-29')).toBe(false);
    const [row] = await db.db.execute<{ met: boolean }>(
      sql`select rule_met('"2027-02-28"'::jsonb, 'on_or_before', '{"years_before":1}'::jsonb, '2028-02-29'::date) as met`,
    );
    expect(row!.met).toBe(true);
  });

  it('unmetRules lists exactly the rules a member fails', () => {
    const rules = [r('shares', 'at_least', 100), r('paid', 'equals', true), r('joined', 'on_or_before', { years_before: 1 })];
    expect(unmetRules(rules, { attributes: { shares: 150, paid: false, joined: '2020-01-01' } }, REF)).toEqual([rules[1]]);
    expect(unmetRules(rules, { attributes: {} }, REF)).toEqual(rules);
  });
});
