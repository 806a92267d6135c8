import { afterEach, vi } from 'vitest';
import { act, cleanup, configure } from '@testing-library/react';
import { clearToasts } from '@/hooks/use-toast';
import { loadCatalogue, resetLocale, SHIPPED_LANGUAGES } from '@/i18n';

// Every catalogue is loaded before the tests, so a switch of language is at once, as in the app once a language has been used.
await Promise.all(SHIPPED_LANGUAGES.map(loadCatalogue));

// findBy*/waitFor default to 1 s, too tight when CI runs suites side by side on 2 cores.
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks these browser APIs; embla-carousel and Radix need them.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
class IntersectionObserverStub {
  readonly root = null;
  readonly rootMargin = '';
  readonly thresholds: number[] = [];
  observe() {}
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
globalThis.IntersectionObserver ??= IntersectionObserverStub as unknown as typeof IntersectionObserver;
if (!window.matchMedia) {
  window.matchMedia = vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  }));
}
window.scrollTo = (() => {}) as typeof window.scrollTo;
// Radix uses these pointer-capture and scrolling helpers.
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};
Element.prototype.scrollIntoView ??= () => {};

afterEach(() => {
  cleanup();
  // The toast store lives beside the module, not in a render: a toast left open by one test would
  // otherwise show in the next test's Toaster.
  act(() => clearToasts());
  window.localStorage.clear();
  window.sessionStorage.clear();
  // A test that switched the language leaves English for the next one.
  act(() => resetLocale({}));
});
