import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { databaseIndependent } from './test/tiers';

// `KURA_TEST_DATABASE_ONLY=1` (.ci/run's run on Postgres, after the whole suite ran on PGlite):
// only the files that use the suite's database (test/tiers.ts).
const databaseOnly = process.env.KURA_TEST_DATABASE_ONLY === '1' ? databaseIndependent(fileURLToPath(new URL('.', import.meta.url))) : [];

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/reliability/**', ...databaseOnly],
    pool: 'forks',
    // One module graph per worker, shared by the files it runs: the app (Express, the contract,
    // Drizzle, PGlite) is imported once per worker instead of once per file. Sound because the code
    // keeps no per-run state at module level (only caches of constants) — each file builds its own
    // app on its own database — and a spy is restored by the test that made it (restoreMocks too).
    isolate: false,
    restoreMocks: true,
    // Migrates one template database per run; each file copies it into its own database.
    globalSetup: ['test/template-database.ts'],
    // Each file opens its own database (a PGlite instance or a fresh Postgres database). Two at a
    // time on either: three on Postgres were a few seconds faster on a quiet machine, but with the
    // machine also loaded the realtime tally tests missed their 5 s waits (BENCHMARKS.md).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
