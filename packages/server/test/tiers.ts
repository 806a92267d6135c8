import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Which server test files need the suite's database, for the configs that pick files
 * (vitest.config.ts, vitest.fast.config.ts; docs/architecture.md "Checks").
 */

/**
 * The fast tier: tests of pure logic, which need no database, no app and no network: the receipt
 * index, visibility rules, the declared result from a box, translations and the error catalogues
 * (the vote's refusal wording among them), the vvpat and results carriers' shapes, fan-out and
 * coalescing, masking, file names, uploads' sniffing, the OpenAPI document, who imports which
 * table (`db/schema/owners.test.ts`).
 */
export const FAST_TIER = [
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
];

/** Files that run real processes on the embedded database whatever the suite's database is. */
export const EMBEDDED_ONLY = ['src/db/data-dir-lock.test.ts'];

/**
 * The files whose run does not depend on the suite's database: with `KURA_TEST_DATABASE_ONLY=1`
 * (.ci/run's second run of the suite, on Postgres, after the whole suite ran on PGlite) they are
 * left out, since they would run exactly as they just did. Checked here, so the list cannot drift:
 * a fast-tier file that takes up the test harness (an app on a database) is refused by name.
 */
export function databaseIndependent(root: string): string[] {
  for (const file of FAST_TIER) {
    if (/from '[./]*(test\/)?harness'|template-database|openDatabase/.test(readFileSync(join(root, file), 'utf8')))
      throw new Error(`${file} is in the fast tier (test/tiers.ts) but opens a database: move it out of FAST_TIER`);
  }
  return [...FAST_TIER, ...EMBEDDED_ONLY];
}
