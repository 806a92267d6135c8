import { defineConfig } from 'vitest/config';

/**
 * End-to-end tests: Playwright (playwright-core) driving Debian's Chromium against the built
 * app and a real server. The suite is written once the server answers the voter journey; until
 * then an empty run passes.
 */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    passWithNoTests: false,
  },
});
