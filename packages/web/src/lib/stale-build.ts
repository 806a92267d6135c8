/**
 * A tab opened before an upgrade still runs the old build, whose chunks the server no longer
 * has: choosing a language whose catalogue is not loaded yet then fails (docs/i18n.md "Loading a
 * language"). When the server's page names another build than the one this tab runs, the tab
 * reloads once into the new build (the choice is already kept on the device, so the new build
 * starts in it). Offline, or on the same build, nothing happens: a reload would only trade this
 * page for the browser's error page. Pages' own chunks are reloaded for by the router
 * (`lazyRouteComponent`).
 */

/** The entry script a page of the app names: `/assets/index-<hash>.js`, the build's identity. */
export function entryScriptOf(html: string): string | null {
  return /<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/.exec(html)?.[1] ?? null;
}

/** What `reloadIfUpgraded` reads and does; the defaults are the browser's. */
export type StaleBuildDeps = {
  /** The entry script this tab runs (its address as written in the page). */
  runningEntry: () => string | null;
  fetchPage: () => Promise<string>;
  reload: () => void;
  storage: Pick<Storage, 'getItem' | 'setItem'>;
};

const browserDeps = (): StaleBuildDeps => ({
  runningEntry: () => document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.getAttribute('src') ?? null,
  fetchPage: async () => {
    const res = await fetch('/', { cache: 'no-store', credentials: 'same-origin' });
    if (!res.ok) throw new Error(`GET / answered ${res.status}`);
    return res.text();
  },
  reload: () => window.location.reload(),
  storage: window.sessionStorage,
});

/**
 * The builds this tab has reloaded for (session storage: it outlives the reload). The same answer
 * never reloads twice, and a tab reloads at most MAX_RELOADS times in all, so a proxy that answers
 * a different page each time cannot loop it either.
 */
const RELOADED_KEY = 'kura.reloadedForBuilds';
const MAX_RELOADS = 3;

function reloadedFor(storage: StaleBuildDeps['storage']): string[] {
  try {
    const list: unknown = JSON.parse(storage.getItem(RELOADED_KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Reloads the tab when the server now serves another build; answers whether it did. */
export async function reloadIfUpgraded(deps: StaleBuildDeps = browserDeps()): Promise<boolean> {
  const running = deps.runningEntry();
  if (!running) return false;
  let served: string | null;
  try {
    served = entryScriptOf(await deps.fetchPage());
  } catch {
    return false; // offline, or the server is down: keep the page as it is
  }
  if (!served || served === running) return false;
  try {
    const before = reloadedFor(deps.storage);
    if (before.includes(served) || before.length >= MAX_RELOADS) return false;
    deps.storage.setItem(RELOADED_KEY, JSON.stringify([...before, served]));
  } catch {
    return false; // storage refused: no way to know this is not a loop
  }
  deps.reload();
  return true;
}
