import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as everything from './index';
import { CONTRACT_MESSAGES, inEnglish, readSaid, said, type ContractMessageId } from './messages';

const placeholders = (template: string) => [...template.replace(/'[{}]'/g, '').matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** Inputs of every shape a client might send, to draw each schema's refusals out. */
const JUNK: unknown[] = [
  undefined,
  null,
  {},
  [],
  '',
  ' ',
  'x',
  'abc!',
  'x'.repeat(10_000),
  -1,
  0,
  1.5,
  2 ** 40,
  true,
  [0],
  ['x'],
  { a: 1 },
  { id: 'x', name: 7, title: '', seats: 0, kind: 'x', method: 'x', key: 'A', type: 'x', value: {}, data: 'x' },
  { position_ids: [1, 1], candidates: { x: 1 }, opens_at: 'x', closes_at: 'y', status: 'x', role: 'x' },
];

describe('the contract’s messages by code', () => {
  it('every template has the same placeholders in every language, and only simple ones', () => {
    for (const id of Object.keys(CONTRACT_MESSAGES.en) as ContractMessageId[]) {
      const en = CONTRACT_MESSAGES.en[id];
      expect(en, id).not.toMatch(/\{\w+,/);
      expect(placeholders(CONTRACT_MESSAGES.sw[id]), id).toEqual(placeholders(en));
    }
  });

  it('reads back what it said, and nothing else', () => {
    expect(readSaid(said('field.maxLength', { n: 150 }))).toEqual({ id: 'field.maxLength', values: { n: 150 } });
    expect(readSaid(said('field.required'))).toEqual({ id: 'field.required', values: {} });
    expect(readSaid('Must be at most 150 characters long')).toBeUndefined();
    expect(readSaid('\u241eno.such.id')).toBeUndefined();
    expect(readSaid('\u241efield.maxLength\u241f{not json')).toBeUndefined();
    expect(inEnglish(said('field.maxLength', { n: 150 }))).toBe('Must be at most 150 characters long');
    expect(inEnglish(said('field.oneOf', { field: 'role', options: ['proposer', 'seconder'] }))).toBe(
      'The role must be proposer or seconder',
    );
    expect(inEnglish(said('field.oneOf', { field: 'status', options: ['pending', 'upheld', 'dismissed'] }))).toBe(
      'The status must be pending, upheld or dismissed',
    );
    expect(inEnglish(said('field.supportersList'))).toBe('The supporters must be a list of {member_no, role}');
    expect(inEnglish('plain text')).toBe('plain text');
  });

  it('no schema of the contract refuses with English text: every refusal it writes is said by code', () => {
    const schemas = Object.entries(everything).filter((entry): entry is [string, z.ZodTypeAny] => entry[1] instanceof z.ZodType);
    expect(schemas.length).toBeGreaterThan(60);
    const written = new Set<string>();
    for (const [, schema] of schemas)
      for (const input of JUNK) {
        const parsed = schema.safeParse(input);
        if (!parsed.success) for (const issue of parsed.error.issues) written.add(issue.message);
      }
    // zod's own texts ("Required", "Expected number, received string"...) come with no custom message: the server says those by issue code.
    const zodOwn =
      /^(Required|Invalid input|Expected .+, received .+|Invalid enum value\..*|Invalid literal value.*|Unrecognized key\(s\).*|Number must be .*|String must contain .*|Array must contain .*|Invalid .*|Expected .*)$/;
    const english = [...written].filter((m) => !readSaid(m) && !zodOwn.test(m));
    expect(english).toEqual([]);
    expect([...written].filter((m) => readSaid(m)).length).toBeGreaterThan(40);
  });
});
