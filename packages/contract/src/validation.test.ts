import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { inEnglish } from './messages';
import {
  consentSchema,
  CONSENT_MESSAGE,
  IDENTIFIER_FORMAT_MESSAGE,
  identifierSchema,
  NAME_CHARACTERS_MESSAGE,
  nameSchema,
  passSchema,
  phoneSchema,
  tokenSchema,
  voterIdSchema,
  newPinSchema,
  PIN_FORMAT_MESSAGE,
  PIN_TRIVIAL_MESSAGE,
} from './validation';

const messages = (schema: z.ZodTypeAny, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => inEnglish(i.message));
};

describe('identifier', () => {
  it('gives the spec messages', () => {
    expect(messages(identifierSchema, 'ab')).toContain('Must be at least 3 characters long');
    expect(messages(identifierSchema, '1'.repeat(151))).toContain('Must be at most 150 characters long');
    expect(messages(identifierSchema, 'abc!')).toEqual([inEnglish(IDENTIFIER_FORMAT_MESSAGE)]);
    expect(inEnglish(IDENTIFIER_FORMAT_MESSAGE)).toBe('Should only contain digits, be a valid email address, or follow CMAKE##/## format');
  });

  it.each(['1234', 'a@b.co', 'CMAKE12/34'])('accepts %s', (v) => {
    expect(identifierSchema.safeParse(v).success).toBe(true);
  });

  // docs/api.md "Sign-in identifiers": the registered phone in any spelling people write it.
  it.each(['0712 345 678', '0712-345-678', '0712.345.678', '254712345678', '+254 712 345 678', '+254712345678'])(
    'accepts the phone %s',
    (v) => {
      expect(identifierSchema.safeParse(v).success).toBe(true);
    },
  );

  it.each(['+254 20 123', '07 12 ab', '+ 254 712'])('refuses %s, which is no phone, with the spec message', (v) => {
    expect(messages(identifierSchema, v)).toEqual([inEnglish(IDENTIFIER_FORMAT_MESSAGE)]);
  });
});

describe.each([
  ['voter ID', voterIdSchema, 4],
  ['phone', phoneSchema, 10],
  ['token', tokenSchema, 6],
] as const)('%s', (_name, schema, n) => {
  it(`accepts exactly ${n} digits`, () => {
    expect(schema.safeParse('1'.repeat(n)).success).toBe(true);
  });
  it('gives the spec messages', () => {
    expect(messages(schema, '1'.repeat(n - 1))).toContain(`Must be at least ${n} characters long`);
    expect(messages(schema, '1'.repeat(n + 1))).toContain(`Must be at most ${n} characters long`);
    expect(messages(schema, 'a'.repeat(n))).toEqual(['Should only contain digits']);
  });
});

describe('consent and password', () => {
  it('rejects consent false or missing', () => {
    expect(messages(consentSchema, false)).toEqual([inEnglish(CONSENT_MESSAGE)]);
    expect(consentSchema.safeParse(undefined).success).toBe(false);
    expect(consentSchema.safeParse(true).success).toBe(true);
  });
  it('requires the password', () => {
    expect(messages(passSchema, '')).toEqual(['The password field is required']);
    expect(messages(passSchema, undefined)).toEqual(['The password field is required']);
  });
});

describe('display names', () => {
  it('refuses invisible and control characters, then normalises (NFKC, trim, one space)', () => {
    for (const name of [
      'Nationa\u200bl',
      'A\u200cB',
      'A\u200dB',
      'A\u2060B',
      '\ufeffA',
      'A\u202eB',
      'A\u2067B',
      'A\nB',
      'A\tB',
      'A\u0085B',
    ])
      expect(messages(nameSchema, name), JSON.stringify(name)).toEqual([inEnglish(NAME_CHARACTERS_MESSAGE)]);
    expect(nameSchema.parse('  Ａｍｉｎａ\u00a0\u00a0 Ｗａｎｊｉｒｕ ')).toBe('Amina Wanjiru');
    expect(nameSchema.parse('Jose\u0301')).toBe('José');
    expect(messages(nameSchema, ' \u3000 ')).toEqual(['The name field is required']);
    expect(messages(nameSchema, 'x'.repeat(151))).toEqual(['Must be at most 150 characters long']);
  });
});

describe('new pin (newPinSchema)', () => {
  it.each(['5083', '731902', '24681357', '1235', '0102'])('accepts %s', (pin) => {
    expect(newPinSchema.safeParse(pin).success).toBe(true);
  });
  it.each([
    ['1111', inEnglish(PIN_TRIVIAL_MESSAGE)],
    ['00000000', inEnglish(PIN_TRIVIAL_MESSAGE)],
    ['1234', inEnglish(PIN_TRIVIAL_MESSAGE)],
    ['9876', inEnglish(PIN_TRIVIAL_MESSAGE)],
    ['8901', inEnglish(PIN_TRIVIAL_MESSAGE)],
    ['345678', inEnglish(PIN_TRIVIAL_MESSAGE)],
    ['123', inEnglish(PIN_FORMAT_MESSAGE)],
    ['123456789', inEnglish(PIN_FORMAT_MESSAGE)],
    [' 5083', inEnglish(PIN_FORMAT_MESSAGE)],
  ])('refuses %s', (pin, message) => {
    const parsed = newPinSchema.safeParse(pin);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => inEnglish(i.message))).toEqual([message]);
  });
});
