import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/reliability/**'],
    pool: 'forks',
    // Migrates one template database per run; each file copies it into its own database.
    globalSetup: ['test/template-database.ts'],
    // Each file opens its own database (a PGlite instance or a fresh Postgres database).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
