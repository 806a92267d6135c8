import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getTableName, type Table } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from './index';
import { MODULES, TABLE_OWNERS, type ModuleName, type TableName } from './owners';

/**
 * No module imports another's tables (docs/architecture.md "Module map", `owners.ts`): a server
 * module's files (tests aside) import from `db/schema` only the tables their module owns, and reach
 * the others through the table's store or the owner's index.ts; nor do they name one in raw SQL.
 * Pure: reads the source, no database.
 */

const MODULES_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../modules');

/** The SQL name of each table (`motion_options`) and its name in the schema (`motionOptions`). */
const TABLE_BY_SQL_NAME = new Map(
  (Object.keys(TABLE_OWNERS) as TableName[]).map((name) => [getTableName(schema[name] as Table), name] as const),
);

/** The index past the string literal (quote at `i`). */
function skipString(source: string, i: number): number {
  const quote = source[i];
  for (i++; i < source.length && source[i] !== quote; i++) if (source[i] === '\\') i++;
  return i + 1;
}

/** The index past a `${…}` expression whose text starts at `i`: nested braces, strings and templates skipped. */
function skipExpression(source: string, i: number): number {
  let depth = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === "'" || c === '"') {
      i = skipString(source, i);
      continue;
    }
    if (c === '`') {
      i = templateText(source, i + 1).end;
      continue;
    }
    if (c === '{') depth++;
    if (c === '}' && depth-- === 0) return i + 1;
    i++;
  }
  return i;
}

/** A template literal's text from `i` (past its opening backtick), each `${…}` a space, and the index past its closing backtick. */
function templateText(source: string, i: number): { text: string; end: number } {
  let text = '';
  while (i < source.length && source[i] !== '`') {
    if (source[i] === '\\') {
      text += source.slice(i, i + 2);
      i += 2;
    } else if (source.startsWith('${', i)) {
      i = skipExpression(source, i + 2);
      text += ' ';
    } else text += source[i++];
  }
  return { text, end: i + 1 };
}

/** The tables the `sql` templates of a source name after FROM, JOIN, INTO, UPDATE or TABLE. */
function rawSqlTables(source: string): Set<TableName> {
  const found = new Set<TableName>();
  for (const m of source.matchAll(/\bsql(?:<[^`]*?>)?(?:\.raw\()?`/g)) {
    const { text } = templateText(source, m.index + m[0].length);
    for (const ref of text.matchAll(/(?=\b(?:from|join|into|update|table)\s+(?:only\s+)?"?([a-z_]+)\b)/gi)) {
      const table = TABLE_BY_SQL_NAME.get(ref[1]!.toLowerCase());
      if (table) found.add(table);
    }
  }
  return found;
}

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

/** Per module file: the tables of another module its raw SQL names. */
function foreignRawSql(): Map<string, { module: ModuleName; tables: TableName[] }> {
  const out = new Map<string, { module: ModuleName; tables: TableName[] }>();
  for (const file of sourceFiles(MODULES_DIR)) {
    const path = relative(MODULES_DIR, file).split('\\').join('/');
    const module = path.split('/')[0] as ModuleName;
    const tables = [...rawSqlTables(readFileSync(file, 'utf8'))].filter((t) => TABLE_OWNERS[t] !== module);
    if (tables.length > 0) out.set(path, { module, tables: tables.sort() });
  }
  return out;
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

  it('no module file imports a table another module owns', () => {
    const found = [...foreignImports()].map(([path, { module, tables }]) => ({
      path,
      tables: tables.map((t) => `${t} (owned by ${TABLE_OWNERS[t]}, not ${module})`),
    }));
    expect(found, 'reach these through their store or their owner’s index.ts (db/schema/owners.ts)').toEqual([]);
  });

  it('reads the tables a raw SQL template names', () => {
    const source = [
      'await tx.execute(sql`select m.name from members m join positions p on p.id = ${id}`);',
      'const x = sql<{ n: number; m: string }[]>`insert into ${table} (a) select 1 from unnest(${sql`${1}`}) left join motion_options o on true`;',
      "const y = sql`update ballot_queue set a = ${fn('from staff')}`; const words = `select 1 from sessions`;",
    ].join('\n');
    expect([...rawSqlTables(source)].sort()).toEqual(['ballotQueue', 'members', 'motionOptions', 'positions']);
  });

  it('no module file names a table another module owns in raw SQL', () => {
    // The import check does not see a table named in a string: the text of every `sql` template
    // (drizzle's and postgres.js's) is read too. Such SQL goes into the table's store, as a
    // function or a fragment the module's statement embeds (db/schema/owners.ts).
    const found = [...foreignRawSql()].map(([path, { module, tables }]) => ({
      path,
      tables: tables.map((t) => `${t} (owned by ${TABLE_OWNERS[t]}, not ${module})`),
    }));
    expect(found, 'move this SQL into the table’s store (db/schema/owners.ts)').toEqual([]);
  });
});
