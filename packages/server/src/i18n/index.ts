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

/**
 * The language of an `Accept-Language` header: the shipped language with the highest q-value
 * (a regional tag such as `sw-KE` counts for `sw`; `q=0` refuses), else English.
 */
export function languageFromHeader(header: string | undefined): Language {
  if (!header) return 'en';
  const ranges = header
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      const weight = q === undefined ? 1 : Number(q);
      return { tag: tag.trim().toLowerCase(), q: Number.isFinite(weight) ? Math.min(weight, 1) : 0, order };
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

/** Texts sent to members, formatted by id: never an error message, so never matched. */
const SENT_TEXTS = ['sms.', 'email.', 'reminder.', 'contactChange.'];
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
  return found ? t(language, found.id, found.values) : text;
}

/**
 * The error envelope in `language`: `message` and each field's messages translated; the envelope,
 * the field keys and `issue` (which clients compare against) stay as they are.
 */
export function localiseErrorBody<B extends { message: string; issue?: string; errors?: Record<string, string[]> }>(
  body: B,
  language: Language,
): B {
  if (language === 'en') return body;
  try {
    return {
      ...body,
      message: translateText(body.message, language),
      ...(body.errors
        ? { errors: Object.fromEntries(Object.entries(body.errors).map(([k, v]) => [k, v.map((m) => translateText(m, language))])) }
        : {}),
    };
  } catch {
    // A translation never turns an answer into a failure: English it is.
    return body;
  }
}

export { SHIPPED_LANGUAGES, type Language };
