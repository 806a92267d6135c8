import { useSyncExternalStore } from 'react';

/**
 * The two custom colours (docs/screens.md "Browser storage"): kept in localStorage under `customColors`, read at start,
 * rewritten on every change, and applied as CSS variables on the document root.
 */
export type CustomColours = { selectBackground: string; selectText: string };

export const COLOURS_STORAGE_KEY = 'customColors';
export const DEFAULT_COLOURS: CustomColours = { selectBackground: '#333333', selectText: '#ffffff' };

const HEX = /^#[0-9a-f]{6}$/i;

export function readColours(storage: Storage | undefined = safeStorage()): CustomColours {
  try {
    const raw = storage?.getItem(COLOURS_STORAGE_KEY);
    if (!raw) return DEFAULT_COLOURS;
    const parsed = JSON.parse(raw) as Partial<CustomColours> | null;
    return {
      selectBackground:
        typeof parsed?.selectBackground === 'string' && HEX.test(parsed.selectBackground)
          ? parsed.selectBackground
          : DEFAULT_COLOURS.selectBackground,
      selectText: typeof parsed?.selectText === 'string' && HEX.test(parsed.selectText) ? parsed.selectText : DEFAULT_COLOURS.selectText,
    };
  } catch {
    return DEFAULT_COLOURS;
  }
}

export function writeColours(colours: CustomColours, storage: Storage | undefined = safeStorage()) {
  try {
    storage?.setItem(COLOURS_STORAGE_KEY, JSON.stringify(colours));
  } catch {
    // storage full or blocked: the colours still apply for this page
  }
}

export function applyColours(
  colours: CustomColours,
  root: HTMLElement | undefined = typeof document === 'undefined' ? undefined : document.documentElement,
) {
  root?.style.setProperty('--select-bg', colours.selectBackground);
  root?.style.setProperty('--select-text', colours.selectText);
}

function safeStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

let current: CustomColours | null = null;
const listeners = new Set<() => void>();

export function getColours(): CustomColours {
  if (!current) {
    current = readColours();
    applyColours(current);
  }
  return current;
}

/** Change one or both colours: stored and applied at once. */
export function setColours(patch: Partial<CustomColours>) {
  current = { ...getColours(), ...patch };
  writeColours(current);
  applyColours(current);
  listeners.forEach((l) => l());
}

/** Forget the in-memory copy (tests, and after storage is cleared elsewhere). */
export function reloadColours() {
  current = null;
  const next = getColours();
  listeners.forEach((l) => l());
  return next;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useColours(): CustomColours {
  return useSyncExternalStore(subscribe, getColours, getColours);
}
