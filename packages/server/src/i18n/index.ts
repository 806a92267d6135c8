import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { isShippedLanguage, SHIPPED_LANGUAGES, type Language } from '@kura/contract';
import { matcherFor, type TextMatcher } from './reverse';
import en from './locales/en.json';
import sw from './locales/sw.json';

/**
 * The server's words in the members' languages (docs/architecture.md "Languages"): one catalogue
 * per shipped language in ICU message syntax, formatted with FormatJS like the web app's. English
 * is the source and holds the spec's texts word for word; the code keeps writing English, and the
 * error envelope's one exit (`http/error-handler.ts`) translates a finished English message by
 * matching it against the English catalogue. Texts sent to a member (codes, notices, reminders)
 * are formatted by id in the member's language.
 */

export type MessageId = keyof typeof en;
export type MessageValues = Record<string, string | number>;
/**
 * A value of a message by code: text or a number as it is, or a list of messages by code, each said
 * in the language and joined (`and`: "a, b and c" in the language's own words; `comma`, `semicolon`).
 */
export type SaidValue = string | number | { list: Said[]; join: 'and' | 'comma' | 'semicolon' };
export type SaidValues = Record<string, SaidValue>;
/** A message by code: its catalogue id and the values it is formatted with (AppError.say). */
export type Said = { id: MessageId; values?: SaidValues };

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

/** Texts sent to members (and the declaration PDF's), formatted by id: never an error message, so never matched. */
const SENT_TEXTS = ['sms.', 'email.', 'reminder.', 'contactChange.', 'ussd.', 'pdf.', 'register.', 'nomination.'];
/** The messages an error envelope can carry: those `translateText` looks for. */
export const ERROR_MESSAGE_IDS = (Object.keys(en) as MessageId[]).filter((id) => !SENT_TEXTS.some((prefix) => id.startsWith(prefix)));
/**
 * Longer texts stay as they are: no catalogue message is near this long, and the bound keeps the
 * matching cheap whatever a request puts in a message.
 */
const MAX_TRANSLATED_LENGTH = 1000;

let matcher: TextMatcher<MessageId> | undefined;

/**
 * An English text the code produced, in `language`: found in the English catalogue (exactly, or
 * as a template whose placeholders it fills), then formatted from the other catalogue with the
 * same values. A text the catalogue does not know stays English.
 */
export function translateText(text: string, language: Language): string {
  if (language === 'en' || text.length > MAX_TRANSLATED_LENGTH) return text;
  matcher ??= matcherFor(Object.fromEntries(ERROR_MESSAGE_IDS.map((id) => [id, en[id]])) as Record<MessageId, string>);
  const found = matcher.match(text);
  if (!found) return text;
  return tSaid(language, found);
}

/** A message by code in `language`. Position titles end in their level: a national one's level word is said in the language too. */
export function tSaid(language: Language, said: Said): string {
  const values = Object.fromEntries(
    Object.entries(said.values ?? {}).map(([k, v]) => [
      k,
      typeof v === 'object'
        ? joined(
            v.list.map((item) => tSaid(language, item)),
            v.join,
            language,
          )
        : (k === 'position' || k === 'positions') && typeof v === 'string'
          ? levelsIn(v, language)
          : v,
    ]),
  );
  return t(language, said.id, values);
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
 * The error envelope in `language`: `message` and each field's messages translated; the envelope,
 * the field keys and `issue` (which clients compare against) stay as they are. A message raised
 * by code (`said`) is formatted from its id; one raised as English text is still looked up in the
 * English catalogue (`translateText`) until every refusal is raised by code.
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
        return byCode ? tSaid(language, byCode) : translateText(m, language);
      });
    return {
      ...body,
      message: said.message ? tSaid(language, said.message) : translateText(body.message, language),
      ...(body.errors ? { errors: Object.fromEntries(Object.entries(body.errors).map(([k, v]) => [k, field(k, v)])) } : {}),
    };
  } catch {
    // A translation never turns an answer into a failure: English it is.
    return body;
  }
}

export { SHIPPED_LANGUAGES, type Language };
