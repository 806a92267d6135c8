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
  'auth/authenticator.service.ts': {
    tables: ['members'],
    reason: "the authenticator's steps and the PIN on the member row: its conditional updates are not in the member store yet",
  },
  'auth/code-sign-in.service.ts': {
    tables: ['members', 'staff'],
    reason: "reads the signed-in member's or staff member's row; not in the member store yet, and the staff module has no store",
  },
  'auth/google-sign-in.service.ts': {
    tables: ['members', 'staff'],
    reason: 'links a Google account to the member or staff row; not in the member store yet, and the staff module has no store',
  },
  'auth/session.service.ts': {
    tables: ['members', 'staff'],
    reason: "a session's holder read back for /me; not in the member store yet, and the staff module has no store",
  },
  'auth/sign-in-support.ts': {
    tables: ['members', 'staff'],
    reason:
      'the account lookups of every sign-in (identifier, phone, e-mail) and the verified stamp; not in the member store yet, the staff module has no store',
  },
  'auth/sign-up.service.ts': {
    tables: ['members'],
    reason: 'sign-up finds the member and links their Google account; not in the member store yet',
  },
  'ballots/ballots.service.ts': {
    tables: ['candidacies', 'members', 'motionOptions', 'positions'],
    reason: "the ballot's positions, options and candidates in one read; not moved into the position and candidacy stores yet",
  },
  'declaration/audit.ts': {
    tables: ['ballotQueue', 'candidacies', 'commitments', 'motionOptions', 'participation', 'positions'],
    reason:
      "the audit at close counts the box against the roll and the candidates, and reads the commitments (the results module's); no store for the ballot box or the commitments yet",
  },
  'declaration/evidence.ts': {
    tables: ['activityLogs', 'ballots', 'candidacies', 'commitments', 'members', 'positions'],
    reason:
      "the evidence pack reads the box, the candidates, the log and the commitments (the results module's) as they are; no ballot-box, log or commitment store yet",
  },
  'results/final-count.ts': {
    tables: ['ballots', 'candidacies', 'members', 'positions'],
    reason: 'the count at close reads the box and the candidates; no ballot-box store yet',
  },
  'results/tally.ts': {
    tables: ['ballotQueue', 'ballots', 'candidacies', 'members', 'motionOptions', 'participation', 'positions'],
    reason: "the tally's resync reads the box and the ballot's layout in a few statements; no ballot-box store yet",
  },
  'register/attributes.ts': {
    tables: ['election', 'organisation', 'positions'],
    reason: 'the attribute definitions live on the organisation row, and elected_in and the rules name elections and positions',
  },
  'register/register.service.ts': {
    tables: ['branches', 'election', 'members'],
    reason: "claims and the roll's inspection read members and branches; not moved into the member store yet",
  },
  'register/roll.ts': {
    tables: ['election', 'members', 'positions'],
    reason: 'the roll under rules is one statement over members and positions; not moved into the stores yet',
  },
  'ussd/ussd.service.ts': {
    tables: ['election', 'members', 'otpChallenges', 'participation'],
    reason: 'the USSD menu reads the voter, the election, their codes and their votes; not moved into the stores yet',
  },
  'vvpat/vvpat.service.ts': {
    tables: ['election', 'members', 'motionOptions', 'participation', 'positions'],
    reason: "the receipts lists join the box's rows with positions and options; no ballot-box store yet",
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
