import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

const API = 'http://localhost:3000';

export default defineConfig({
  // The router plugin must run before the react plugin so generated route files get transformed.
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true }),
    react(),
    tailwindcss(),
    // Each hashed script and style sheet also as .br and .gz beside it, made once here at the best
    // compression, so the server sends a phone a third of the bytes without compressing anything
    // per request (server/src/http/web.ts; docs/decisions/017-precompressed-web-assets.md).
    compression({
      include: /^assets\/.+\.(js|css|svg)$/,
      threshold: 1024,
      skipIfLargerOrEqual: true,
      algorithms: [defineAlgorithm('brotliCompress'), defineAlgorithm('gzip', { level: 9 })],
      logLevel: 'silent',
    }),
  ],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
    // The lockfile holds two copies of @ts-rest/core (different peer sets); the contract and the
    // client must share one so its symbols (c.noBody) and zod instances agree.
    dedupe: ['@ts-rest/core', 'zod', 'react', 'react-dom'],
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API, changeOrigin: true },
      '/sanctum': { target: API, changeOrigin: true },
      '/uploads': { target: API, changeOrigin: true },
      '/socket.io': { target: API, changeOrigin: true, ws: true },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true },
});
