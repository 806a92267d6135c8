import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contractRoutes, generatedBlocks, readBlock } from './api-doc';
import { contract } from './index';

const doc = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');

const HOW_TO_FIX =
  'Run `pnpm docs:api` at the repository root and commit docs/api.md: it rewrites only the tables between the ' +
  '`<!-- generated:… -->` markers from the contract. If the change brings a new convention, error or rule, add a sentence to the prose around them too.';

describe('docs/api.md', () => {
  it('lists every route of the contract', () => {
    const missing = contractRoutes(contract)
      .map(({ route }) => `${route.method} ${route.path}`)
      .filter((call) => !doc.includes(`\`${call}\``));
    expect(missing, `docs/api.md does not document: ${missing.join(', ')}. ${HOW_TO_FIX}`).toEqual([]);
  });

  for (const [name, fresh] of Object.entries(generatedBlocks(contract))) {
    it(`has the "${name}" tables in step with the contract`, () => {
      const current = readBlock(doc, name);
      expect(current, `docs/api.md lost its <!-- generated:${name} --> markers. ${HOW_TO_FIX}`).toBeDefined();
      const ours = (current ?? '').split('\n');
      const line = fresh.split('\n').findIndex((text, i) => text !== ours[i]);
      const first =
        line < 0 ? '' : ` First difference: the contract gives "${fresh.split('\n')[line]}", docs/api.md has "${ours[line] ?? ''}".`;
      expect(current === fresh, `docs/api.md's generated "${name}" tables are stale. ${HOW_TO_FIX}${first}`).toBe(true);
    });
  }

  it('gives every route a summary for its table row', () => {
    const bare = contractRoutes(contract)
      .filter(({ route }) => !route.summary?.trim())
      .map(({ name }) => name);
    expect(bare, 'Give these contract routes a `summary` (it is the "What" column of docs/api.md and the OpenAPI summary)').toEqual([]);
  });
});
