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
    // Three files at a time, each with its own server (own data copy, own ports) and Chromium: on
    // the 2-core machine one file's waits (on its server, timers, the next frame) overlap the others'
    // work. Alone on a quiet machine: two at a time 319 s wall and 78 % of both cores, three 273 s
    // with the same CPU (BENCHMARKS.md). In CI the suite runs in a network namespace of its own
    // (.ci/run): the Docker networks the deployment test makes beside it once made a page's
    // scripts fail (net::ERR_NETWORK_CHANGED) and the page never render.
    fileParallelism: true,
    maxWorkers: 3,
    // One module graph per worker, shared by the files it runs (Playwright, the harness, the server's
    // SMTP capture imported once per worker instead of once per file): the harness keeps no state at
    // module level, and each file starts its own server and Chromium in its own hooks.
    isolate: false,
    passWithNoTests: false,
  },
});
