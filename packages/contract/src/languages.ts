import { z } from 'zod';
import { said } from './messages';

/**
 * The languages Kura ships (docs/architecture.md "Languages"): English, the default and the source
 * of every text, and Kiswahili. Adding one is a catalogue file per package and a code here.
 */
export const SHIPPED_LANGUAGES = ['en', 'sw'] as const;
export type Language = (typeof SHIPPED_LANGUAGES)[number];

export const isShippedLanguage = (code: string): code is Language => (SHIPPED_LANGUAGES as readonly string[]).includes(code);

export const LANGUAGE_MESSAGE = said('field.oneOfList', { field: 'language', options: SHIPPED_LANGUAGES.join(', ') });

/**
 * A member's language as the API takes it: a shipped code, or null (or empty) for the
 * organisation's default. Case and spaces around it do not matter.
 */
export const memberLanguageSchema = z
  .string({ required_error: said('field.isRequired', { field: 'language' }), invalid_type_error: LANGUAGE_MESSAGE })
  .trim()
  .toLowerCase()
  .refine((v) => v === '' || isShippedLanguage(v), LANGUAGE_MESSAGE)
  .transform((v) => (v === '' ? null : (v as Language)))
  .nullable();

/** The organisation's default language: a shipped code. */
export const defaultLanguageSchema = z.enum(SHIPPED_LANGUAGES, { errorMap: () => ({ message: LANGUAGE_MESSAGE }) });

/**
 * Content in other languages (docs/api.md "Languages"), as the server answers it: language →
 * field → text, e.g. `{sw: {title: "Mwenyekiti National"}}`. Present only when there is one; a
 * field without a translation shows the original.
 */
export const TranslatedText = z.record(z.string(), z.record(z.string(), z.string()));
export type TranslatedText = z.infer<typeof TranslatedText>;

/** Translations as stored and edited: shipped language → field → text. */
export type Translations<F extends string = string> = Partial<Record<Language, Partial<Record<F, string>>>>;

/**
 * The translations an admin gives an organisation's text: keyed by shipped language codes only,
 * each with the fields named (each at most its length); an empty text drops that field, and a
 * language left with none is dropped. The whole object replaces the stored one.
 */
export function translationsSchema<F extends string>(fields: Record<F, number>) {
  const shape = Object.fromEntries(
    Object.entries<number>(fields).map(([field, max]) => [
      field,
      z
        .string({ invalid_type_error: said('field.translationMustBeText', { field }) })
        .trim()
        .max(max, said('field.maxLength', { n: max }))
        .nullable()
        .optional(),
    ]),
  ) as Record<F, z.ZodOptional<z.ZodNullable<z.ZodString>>>;
  const entry = z.object(shape, { invalid_type_error: said('field.translationObject') }).strict();
  return z
    .record(z.string(), entry, { invalid_type_error: said('field.translationsObject') })
    .superRefine((o, ctx) => {
      for (const code of Object.keys(o))
        if (!isShippedLanguage(code)) ctx.addIssue({ code: 'custom', path: [code], message: LANGUAGE_MESSAGE });
    })
    .transform((o) => {
      const out: Translations<F> = {};
      for (const [code, texts] of Object.entries(o)) {
        const kept = Object.fromEntries(Object.entries(texts as Record<string, string | null | undefined>).filter(([, v]) => v)) as Partial<
          Record<F, string>
        >;
        if (Object.keys(kept).length > 0) out[code as Language] = kept;
      }
      return out;
    });
}
