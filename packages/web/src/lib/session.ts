import { setMemberLanguage } from '@/i18n';
import { LANGUAGE_STORAGE_KEY } from '@/i18n/storage';
import { COLOURS_STORAGE_KEY } from './colours';
import { clearBallotDrafts } from './ballot-draft';

/**
 * Browser storage of the signed-in person (docs/screens.md "Browser storage"): token, hash, name,
 * photo, balance, pfNumber and account_type (member, admin or agent).
 */
export type AccountType = 'member' | 'admin' | 'agent';

export const STORAGE_KEYS = {
  token: 'token',
  hash: 'hash',
  name: 'name',
  photo: 'photo',
  balance: 'balance',
  pfNumber: 'pfNumber',
  accountType: 'account_type',
  /** A member's language choice their record has not answered yet (lib/own-language.ts). */
  ownLanguagePending: 'kura.ownLanguagePending',
} as const;

function get(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function set(key: string, value: string | null | undefined) {
  try {
    if (value === null || value === undefined) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode, quota); the session then lives only in memory.
  }
}

export const getToken = () => get(STORAGE_KEYS.token);
export const getHash = () => get(STORAGE_KEYS.hash);
export const getName = () => get(STORAGE_KEYS.name) ?? '';
export const getPhoto = () => {
  const p = get(STORAGE_KEYS.photo);
  return p && p !== 'null' && p !== 'undefined' ? p : null;
};
export const getBalance = () => Number(get(STORAGE_KEYS.balance) ?? 0) || 0;
export const getPfNumber = () => get(STORAGE_KEYS.pfNumber);
export const setPfNumber = (pfNumber: string) => set(STORAGE_KEYS.pfNumber, pfNumber);
export const setName = (name: string) => set(STORAGE_KEYS.name, name);
export const getOwnLanguagePending = () => get(STORAGE_KEYS.ownLanguagePending);
export const setOwnLanguagePending = (code: string | null) => set(STORAGE_KEYS.ownLanguagePending, code);

export function getAccountType(): AccountType | null {
  const t = get(STORAGE_KEYS.accountType);
  return t === 'member' || t === 'admin' || t === 'agent' ? t : null;
}

export const setAccountType = (type: AccountType) => set(STORAGE_KEYS.accountType, type);

export const hasSession = () => Boolean(getToken() && getHash());

export type SessionBody = {
  bearer_token: string;
  hash: string;
  name: string;
  photo: string | null;
  balance: number;
};

/** Stores what a successful sign-in answers (the Session shape of docs/api.md). */
export function storeSession(session: SessionBody, accountType: AccountType) {
  set(STORAGE_KEYS.token, session.bearer_token);
  set(STORAGE_KEYS.hash, session.hash);
  set(STORAGE_KEYS.name, session.name);
  set(STORAGE_KEYS.photo, session.photo);
  set(STORAGE_KEYS.balance, String(session.balance ?? 0));
  set(STORAGE_KEYS.accountType, accountType);
  // docs/api.md "Languages": the member's own language comes first, once the session carries it.
  setMemberLanguage((session as { language?: string | null }).language);
}

/**
 * Browser preferences that are not part of anyone's session: they outlive a sign-out
 * (the colour choice, docs/screens.md "Browser storage"; the language chosen on this device, docs/i18n.md).
 */
export const PREFERENCE_KEYS: readonly string[] = [COLOURS_STORAGE_KEY, LANGUAGE_STORAGE_KEY];

/**
 * docs/screens.md "Sign-in and session loss": sign-out and a failed session check clear local
 * storage, all of it except the browser's preferences (the colours are not a session).
 */
const WELCOMED_KEY = 'kura.welcomed';

/** True the first time a signed-in shell shows in this tab since sign-in (the welcome toast's once). */
export function takeWelcome(): boolean {
  try {
    if (window.sessionStorage.getItem(WELCOMED_KEY) === '1') return false;
    window.sessionStorage.setItem(WELCOMED_KEY, '1');
  } catch {
    // no sessionStorage: welcome as before
  }
  return true;
}

export function clearSession() {
  try {
    window.sessionStorage.removeItem(WELCOMED_KEY);
  } catch {
    // nothing stored
  }
  clearBallotDrafts();
  try {
    const storage = window.localStorage;
    const kept = PREFERENCE_KEYS.map((k) => [k, storage.getItem(k)] as const);
    storage.clear();
    for (const [k, v] of kept) if (v !== null) storage.setItem(k, v);
  } catch {
    // nothing stored, nothing to clear
  }
}

/** Where each role signs in again (docs/screens.md "Sign-in and session loss": 401 handling, and sign-out). */
export function loginRouteFor(type: AccountType | null): '/sign-in' | '/admin/login' | '/agent/login' {
  if (type === 'admin') return '/admin/login';
  if (type === 'agent') return '/agent/login';
  return '/sign-in';
}
