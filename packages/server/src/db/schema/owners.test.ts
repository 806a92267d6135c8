import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MODULES, TABLE_OWNERS, type ModuleName, type TableName } from './owners';

/**
 * No module imports another's tables (docs/architecture.md "Module map", `owners.ts`): a server
 * module's files (tests aside) import from `db/schema` only the tables their module owns, and reach
 * the others through the table's store or the owner's index.ts. Pure: reads the source, no database.
 */

const MODULES_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../modules');

/**
 * The imports of another module's tables not moved yet, per file (path under src/modules): each
 * with the reason it is still there. The debt this list shows only shrinks: an entry whose import
 * is gone fails the test until it is removed, and a new import of a table owned elsewhere fails
 * unless it is listed here.
 */
const NOT_MOVED_YET: Record<string, { tables: TableName[]; reason: string }> = {
  'elections/audit.ts': {
    tables: ['ballotQueue', 'candidacies', 'motionOptions', 'participation', 'positions'],
    reason: 'the audit at close counts the box against the roll and the candidates; no store for the ballot box yet',
  },
  'elections/commitments.ts': {
    tables: ['ballots'],
    reason: "a commitment hashes the ballot set (db/ballot-box.ts holds the rest of the box's SQL)",
  },
  'elections/evidence.ts': {
    tables: ['activityLogs', 'ballots', 'candidacies', 'members', 'positions'],
    reason: 'the evidence pack reads the box, the candidates and the log as they are; no ballot-box or log store yet',
  },
  'elections/final-count.ts': {
    tables: ['ballots', 'candidacies', 'members', 'positions'],
    reason: 'the count at close reads the box and the candidates; no ballot-box store yet',
  },
  'elections/tally.ts': {
    tables: ['ballotQueue', 'ballots', 'candidacies', 'members', 'motionOptions', 'participation', 'positions'],
    reason: "the tally's resync reads the box and the ballot's layout in a few statements; no ballot-box store yet",
  },
};

/** `import { a, type b, c as d } from '…/db/schema'` (or one of its files, but `functions`): the names imported. */
function schemaImports(source: string): { names: string[]; namespace: boolean } {
  const names: string[] = [];
  let namespace = false;
  const pattern = /import\s+(type\s+)?([^'";]*?)\s+from\s+'((?:\.\.\/)+db\/schema(?:\/[a-z-]+)?)'/g;
  for (const m of source.matchAll(pattern)) {
    const specifier = m[3]!;
    if (specifier.endsWith('/functions')) continue;
    const clause = m[2]!.trim();
    const braces = /^\{([^}]*)\}$/.exec(clause);
    if (!braces) {
      namespace = true;
      continue;
    }
    for (const part of braces[1]!.split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]!
        .trim();
      if (name) names.push(name);
    }
  }
  return { names, namespace };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}

/** Per module file: the tables of another module it imports. */
function foreignImports(): Map<string, { module: ModuleName; tables: TableName[] }> {
  const out = new Map<string, { module: ModuleName; tables: TableName[] }>();
  for (const file of sourceFiles(MODULES_DIR)) {
    const path = relative(MODULES_DIR, file).split('\\').join('/');
    const module = path.split('/')[0] as ModuleName;
    if (!path.includes('/')) continue; // modules/index.ts: the routes of every module, no table
    const { names, namespace } = schemaImports(readFileSync(file, 'utf8'));
    expect(namespace, `${path} imports the schema as a whole: import the tables by name`).toBe(false);
    const tables = names.filter((n): n is TableName => n in TABLE_OWNERS && TABLE_OWNERS[n as TableName] !== module) as TableName[];
    if (tables.length > 0) out.set(path, { module, tables: tables.sort() });
  }
  return out;
}

describe('table owners', () => {
  it('names a module of src/modules as the owner of every table', () => {
    const folders = readdirSync(MODULES_DIR, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect([...MODULES].sort()).toEqual(folders.sort());
  });

  it('reads the imports it checks', () => {
    expect(
      schemaImports(
        "import { members, type staff, positions as p } from '../../db/schema';\nimport type {\n  ballots,\n} from '../../db/schema/voting';\nimport { CastVoteOutcome } from '../../db/schema/functions';",
      ),
    ).toEqual({ names: ['members', 'staff', 'positions', 'ballots'], namespace: false });
    expect(schemaImports("import * as schema from '../../db/schema';").namespace).toBe(true);
  });

  it('no module file imports a table another module owns, beyond the listed debt', () => {
    const found = foreignImports();
    const unlisted = [...found]
      .map(([path, { module, tables }]) => ({
        path,
        tables: tables
          .filter((t) => !NOT_MOVED_YET[path]?.tables.includes(t))
          .map((t) => `${t} (owned by ${TABLE_OWNERS[t]}, not ${module})`),
      }))
      .filter((f) => f.tables.length > 0);
    expect(unlisted, 'reach these through their store or their owner’s index.ts (db/schema/owners.ts)').toEqual([]);
  });

  it('lists no debt that is paid: every allow-listed import is still there', () => {
    const found = foreignImports();
    const paid = Object.entries(NOT_MOVED_YET)
      .map(([path, { tables }]) => ({ path, tables: tables.filter((t) => !found.get(path)?.tables.includes(t)) }))
      .filter((f) => f.tables.length > 0);
    expect(paid, 'remove these from NOT_MOVED_YET in owners.test.ts').toEqual([]);
  });
});
