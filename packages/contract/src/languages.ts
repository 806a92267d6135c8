import { z } from 'zod';

/**
 * The languages Kura ships (docs/architecture.md "Languages"): English, the default and the source
 * of every text, and Kiswahili. Adding one is a catalogue file per package and a code here.
 */
export const SHIPPED_LANGUAGES = ['en', 'sw'] as const;
export type Language = (typeof SHIPPED_LANGUAGES)[number];

export const isShippedLanguage = (code: string): code is Language => (SHIPPED_LANGUAGES as readonly string[]).includes(code);

export const LANGUAGE_MESSAGE = `The language must be one of ${SHIPPED_LANGUAGES.join(', ')}`;

/**
 * A member's language as the API takes it: a shipped code, or null (or empty) for the
 * organisation's default. Case and spaces around it do not matter.
 */
export const memberLanguageSchema = z
  .string({ invalid_type_error: LANGUAGE_MESSAGE })
  .trim()
  .toLowerCase()
  .refine((v) => v === '' || isShippedLanguage(v), LANGUAGE_MESSAGE)
  .transform((v) => (v === '' ? null : (v as Language)))
  .nullable();
