import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { LANGUAGE_STORAGE_KEY } from './storage';

/**
 * Apart from language.test.tsx: vi.resetModules gives this file fresh copies of the i18n module,
 * so it runs isolated (vitest.config.ts) while that one shares its worker.
 */
describe('loading a language (docs/i18n.md "Loading a language")', () => {
  // A fresh copy of the module: its Kiswahili catalogue is not loaded yet (src/test/setup.ts loaded the shared one's).
  const fresh = async () => {
    vi.resetModules();
    const i18n = await import('./index');
    // <html lang> is the document's, shared with the module the other tests use.
    onTestFinished(() => i18n.resetLocale({}));
    return i18n;
  };

  it('a language not yet loaded becomes active in one step once its catalogue is in, never half translated', async () => {
    const i18n = await fresh();
    expect(i18n.catalogueLoaded('sw')).toBe(false);
    i18n.setLocale('sw');
    expect(i18n.getLocale()).toBe('en');
    expect(i18n.t('signIn.submit')).toBe('Sign in');
    await vi.waitFor(() => expect(i18n.getLocale()).toBe('sw'));
    expect(i18n.t('signIn.submit')).toBe('Ingia');
    expect(document.documentElement.lang).toBe('sw');
  });

  it('a later choice made while a catalogue loads wins', async () => {
    const i18n = await fresh();
    i18n.setLocale('sw');
    i18n.setLocale('en');
    await i18n.loadCatalogue('sw');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(i18n.getLocale()).toBe('en');
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('en');
  });

  it('an Intl made before the load (English meanwhile) is replaced by the loaded language', async () => {
    const i18n = await fresh();
    i18n.resetLocale({ device: 'sw' });
    expect(i18n.t('signIn.submit')).toBe('Sign in');
    await vi.waitFor(() => expect(i18n.getLocale()).toBe('sw'));
    expect(i18n.t('signIn.submit')).toBe('Ingia');
  });
});

describe('a catalogue the server no longer has (a tab left open across an upgrade)', () => {
  it('keeps the language and asks whether the server serves another build (lib/stale-build.ts)', async () => {
    vi.resetModules();
    const reloadIfUpgraded = vi.fn(async () => false);
    vi.doMock('../lib/stale-build', () => ({ reloadIfUpgraded }));
    vi.doMock('./locales/sw.json', () => {
      throw new TypeError('Failed to fetch dynamically imported module: /assets/sw-OLD.js');
    });
    onTestFinished(() => {
      vi.doUnmock('../lib/stale-build');
      vi.doUnmock('./locales/sw.json');
    });
    const i18n = await import('./index');
    onTestFinished(() => i18n.resetLocale({}));
    i18n.setLocale('sw');
    await vi.waitFor(() => expect(reloadIfUpgraded).toHaveBeenCalledTimes(1));
    expect(i18n.getLocale()).toBe('en');
    // The choice is kept on the device, so the reloaded page opens in it.
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('sw');
  });
});
