import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { DataDirBusyError, lockDataDir, LOCK_STALE_MS } from './data-dir-lock';
import { staff } from './schema';
import { serverEntry, withMigratedDatabase } from '../../test/server-bundle';

const SERVER_MAIN = await serverEntry('main');
const SERVER_CLI = await serverEntry('cli');

/**
 * The embedded database is opened by one process at a time (docs/operations.md "Operator
 * commands"): an operator command run while the server holds DATA_DIR once wrote beside it and
 * left two `staff` rows with id 1. Real processes: the server (src/main.ts) and the CLI (src/cli.ts)
 * as bundled (test/server-bundle.ts), on PGlite whatever the suite's database.
 */

const SERVER_DIR = join(__dirname, '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'kura-lock-'));
await withMigratedDatabase(dataDir);
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const env = {
  ...process.env,
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  BALLOT_KEY: randomBytes(32).toString('hex'),
  SESSION_SECRET: randomBytes(32).toString('hex'),
  SEED_DEMO: '0',
  NODE_ENV: 'development',
  LOG_LEVEL: 'warn',
  PORT: '0',
  HOST: '127.0.0.1',
};

/** The real server on `dataDir`, resolved once it listens. */
function startServer(): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [SERVER_MAIN], { cwd: SERVER_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(proc);
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 110_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (/running at http:\/\/localhost:\d+/.test(out)) {
        clearTimeout(timer);
        resolve(proc);
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`server exited early (${code}):\n${out}`)));
  });
}

/** `pnpm cli agent:create <email>` in its own process: exit code and everything it printed. */
async function cli(...args: string[]): Promise<{ code: number | null; output: string }> {
  const proc = spawn(process.execPath, [SERVER_CLI, ...args], {
    cwd: SERVER_DIR,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(proc);
  let output = '';
  proc.stdout.on('data', (c: Buffer) => (output += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (output += c.toString()));
  proc.stdin.end();
  const code = await new Promise<number | null>((r) => proc.once('exit', r));
  return { code, output };
}

/** A setting of the database on disk, as the product runs it (read with the folder to ourselves). */
async function settingOnDisk(name: 'shared_buffers'): Promise<string> {
  const database = await openDatabase({ dataDir: join(dataDir, 'pglite'), dataDirLock: { holder: 'the test' } });
  try {
    const [row] = await database.sql.unsafe<Record<string, string>[]>(`show ${name}`);
    return row![name]!;
  } finally {
    await database.close();
  }
}

const stopped = (proc: ChildProcess) =>
  new Promise<void>((resolve) => (proc.exitCode !== null ? resolve() : proc.once('exit', () => resolve())));

/** The staff rows, read with the folder to ourselves (the lock taken as the CLI takes it). */
async function staffRows(): Promise<{ id: number; email: string }[]> {
  const database = await openDatabase({ dataDir: join(dataDir, 'pglite'), dataDirLock: { holder: 'the test' } });
  try {
    return await database.db.select({ id: staff.id, email: staff.email }).from(staff).orderBy(staff.id);
  } finally {
    await database.close();
  }
}

describe('one process at a time on DATA_DIR', () => {
  it('refuses an operator command while the server runs, changes nothing, and works once it stops', { timeout: 300_000 }, async () => {
    let server = await startServer();
    const refused = await cli('agent:create', 'observer@example.org');
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toMatch(/The server \(process \d+ on .+\) is running on this data directory .*: stop it first, or /);
    expect(refused.output).toContain('DATABASE_URL');
    expect(refused.output).not.toContain('is ready');
    server.kill('SIGTERM');
    await stopped(server);
    expect(await staffRows()).toEqual([]);
    // The product's database on disk keeps Postgres' shared buffers (only the tests' in-memory ones are smaller).
    expect(await settingOnDisk('shared_buffers')).toBe('128MB');

    const done = await cli('agent:create', 'observer@example.org');
    expect(done.code, done.output).toBe(0);
    expect(done.output).toContain('Agent observer@example.org is ready.');
    expect(await staffRows()).toEqual([{ id: 1, email: 'observer@example.org' }]);

    // A server killed outright leaves its lock behind: the next command takes it at once (its process is gone).
    server = await startServer();
    server.kill('SIGKILL');
    await stopped(server);
    const started = Date.now();
    const after = await cli('agent:create', 'second@example.org');
    expect(after.code, after.output).toBe(0);
    expect(Date.now() - started).toBeLessThan(LOCK_STALE_MS);
    expect((await staffRows()).map((r) => r.email)).toEqual(['observer@example.org', 'second@example.org']);
  });
});

describe('lockDataDir', () => {
  it('refuses a second holder in the same process, and takes the folder once released', async () => {
    const dir = join(dataDir, 'same-process');
    const first = await lockDataDir(dir, { holder: 'the first' });
    await expect(lockDataDir(dir, { holder: 'the second' })).rejects.toThrow(DataDirBusyError);
    await expect(lockDataDir(dir, { holder: 'the second' })).rejects.toThrow(/^The first \(process \d+/);
    await first.release();
    await (await lockDataDir(dir, { holder: 'the second' })).release();
  });

  it('keeps a fresh lock of a process it cannot see (another host), and takes one left unrefreshed past the stale time', async () => {
    const dir = join(dataDir, 'other-host');
    mkdirSync(`${dir}.lock`, { recursive: true });
    const holder = { pid: 1, host: `not-${hostname()}`, holder: 'the server', processStartedAt: 0, lockedAt: new Date().toISOString() };
    writeFileSync(join(`${dir}.lock`, 'holder.json'), JSON.stringify(holder));
    await expect(lockDataDir(dir, { holder: 'the command' })).rejects.toThrow(/^The server \(process 1 on not-/);
    const old = new Date(Date.now() - LOCK_STALE_MS - 5_000);
    utimesSync(`${dir}.lock`, old, old);
    await (await lockDataDir(dir, { holder: 'the command' })).release();
  });

  it('takes at once a lock whose holder on this host has exited', async () => {
    const dir = join(dataDir, 'dead-holder');
    const gone = spawn(process.execPath, ['-e', '0']);
    const pid = gone.pid!;
    await stopped(gone);
    mkdirSync(`${dir}.lock`, { recursive: true });
    const holder = { pid, host: hostname(), holder: 'the server', processStartedAt: 0, lockedAt: new Date().toISOString() };
    writeFileSync(join(`${dir}.lock`, 'holder.json'), JSON.stringify(holder));
    await (await lockDataDir(dir, { holder: 'the command' })).release();
  });
});
