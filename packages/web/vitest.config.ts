import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
    dedupe: ['@ts-rest/core', 'zod', 'react', 'react-dom'],
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.tsx', 'src/**/*.test.ts'],
    setupFiles: ['./src/test/setup.ts'],
    restoreMocks: true,
    // A screen test walks several findBy* steps of up to 5 s each (src/test/setup.ts): on a loaded
    // 2-core CI machine the 5 s default for the whole test cut healthy ones short.
    testTimeout: 30_000,
  },
});
