import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));

/** Every test file under src, as a path relative to this package. */
function testFiles(dir = join(root, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [relative(root, path)] : [];
  });
}

// A fresh jsdom and module graph per file cost most of this suite's time (the environment and its
// imports, not the tests). Files run without that isolation, in one shared jsdom per worker, which
// src/test/setup.ts resets after every test (rendered trees, toasts, localStorage). A file that
// swaps a module (vi.mock, vi.doMock), imports fresh copies (vi.resetModules) or swaps the
// environment (vi.stubEnv) needs a module graph of its own, so it keeps per-file isolation: found
// here by reading the files, so a new one is kept apart without anyone listing it.
const SWAPS_MODULES = /\bvi\.(mock|doMock|resetModules|stubEnv)\(/;
const files = testFiles();
const isolated = files.filter((f) => SWAPS_MODULES.test(readFileSync(join(root, f), 'utf8')));
const shared = files.filter((f) => !isolated.includes(f));

const common = {
  environment: 'jsdom',
  setupFiles: ['./src/test/setup.ts'],
  restoreMocks: true,
  // A screen test walks several findBy* steps of up to 5 s each (src/test/setup.ts): on a loaded
  // 2-core CI machine the 5 s default for the whole test cut healthy ones short.
  testTimeout: 30_000,
} as const;

const project = (name: string, include: string[], isolate: boolean): TestProjectInlineConfiguration => ({
  extends: true,
  test: { ...common, name, include, isolate, passWithNoTests: true },
});

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
    dedupe: ['@ts-rest/core', 'zod', 'react', 'react-dom'],
  },
  test: {
    // Two files at a time, as the server suite: Vitest's default on this 2-core machine is one
    // worker (cores − 1), which left a core idle through the whole suite (72 s wall, 71 s of CPU;
    // with two, 48 s wall, 79 s of CPU).
    maxWorkers: 2,
    projects: [project('web', shared, false), project('web (isolated: swaps modules)', isolated, true)],
  },
});
