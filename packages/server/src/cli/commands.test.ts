import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client';
import { staff } from '../db/schema';
import { verifyPassword } from '../lib/passwords';
import { createTestApp, createTestDatabase, type TestApp } from '../../test/harness';
import { COMMANDS } from './commands';
import { serverEntry, withMigratedDatabase } from '../../test/server-bundle';

const SERVER_CLI = await serverEntry('cli');

/**
 * `admin:create` never takes the password on the command line, where the process list and the
 * shell history would keep it: it reads it from standard input (piped) or a prompt that does not
 * echo (a terminal).
 */

const SERVER_DIR = join(__dirname, '..', '..');
const PASSWORD = 'correct horse battery staple';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const stdin = (text: string) => Object.assign(Readable.from([Buffer.from(text)]), { isTTY: false });
const adminNamed = async (db: TestApp['ctx']['database']['db'], email: string) =>
  (await db.select().from(staff).where(eq(staff.email, email)))[0];

describe('cli admin:create', () => {
  it('reads the password from standard input in a real process; the command line never holds it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kura-cli-'));
    await withMigratedDatabase(dataDir);
    const database = process.env.DATABASE_URL ? await createTestDatabase() : undefined;
    try {
      const env = {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: database?.url ?? '',
        BALLOT_KEY: randomBytes(32).toString('hex'),
        SESSION_SECRET: randomBytes(32).toString('hex'),
        SEED_DEMO: '0',
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
      };
      const args = [SERVER_CLI, 'admin:create', 'Piped.Admin@example.org', '--name', 'Piped', 'Admin'];
      const proc = spawn(process.execPath, args, { cwd: SERVER_DIR, env, stdio: ['pipe', 'pipe', 'pipe'] });
      let output = '';
      proc.stdout.on('data', (c: Buffer) => (output += c.toString()));
      proc.stderr.on('data', (c: Buffer) => (output += c.toString()));
      proc.stdin.end(`${PASSWORD}\n`);
      const code = await new Promise<number | null>((r) => proc.once('exit', r));
      expect(code, output).toBe(0);
      expect(output).toContain('Admin piped.admin@example.org is ready.');
      expect(output).not.toContain(PASSWORD);
      const db = database ?? (await openDatabase({ dataDir: join(dataDir, 'pglite') }));
      try {
        const admin = await adminNamed(db.db, 'piped.admin@example.org');
        expect(admin).toMatchObject({ role: 'admin', name: 'Piped Admin' });
        expect(await verifyPassword(PASSWORD, admin!.passwordHash!)).toBe(true);
        // A real process hashes at the product's cost, in the form every version reads (lib/passwords.ts).
        expect(admin!.passwordHash!.split('$')).toHaveLength(3);
      } finally {
        await db.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);

  it('refuses a password given as an argument, and a missing or short one, creating nobody', async () => {
    const run = COMMANDS['admin:create']!.run;
    const cases: [string[], string][] = [
      [['old.form@example.org', PASSWORD], PASSWORD],
      [['old.form@example.org', PASSWORD, 'Old', 'Form'], PASSWORD],
      [['old.form@example.org'], ''],
      [['old.form@example.org'], 'short\n'],
      [['old.form@example.org', '--name'], `${PASSWORD}\n`],
      [[], `${PASSWORD}\n`],
    ];
    for (const [args, input] of cases) {
      expect(await run(t.ctx, args, { stdin: stdin(input) }), args.join(' ')).toBe(2);
    }
    expect(await adminNamed(t.ctx.database.db, 'old.form@example.org')).toBeUndefined();
  });

  it('takes the first line of standard input as the password, and updates an existing admin', async () => {
    const run = COMMANDS['admin:create']!.run;
    expect(await run(t.ctx, ['second@example.org'], { stdin: stdin(`${PASSWORD}\r\nignored\n`) })).toBe(0);
    const first = await adminNamed(t.ctx.database.db, 'second@example.org');
    expect(first!.name).toBe('second');
    expect(await verifyPassword(PASSWORD, first!.passwordHash!)).toBe(true);
    expect(await run(t.ctx, ['second@example.org', '--name', 'Second', 'Admin'], { stdin: stdin('another long one') })).toBe(0);
    const updated = await adminNamed(t.ctx.database.db, 'second@example.org');
    expect(updated!.name).toBe('Second Admin');
    expect(await verifyPassword('another long one', updated!.passwordHash!)).toBe(true);
  });
});
