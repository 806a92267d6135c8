import { Fragment, createElement, useSyncExternalStore, type ReactNode } from 'react';
import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { CONTRACT_MESSAGES, readSaid, valuesIn, type MOTION_OPTIONS } from '@kura/contract';
import en from './locales/en.json';
import { pseudoCatalogue } from './pseudo';
import { reloadIfUpgraded } from '../lib/stale-build';
import { LANGUAGE_STORAGE_KEY } from './storage';

/**
 * The web app's messages (docs/i18n.md, ADR 007): ICU messages in one catalogue per language,
 * formatted by FormatJS (`@formatjs/intl`). The active language lives in a small store outside
 * React, so a component reads it with `useT()` without a provider, and code outside components
 * (toasts, lib/) with `t()`.
 */
export type MessageKey = keyof typeof en;
export type MessageValues = Record<string, string | number | Date | null | undefined | ((chunks: ReactNode[]) => ReactNode) | ReactNode>;

/** The languages shipped to members, in the switcher's order. Adding one: a catalogue, a line here and its loader (LOADERS). */
export const SHIPPED_LANGUAGES = ['en', 'sw'] as const;
export type ShippedLanguage = (typeof SHIPPED_LANGUAGES)[number];
/** The pseudo-locale for development and the Chromium suite (docs/i18n.md "Pseudo-locale"). */
export const PSEUDO_LOCALE = 'en-XA';
export type Locale = ShippedLanguage | typeof PSEUDO_LOCALE;

/** Each language by its own name, never translated (a reader looks for the name they know). */
export const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', sw: 'Kiswahili', 'en-XA': 'Pseudo (en-XA)' };

/**
 * English is in the app itself (every language falls back to it key by key); every other
 * catalogue is a chunk of its own, loaded when the language is first used, so a reader downloads
 * only theirs (docs/i18n.md "Loading a language").
 */
const LOADERS: Record<Exclude<ShippedLanguage, 'en'>, () => Promise<{ default: Record<string, string> }>> = {
  sw: () => import('./locales/sw.json'),
};
const catalogues: Partial<Record<ShippedLanguage, Record<string, string>>> = { en };
const loading = new Map<ShippedLanguage, Promise<void>>();

/** Whether the pseudo-locale may be chosen: in development, in tests, and in builds made with VITE_PSEUDO_LOCALE=1. */
export const pseudoAllowed = (): boolean =>
  Boolean(import.meta.env.DEV || import.meta.env.MODE === 'test' || import.meta.env.VITE_PSEUDO_LOCALE);

export function isShipped(code: string | null | undefined): code is ShippedLanguage {
  return (SHIPPED_LANGUAGES as readonly string[]).includes(code ?? '');
}

/** A code this build can speak: a shipped language, or the pseudo-locale where it is allowed. */
export function isLocale(code: string | null | undefined): code is Locale {
  return isShipped(code) || (code === PSEUDO_LOCALE && pseudoAllowed());
}

/** The shipped language a browser language tag asks for: `sw-KE` → `sw`, `en-GB` → `en`. */
export function shippedFor(tag: string | null | undefined): ShippedLanguage | null {
  if (!tag) return null;
  const base = tag.toLowerCase().split(/[-_]/)[0];
  return isShipped(base) ? base : null;
}

export type LanguageSources = {
  /** the signed-in member's language, when the session carries one */
  member?: string | null;
  /** the choice made on this device (local storage), or `?lng=` */
  device?: string | null;
  /** navigator.languages */
  browser?: readonly string[];
  /** the organisation's default language */
  organisation?: string | null;
};

/**
 * docs/api.md "Languages": the signed-in member's language, the choice made on this device, the
 * browser's languages when one is shipped, the organisation's default; else English.
 */
export function chooseLanguage(s: LanguageSources): {
  locale: Locale;
  from: 'member' | 'device' | 'browser' | 'organisation' | 'fallback';
} {
  if (isLocale(s.member)) return { locale: s.member, from: 'member' };
  if (isLocale(s.device)) return { locale: s.device, from: 'device' };
  for (const tag of s.browser ?? []) {
    const found = shippedFor(tag);
    if (found) return { locale: found, from: 'browser' };
  }
  if (isShipped(s.organisation)) return { locale: s.organisation, from: 'organisation' };
  return { locale: 'en', from: 'fallback' };
}

function readStored(): string | null {
  try {
    return window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

function writeStored(locale: Locale) {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, locale);
  } catch {
    // storage unavailable: the choice lasts for this page only
  }
}

function fromUrl(): string | null {
  try {
    return new URLSearchParams(window.location.search).get('lng');
  } catch {
    return null;
  }
}

function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

const cache = createIntlCache();
const intls = new Map<Locale, IntlShape>();
let pseudoMessages: Record<string, string> | null = null;

function messagesFor(locale: Locale): Record<string, string> {
  // The contract's field messages (`said` in its schemas, which the forms run) come with the contract, in every language.
  const english = { ...en, ...CONTRACT_MESSAGES.en };
  if (locale === PSEUDO_LOCALE) return (pseudoMessages ??= pseudoCatalogue(english));
  // A key missing from a language falls back to English key by key (the completeness test keeps the shipped ones whole).
  return locale === 'en' ? english : { ...english, ...catalogues[locale], ...CONTRACT_MESSAGES[locale] };
}

/** Whether `t` can speak `locale` now (English and the pseudo-locale always can). */
export const catalogueLoaded = (locale: string): boolean => !isShipped(locale) || Boolean(catalogues[locale]);

/**
 * Loads a language's catalogue, once; resolves when `t` can speak it (at once for English, the
 * pseudo-locale and any code that is not a shipped language). A load that failed (offline) is
 * tried again by the next call, and rejects.
 */
export function loadCatalogue(locale: string): Promise<void> {
  if (catalogueLoaded(locale)) return Promise.resolve();
  const code = locale as Exclude<ShippedLanguage, 'en'>;
  let pending = loading.get(code);
  if (!pending) {
    pending = LOADERS[code]()
      .then((module) => {
        catalogues[code] = module.default;
        intls.delete(code); // an Intl made before the load spoke English
      })
      .finally(() => loading.delete(code));
    loading.set(code, pending);
  }
  return pending;
}

/** A shipped language's whole catalogue (the completeness test, the missing-keys report). */
export async function catalogueOf(language: ShippedLanguage): Promise<Record<string, string>> {
  await loadCatalogue(language);
  return catalogues[language]!;
}

function intlFor(locale: Locale): IntlShape {
  let intl = intls.get(locale);
  if (!intl) {
    intl = createIntl(
      {
        locale: locale === PSEUDO_LOCALE ? 'en' : locale,
        defaultLocale: 'en',
        messages: messagesFor(locale),
        onError: (err) => {
          if (import.meta.env.DEV) console.warn(`[i18n] ${err.message}`);
        },
      },
      cache,
    );
    intls.set(locale, intl);
  }
  return intl;
}

let current: { locale: Locale; from: ReturnType<typeof chooseLanguage>['from'] } = chooseLanguage({
  device: fromUrl() ?? readStored(),
  browser: browserLanguages(),
});
const listeners = new Set<() => void>();

function applyDocumentLanguage() {
  if (typeof document !== 'undefined') document.documentElement.lang = current.locale;
}
applyDocumentLanguage();

let generation = 0;

/**
 * Makes `locale` the active language once its catalogue is loaded (at once when it is): the page
 * changes language in one step, never half translated. A later choice made meanwhile wins; a
 * catalogue that cannot be loaded leaves the language as it was.
 */
function publish(locale: Locale, from: typeof current.from) {
  const mine = ++generation;
  const apply = () => {
    if (mine !== generation || (current.locale === locale && current.from === from)) return;
    current = { locale, from };
    applyDocumentLanguage();
    for (const listener of listeners) listener();
  };
  if (catalogueLoaded(locale)) apply();
  // A catalogue this tab's build names but the server no longer has (it was upgraded meanwhile):
  // the tab reloads into the new build once, in the language now kept (lib/stale-build.ts).
  else loadCatalogue(locale).then(apply, () => void reloadIfUpgraded());
}

/** The active language. */
export const getLocale = (): Locale => current.locale;

/** The language a person chose (switcher): used at once and remembered on this device. */
export function setLocale(locale: Locale) {
  if (!isLocale(locale)) return;
  writeStored(locale);
  publish(locale, 'device');
}

/** The signed-in member's own language (when the session carries one): it comes first. */
export function setMemberLanguage(code: string | null | undefined) {
  if (isLocale(code)) publish(code, 'member');
}

/** The organisation's default: used only when neither the member, this device nor the browser chose. */
export function setOrganisationDefault(code: string | null | undefined) {
  if (current.from === 'fallback' && isShipped(code) && code !== current.locale) publish(code, 'fallback');
}

/** Tests and the sign-out: choose again from the sources as they are now. */
export function resetLocale(sources: LanguageSources = { device: fromUrl() ?? readStored(), browser: browserLanguages() }) {
  const next = chooseLanguage(sources);
  publish(next.locale, next.from);
}

export function subscribeLocale(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A message as text in the active language (outside components, or in a component through useT). */
export function t(key: MessageKey, values?: Record<string, string | number | Date | null | undefined>): string {
  return intlFor(current.locale).formatMessage({ id: key }, values as never) as string;
}

/** A message with React parts (`<link>…</link>` tags, elements as values). */
export function tRich(key: MessageKey, values: MessageValues): ReactNode {
  const out = intlFor(current.locale).formatMessage({ id: key }, values as never) as unknown;
  return Array.isArray(out) ? createElement(Fragment, null, ...(out as ReactNode[])) : (out as ReactNode);
}

/**
 * A message that reaches the screen from elsewhere, in the active language. The contract's field
 * messages (its schemas' `said`, which the forms run) carry their code and values: said by code.
 * Any other text is shown as it is: the server already answers in the reader's language
 * (`Accept-Language`), and no text is ever translated by matching its English (docs/i18n.md).
 */
export function tReceived(text: string | null | undefined): string {
  if (!text) return text ?? '';
  const said = readSaid(text);
  if (!said) return text;
  return intlFor(current.locale).formatMessage(
    { id: said.id },
    valuesIn(current.locale === PSEUDO_LOCALE ? 'en' : current.locale, said.values),
  );
}

/**
 * A form check's message from the catalogue, said when the check runs (so in the language of that
 * moment): zod's `refine(check, says('key'))`, or `says('key', ['field'])` for an object's field.
 */
export function says(key: MessageKey, path?: (string | number)[]): () => { message: string; path?: (string | number)[] } {
  return () => ({ message: t(key), ...(path ? { path } : {}) });
}

/** The catalogue's name of each of a motion's fixed options (the contract's MOTION_OPTIONS). */
export const MOTION_OPTION_KEYS: Record<(typeof MOTION_OPTIONS)[number], MessageKey> = {
  Yes: 'ballot.motionYes',
  No: 'ballot.motionNo',
  Abstain: 'ballot.motionAbstain',
};

/**
 * A motion option's name in the active language: one of the contract's MOTION_OPTIONS is said by
 * its key (translation by a contract code); any other name is shown unchanged.
 */
export function optionName(name: string): string {
  return Object.hasOwn(MOTION_OPTION_KEYS, name) ? t(MOTION_OPTION_KEYS[name as keyof typeof MOTION_OPTION_KEYS]) : name;
}

/** The `Intl` locale of the active language; English keeps the browser's own English (en-KE, en-GB…). */
export function intlLocale(): string {
  const locale = current.locale;
  if (locale !== 'en' && locale !== PSEUDO_LOCALE) return locale;
  return browserLanguages().find((tag) => shippedFor(tag) === 'en') ?? 'en';
}

/** Translations of the organisation's own texts as the API answers them: language → field → text. */
export type ContentTranslations = Record<string, Record<string, string>> | undefined;

/**
 * The organisation's own text (a position's title or description, a motion's text, a candidate's
 * statement) in `locale`: the admin's translation when there is one, else the original as it is
 * (docs/i18n.md "Ballot content"). The pseudo-locale reads the English one.
 */
export function contentIn<V extends string | null | undefined>(
  locale: Locale,
  original: V,
  translations: ContentTranslations,
  field: string,
): V | string {
  const code = locale === PSEUDO_LOCALE ? 'en' : locale;
  return translations?.[code]?.[field] || original;
}

/** A ballot group in `locale`: its title and description, and each candidate's statement. */
export function ballotGroupIn<
  G extends {
    title: string;
    description?: string | null;
    translations?: ContentTranslations;
    candidates: { statement?: string | null; translations?: ContentTranslations }[];
  },
>(locale: Locale, group: G): G {
  return {
    ...group,
    title: contentIn(locale, group.title, group.translations, 'title'),
    description: contentIn(locale, group.description, group.translations, 'description'),
    candidates: group.candidates.map((c) => ({ ...c, statement: contentIn(locale, c.statement, c.translations, 'statement') })),
  };
}

/** A result's title in `locale` (live results, the declaration). */
export const titleIn = (locale: Locale, r: { title: string; translations?: ContentTranslations }): string =>
  contentIn(locale, r.title, r.translations, 'title');

/** Re-renders the component when the language changes; gives the message functions. */
export function useT() {
  const locale = useSyncExternalStore(subscribeLocale, getLocale, getLocale);
  return { t, tRich, tReceived, optionName, locale };
}
