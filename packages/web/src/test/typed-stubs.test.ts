import { describe, expect, it } from 'vitest';

/**
 * Issue 38, item 5: every stand-in answer of the web tests is typed by the contract
 * (`stubRoutes(stub(contract.api.<domain>.<route>, reply))`, src/test/fetch.ts), so a renamed or
 * re-shaped route breaks the tests at compile time. The untyped `stubFetch` (routes by hand-written
 * paths, bodies unchecked) stays only where a test means a server answer no contract route has;
 * such a file is named here with why. A contract route answered with a body it does not declare
 * (an older server's shape) uses `stubOffContract`, not this.
 */
const ALLOWED: Record<string, string> = {
  // 'src/components/…/x.test.tsx': 'why it needs an answer the contract cannot type',
};

/** Every other test file's text by its path under the package (src/…); a glob leaves out the file it is in. */
const sources = import.meta.glob<string>('/src/**/*.test.{ts,tsx}', { query: '?raw', import: 'default', eager: true });
const files = Object.fromEntries(Object.entries(sources).map(([path, text]) => [path.replace(/^\//, ''), text]));
const CALLS_UNTYPED = /\bstubFetch\s*\(/;

describe('typed fetch stubs in the web tests (issue 38, 5)', () => {
  it('reads the test files (the guard is not looking at nothing)', () => {
    expect(Object.keys(files)).toContain('src/lib/guards.test.ts');
    expect(Object.keys(files).length).toBeGreaterThan(50);
    // and it would see a call
    expect(CALLS_UNTYPED.test("const calls = stubFetch (({ path }) => (path === '/election' ? ok : undefined));")).toBe(true);
    expect(CALLS_UNTYPED.test('const calls = stubRoutes(stub(contract.api.elections.getElection, ok));')).toBe(false);
  });

  it('no test file calls the untyped stubFetch unless it is allowed here, with why', () => {
    const untyped = Object.entries(files)
      .filter(([, text]) => CALLS_UNTYPED.test(text))
      .map(([path]) => path);
    expect(untyped.filter((path) => !(path in ALLOWED))).toEqual([]);
  });

  it('every allowed file still calls it (the list shrinks as files are converted)', () => {
    expect(Object.keys(ALLOWED).filter((path) => !CALLS_UNTYPED.test(files[path] ?? ''))).toEqual([]);
  });
});
