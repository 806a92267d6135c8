import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness';
import { intArray, textArray } from './arrays';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe('array literals', () => {
  it('round-trips any text, in order, through unnest', async () => {
    const texts = ['plain', 'with "quotes"', 'back\\slash', 'comma, {braces}', ' spaced ', '', 'NULL', 'ünïcødé', 'VP-7K3Q-M9XD-2F8A'];
    const ints = [3, -1, 0, 2147483647];
    const rows = await database.db.execute<{ t: string; i: number | null; n: string }>(
      sql`select t, i, ordinality::text as n from unnest(${textArray(texts)}::text[], ${intArray(ints)}::int[]) with ordinality as u(t, i, ordinality)`,
    );
    expect(rows.map((r) => r.t)).toEqual(texts);
    expect(rows.slice(0, ints.length).map((r) => r.i)).toEqual(ints);
  });

  it('refuses a value that is not an integer', () => {
    expect(() => intArray([1.5])).toThrow(TypeError);
    expect(() => intArray([Number.NaN])).toThrow(TypeError);
    expect(intArray([])).toBe('{}');
  });
});
