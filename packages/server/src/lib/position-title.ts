import type { TranslatedText, Translations } from '@kura/contract';

/**
 * How a position is named on the wire: the title `Chairperson National` (results, ballots,
 * receipts, vvpat rows, vote errors) and the key `Chairperson_National` (the results group key,
 * the same as the web's position select value). Every title is built here.
 */
export type NamedPosition = { name: string; level: string };

export const positionTitle = (p: NamedPosition): string => `${p.name} ${p.level}`;

export const positionKey = (p: NamedPosition): string => `${p.name}_${p.level}`;

/** A position with the translations an admin gave its name and description (docs/i18n.md "Ballot content"). */
export type TranslatablePosition = NamedPosition & { translations?: Translations<'name' | 'description'> | null };

/**
 * The title in each language its name is translated into (the level is the organisation's data and
 * stays), with `name` the name alone, and with `description` the description too: language → {title?, description?}. Undefined
 * when nothing is translated, so an untranslated position answers exactly as before.
 */
export function titleTranslations(
  p: TranslatablePosition,
  options: { description?: boolean; name?: boolean } = {},
): TranslatedText | undefined {
  const out: TranslatedText = {};
  for (const [code, texts] of Object.entries(p.translations ?? {})) {
    const entry: Record<string, string> = {};
    if (texts?.name) entry.title = positionTitle({ name: texts.name, level: p.level });
    if (options.name && texts?.name) entry.name = texts.name;
    if (options.description && texts?.description) entry.description = texts.description;
    if (Object.keys(entry).length > 0) out[code] = entry;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Stored translations as the API answers them, or undefined when there are none. */
export function storedTranslations(t: Translations | null | undefined): TranslatedText | undefined {
  const out: TranslatedText = {};
  for (const [code, texts] of Object.entries(t ?? {})) {
    const entry = Object.fromEntries(Object.entries(texts ?? {}).filter(([, v]) => typeof v === 'string' && v !== '')) as Record<
      string,
      string
    >;
    if (Object.keys(entry).length > 0) out[code] = entry;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
