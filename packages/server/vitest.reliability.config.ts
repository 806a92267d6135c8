import { defineConfig } from 'vitest/config';

/**
 * The long reliability suite (`pnpm test:reliability`): fuzzing, races, crashes, database faults,
 * shutdown under load. Files run one at a time: several of them spawn real server processes and
 * measure behaviour under load, which parallel files would distort.
 */
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
