/**
 * The missing-keys report (docs/i18n.md): for each shipped language, the English keys it lacks
 * (shown in English, key by key) and any key whose placeholders differ. Exits 1 when a language
 * has a problem, so a script can gate on it; the catalogue test gates CI.
 */
import en from '../src/i18n/locales/en.json' with { type: 'json' };
import { catalogueOf, SHIPPED_LANGUAGES } from '../src/i18n/index';
import { catalogueProblems } from '../src/i18n/check';

let failed = false;
for (const code of SHIPPED_LANGUAGES.filter((l) => l !== 'en')) {
  const catalogue = await catalogueOf(code);
  const problems = catalogueProblems(en, catalogue);
  const total = Object.keys(en).length;
  const missing = problems.filter((p) => p.problem === 'missing').length;
  console.log(`${code}: ${total - missing} of ${total} keys translated${problems.length ? `, ${problems.length} problem(s):` : ''}`);
  for (const p of problems) console.log(`  ${p.key}: ${p.problem}`);
  if (problems.length > 0) failed = true;
}
process.exit(failed ? 1 : 0);
