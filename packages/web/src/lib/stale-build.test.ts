import { describe, expect, it } from 'vitest';
import { entryScriptOf, reloadIfUpgraded, type StaleBuildDeps } from './stale-build';

/** The page as `vite build` writes it (dist/index.html), naming its entry chunk. */
const page = (entry: string) =>
  `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><script type="module" crossorigin src="${entry}"></script>` +
  `<link rel="modulepreload" crossorigin href="/assets/queries-Bjm0K0qd.js"></head><body><div id="root"></div></body></html>`;

/** A tab running `running`, on a server that answers `served` (a page, or an error: offline). */
function tab(running: string | null, served: string | Error) {
  const stored = new Map<string, string>();
  const deps: StaleBuildDeps & { reloads: number } = {
    reloads: 0,
    runningEntry: () => running,
    fetchPage: async () => {
      if (served instanceof Error) throw served;
      return served;
    },
    reload: () => {
      deps.reloads += 1;
    },
    storage: { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => void stored.set(k, v) },
  };
  return deps;
}

describe('a tab left open across an upgrade (lib/stale-build.ts)', () => {
  it("reads the build's entry script from the page the server serves", () => {
    expect(entryScriptOf(page('/assets/index-Dfs53dIO.js'))).toBe('/assets/index-Dfs53dIO.js');
    expect(entryScriptOf('<html><body>Bad gateway</body></html>')).toBeNull();
  });

  it('reloads into the new build when the server serves another one, once per new build', async () => {
    const deps = tab('/assets/index-OLD.js', page('/assets/index-NEW.js'));
    expect(await reloadIfUpgraded(deps)).toBe(true);
    expect(deps.reloads).toBe(1);
    // The reloaded tab still failing on that build (a proxy's stale cache): no loop.
    expect(await reloadIfUpgraded(deps)).toBe(false);
    expect(deps.reloads).toBe(1);
  });

  it('never loops: the same answer reloads once, and a server answering a new page each time at most three times', async () => {
    const deps = tab('/assets/index-OLD.js', page('/assets/index-A.js'));
    const answers = ['A', 'B', 'A', 'C', 'B', 'D', 'E', 'F'];
    let reloaded = 0;
    for (const build of answers) {
      deps.fetchPage = async () => page(`/assets/index-${build}.js`);
      if (await reloadIfUpgraded(deps)) reloaded += 1;
    }
    expect(reloaded).toBe(3);
    expect(deps.reloads).toBe(3);
  });

  it('leaves the page as it is on the same build, offline, or when the answer names no build', async () => {
    for (const deps of [
      tab('/assets/index-SAME.js', page('/assets/index-SAME.js')),
      tab('/assets/index-OLD.js', new TypeError('Failed to fetch')),
      tab('/assets/index-OLD.js', '<html><body>Bad gateway</body></html>'),
      tab(null, page('/assets/index-NEW.js')),
    ]) {
      expect(await reloadIfUpgraded(deps)).toBe(false);
      expect(deps.reloads).toBe(0);
    }
  });
});
