import { defineConfig } from 'vitest/config';
import { FAST_TIER } from './test/tiers';

/**
 * The fast tier (docs/architecture.md "Checks"): the server's tests of pure logic, listed in
 * test/tiers.ts. `pnpm --filter @kura/server test:fast` runs them in seconds; `pnpm test` runs them
 * again with everything else.
 */
export default defineConfig({
  test: {
    include: FAST_TIER,
    pool: 'threads',
    restoreMocks: true,
    testTimeout: 10_000,
  },
});
