/**
 * Rewrites the generated tables of docs/api.md from the contract (`pnpm docs:api` at the repo
 * root). The prose around the tables is written by hand and left as it is.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generatedBlocks, spliceBlocks } from '../src/api-doc';
import { contract } from '../src/index';

const file = fileURLToPath(new URL('../../../docs/api.md', import.meta.url));
const before = readFileSync(file, 'utf8');
const after = spliceBlocks(before, generatedBlocks(contract));
if (after === before) console.log('docs/api.md is up to date');
else {
  writeFileSync(file, after);
  console.log('docs/api.md: generated tables rewritten from the contract');
}
