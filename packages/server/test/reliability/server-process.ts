import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppContext } from '../../src/context';
import { createSession } from '../../src/auth/sessions';
import { parseEnv } from '../../src/env';
import { createCandidate, createPosition, createStaff } from '../factories';
import { createTestDatabase, type TestDatabase } from '../harness';
import { serverEntry } from '../server-bundle';

const SERVER_MAIN = await serverEntry('main');
const SERVER_CLI = await serverEntry('cli');

/**
 * The real server as a child process (the bundle of test/server-bundle.ts, as test/shutdown.test.ts),
 * on a database of its own, with fixed keys so a restart reads what the killed process wrote.
 */

const SERVER_DIR = join(__dirname, '..', '..');

export type ServerProcess = { proc: ChildProcess; port: number; output: () => string; exited: Promise<number | null> };

export type Deployment = {
  db: TestDatabase;
  /** A context over the same database for seeding and inspection (no HTTP, no mixer). */
  ctx: AppContext;
  dataDir: string;
  env: Record<string, string>;
  start(extra?: Record<string, string>): Promise<ServerProcess>;
  /** Runs `cli <command>` against the deployment; answers the exit code and output. */
  cli(...args: string[]): Promise<{ code: number | null; output: string }>;
  close(): Promise<void>;
};

export async function createDeployment(extraEnv: Record<string, string> = {}): Promise<Deployment> {
  const db = await createTestDatabase();
  if (!db.url) throw new Error('createDeployment needs DATABASE_URL (a real Postgres)');
  const dataDir = mkdtempSync(join(tmpdir(), 'kura-reliability-'));
  const env: Record<string, string> = {
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    BALLOT_KEY: randomBytes(32).toString('hex'),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: '0',
    ...extraEnv,
  };
  const parsed = parseEnv({ ...env, NODE_ENV: 'test' });
  const ctx = { database: db, env: parsed, now: () => new Date() } as unknown as AppContext;
  const procs: ChildProcess[] = [];
  return {
    db,
    ctx,
    dataDir,
    env,
    start(extra = {}) {
      return new Promise((resolve, reject) => {
        const proc = spawn(process.execPath, [SERVER_MAIN], {
          cwd: SERVER_DIR,
          env: { ...process.env, ...env, ...extra },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        procs.push(proc);
        let out = '';
        const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
        // RELIABILITY_SERVER_LOGS=<dir> keeps each server's output for a post-mortem.
        if (process.env.RELIABILITY_SERVER_LOGS) {
          void exited.then(() => writeFileSync(join(process.env.RELIABILITY_SERVER_LOGS!, `server-${proc.pid}.log`), out));
        }
        const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 90_000);
        const onData = (chunk: Buffer) => {
          out += chunk.toString();
          const match = /running at http:\/\/localhost:(\d+)/.exec(out);
          if (match) {
            clearTimeout(timer);
            resolve({ proc, port: Number(match[1]), output: () => out, exited });
          }
        };
        proc.stdout!.on('data', onData);
        proc.stderr!.on('data', onData);
        void exited.then((code) => {
          clearTimeout(timer);
          reject(new Error(`server exited early (${code}):\n${out}`));
        });
      });
    },
    cli(...args) {
      return new Promise((resolve) => {
        const proc = spawn(process.execPath, [SERVER_CLI, ...args], {
          cwd: SERVER_DIR,
          env: { ...process.env, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        proc.stdout.on('data', (c: Buffer) => (output += c.toString()));
        proc.stderr.on('data', (c: Buffer) => (output += c.toString()));
        proc.once('exit', (code) => resolve({ code, output }));
      });
    },
    async close() {
      for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function staffToken(ctx: AppContext, role: 'admin' | 'agent'): Promise<string> {
  const staff = await createStaff(ctx, { role });
  return (await createSession(ctx, { role, subjectId: staff.id })).token;
}

/**
 * A small election written straight into a deployment's database (the server process, not this
 * one, runs the voting runtime): two national positions and a Nairobi one, with candidates.
 */
export async function seedElection(ctx: AppContext) {
  const tag = () => Math.random().toString(36).slice(2, 7);
  const chair = await createPosition(ctx, { name: `Chair ${tag()}` });
  const treasurer = await createPosition(ctx, { name: `Treasurer ${tag()}` });
  const nairobi = await createPosition(ctx, { name: `Branch Rep ${tag()}`, level: 'Nairobi' });
  const alice = await createCandidate(ctx, [chair.id], { name: 'Alice Achieng' });
  const brian = await createCandidate(ctx, [chair.id], { name: 'Brian Barasa' });
  const carol = await createCandidate(ctx, [treasurer.id], { name: 'Carol Chebet' });
  const dan = await createCandidate(ctx, [treasurer.id], { name: 'Dan Ding' });
  const erin = await createCandidate(ctx, [nairobi.id], { name: 'Erin Njeri', branch: 'Nairobi' });
  return { chair, treasurer, nairobi, alice, brian, carol, dan, erin };
}
export type SeededElection = Awaited<ReturnType<typeof seedElection>>;
