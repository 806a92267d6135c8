import { defineConfig } from 'vitest/config';

/**
 * The long reliability suite (`pnpm test:reliability`): fuzzing, races, crashes, database faults,
 * shutdown under load. Two files at a time, each on its own database with its own server
 * processes: none of them asserts a duration (their bounds are deadlines, tens of seconds), and
 * alone they left a core idle a third of the time (measured on Postgres: 71 s one file at a time,
 * 40 s two at a time, the same CPU).
 */
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    // One module graph per worker, as in the server suite: the app and the server bundle
    // (test/server-bundle.ts, built once per test process) are made once per worker instead of once
    // per file; the files keep their state in their own module and hooks.
    isolate: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
