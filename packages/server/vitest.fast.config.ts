import { defineConfig } from 'vitest/config';

/**
 * The fast tier (docs/architecture.md "Checks"): the server's tests of pure logic, which need no
 * database, no app and no network: the receipt index, visibility rules, the declared result from a
 * box, translations and the error catalogues (the vote's refusal wording among them), the vvpat
 * and results carriers' shapes, fan-out and coalescing, masking, file names, uploads' sniffing,
 * the OpenAPI document, who imports which table (`db/schema/owners.test.ts`).  `pnpm --filter @kura/server test:fast` runs them
 * in seconds; `pnpm test` runs them again with everything else.
 */
export default defineConfig({
  test: {
    include: [
      'src/modules/results/receipt-index.test.ts',
      'src/modules/results/visibility.test.ts',
      'src/modules/declaration/declared-from-the-box.test.ts',
      'src/modules/setup/translations.test.ts',
      'src/modules/vvpat/vvpat.test.ts',
      'src/realtime/fan-out.test.ts',
      'src/realtime/coalesce.test.ts',
      'src/db/schema/owners.test.ts',
      'src/lib/random-pool.test.ts',
      'src/lib/passwords.test.ts',
      'src/lib/masking.test.ts',
      'src/lib/uploads.test.ts',
      'src/lib/file-name.test.ts',
      'src/i18n/catalogue.test.ts',
      'test/api/openapi.test.ts',
    ],
    pool: 'threads',
    restoreMocks: true,
    testTimeout: 10_000,
  },
});
