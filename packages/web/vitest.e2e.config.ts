import { defineConfig } from 'vitest/config';

/**
 * End-to-end tests: Playwright (playwright-core) driving Debian's Chromium against the built
 * app and a real server (see e2e/harness.ts). An empty run is a failure.
 */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    // Seeds the demo once per run; each file's server starts from a copy (e2e/global-setup.ts).
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Two files at a time, each with its own server (own data copy, own ports) and Chromium: on
    // the 2-core machine this overlaps one file's waits with another's work.
    fileParallelism: true,
    maxWorkers: 2,
    passWithNoTests: false,
  },
});
