import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { CONTRACT_MESSAGES, isShippedLanguage, SHIPPED_LANGUAGES, valuesIn, type ContractMessageId, type Language } from '@kura/contract';
import serverEn from './locales/en.json';
import serverSw from './locales/sw.json';

/**
 * The server's words in the members' languages (docs/architecture.md "Languages"): one catalogue
 * per shipped language in ICU message syntax, formatted with FormatJS like the web app's. English
 * is the source and holds the spec's texts word for word. Every message is formatted by id: a refusal
 * carries its id and values (`AppError.say`), the contract's field messages carry theirs
 * (`said`, whose catalogue the contract owns in every language and which is merged in here), and
 * texts sent to a member (codes, notices, reminders) are formatted in the member's language.
 * Nothing is translated by matching its English text.
 */

export type MessageId = keyof typeof serverEn | ContractMessageId;
export type MessageValues = Record<string, string | number>;
/**
 * A value of a message by code: text or a number as it is, or a list of messages by code, each said
 * in the language and joined (`and`: "a, b and c" in the language's own words; `comma`, `semicolon`),
 * or a list of texts said as alternatives ("a, b or c", the contract's option lists).
 */
export type SaidValue = string | number | readonly string[] | { list: Said[]; join: 'and' | 'comma' | 'semicolon' };
export type SaidValues = Record<string, SaidValue>;
/** A message by code: its catalogue id and the values it is formatted with (AppError.say). */
export type Said = { id: MessageId; values?: SaidValues };

const en: Record<MessageId, string> = { ...serverEn, ...CONTRACT_MESSAGES.en };
const sw = { ...serverSw, ...CONTRACT_MESSAGES.sw } as Record<MessageId, string>;
/** Each language's messages: the server's own and the contract's (a test keeps the two apart and each complete). */
export const CATALOGUES: Record<Language, Record<MessageId, string>> = { en, sw };

/**
 * The organisation's default language from its stored `default_language` (docs/api.md
 * "Languages"; read with the election's state, `readState`): a shipped code, else English.
 */
export function defaultLanguage(stored: string | null | undefined): Language {
  return stored && isShippedLanguage(stored) ? stored : 'en';
}

/** A member's language: their own when it is a shipped one, else the organisation's default (its stored code). */
export function memberLanguage(member: { language?: string | null } | undefined, organisationDefault: string | null | undefined): Language {
  const code = member?.language;
  return code && isShippedLanguage(code) ? code : defaultLanguage(organisationDefault);
}

/** RFC 9110's qvalue: 0 to 1 with at most three decimals ("0", "0.5", "1", "1.000"). */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The language of an `Accept-Language` header: the shipped language with the highest q-value
 * (a regional tag such as `sw-KE` counts for `sw`; `q=0` refuses), else English. An entry whose
 * q is not a qvalue (`q=-1`, `q=NaN`, `q=2`) is ignored, as RFC 9110 leaves it invalid.
 */
export function languageFromHeader(header: string | undefined): Language {
  if (!header) return 'en';
  const ranges = header
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*(.*?)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      const weight = q === undefined ? 1 : QVALUE.test(q) ? Number(q) : 0;
      return { tag: tag.trim().toLowerCase(), q: weight, order };
    })
    .filter((r) => r.tag && r.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  for (const { tag } of ranges) {
    if (tag === '*') return 'en';
    const primary = tag.split('-')[0]!;
    if (isShippedLanguage(tag)) return tag;
    if (isShippedLanguage(primary)) return primary;
  }
  return 'en';
}

const cache = createIntlCache();
const intls = new Map<Language, IntlShape>();

function intlFor(language: Language): IntlShape {
  let intl = intls.get(language);
  if (!intl) {
    intl = createIntl(
      {
        locale: language,
        defaultLocale: 'en',
        messages: CATALOGUES[language],
        // A key missing from a language falls back to English (the completeness test keeps it rare).
        onError: () => undefined,
      },
      cache,
    );
    intls.set(language, intl);
  }
  return intl;
}

/** The message `id` in `language`, with its placeholders filled. */
export function t(language: Language, id: MessageId, values?: MessageValues): string {
  return intlFor(language).formatMessage({ id, defaultMessage: en[id] }, values);
}

/** A message by code in `language`. Position titles end in their level: a national one's level word is said in the language too. */
export function tSaid(language: Language, said: Said): string {
  const own: Record<string, string> = {};
  const plain: Record<string, string | number | readonly string[]> = {};
  for (const [k, v] of Object.entries(said.values ?? {})) {
    if (typeof v === 'object' && !Array.isArray(v)) {
      const list = v as { list: Said[]; join: 'and' | 'comma' | 'semicolon' };
      own[k] = joined(
        list.list.map((item) => tSaid(language, item)),
        list.join,
        language,
      );
    } else if ((k === 'position' || k === 'positions') && typeof v === 'string') own[k] = levelsIn(v, language);
    else plain[k] = v as string | number | readonly string[];
  }
  // Option lists and field names as the contract says them in the language (its `valuesIn`, which the web uses too).
  return t(language, said.id, { ...valuesIn(language, plain), ...own });
}

function joined(items: string[], join: 'and' | 'comma' | 'semicolon', language: Language): string {
  if (join === 'comma') return items.join(', ');
  if (join === 'semicolon') return items.join('; ');
  // British English has no comma before the last "and" (the spec's wording); others say it their way.
  return new Intl.ListFormat(language === 'en' ? 'en-GB' : language, { type: 'conjunction' }).format(items);
}

/** "Chairperson National, Treasurer National" with the level word "National" in `language` ("Mwenyekiti Kitaifa"). */
export function levelsIn(titles: string, language: Language): string {
  if (language === 'en') return titles;
  return titles.replace(/ National(?=$|, )/g, ` ${t(language, 'vote.levelNational')}`);
}

/**
 * The error envelope in `language`: `message` and each field's messages formatted from their ids
 * (`said`); the envelope, the field keys and `issue` (which clients compare against) stay as they
 * are. A message with no id (zod's own text for a shape no schema words) stays as it is.
 */
export function localiseErrorBody<B extends { message: string; issue?: string; errors?: Record<string, string[]> }>(
  body: B,
  language: Language,
  said: { message?: Said; errors?: Record<string, (Said | null)[]> } = {},
): B {
  if (language === 'en') return body;
  try {
    const field = (k: string, v: string[]) =>
      v.map((m, i) => {
        const byCode = said.errors?.[k]?.[i];
        return byCode ? tSaid(language, byCode) : m;
      });
    return {
      ...body,
      message: said.message ? tSaid(language, said.message) : body.message,
      ...(body.errors ? { errors: Object.fromEntries(Object.entries(body.errors).map(([k, v]) => [k, field(k, v)])) } : {}),
    };
  } catch {
    // A translation never turns an answer into a failure: English it is.
    return body;
  }
}

export { SHIPPED_LANGUAGES, type Language };
