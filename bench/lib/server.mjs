// Starts and stops the BUILT server (packages/server/dist/main.js) as a child process, with the
// event-loop-delay probe preloaded and, when BENCH_PROFILE=1, a V8 CPU profile per run.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, sleep } from './util.mjs';

const MAIN = join(ROOT, 'packages/server/dist/main.js');
const PRELOAD = pathToFileURL(join(ROOT, 'bench/lib/eld-preload.mjs')).href;
export const PROFILE_DIR = join(ROOT, 'bench/.profiles');

/**
 * @param {{ env: Record<string,string>, label: string, profile?: boolean }} options
 * @returns {Promise<{ url: string, port: number, pid: number, eldReset(): Promise<void>, eldRead(): Promise<any>, stop(): Promise<void>, log: () => string }>}
 */
export async function startServer({ env, label, profile = false }) {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run pnpm build first`);
  const execArgv = ['--import', PRELOAD];
  if (profile) {
    // One folder per server run; V8 writes one profile per thread (main, PGlite worker).
    const dir = join(PROFILE_DIR, `${label}-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
    execArgv.push('--cpu-prof', '--cpu-prof-dir', dir);
  }
  const child = fork(MAIN, [], {
    cwd: ROOT,
    execArgv,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  const keep = (chunk) => {
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = false;
  const exit = new Promise((resolve) => child.once('exit', (code, signal) => ((exited = true), resolve({ code, signal }))));

  const deadline = Date.now() + 90_000;
  let port;
  while (!port) {
    const match = /running at http:\/\/localhost:(\d+)/.exec(output);
    if (match) port = Number(match[1]);
    else if (exited) throw new Error(`server (${label}) exited during start:\n${output.slice(-3000)}`);
    else if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server (${label}) did not start in 90 s:\n${output.slice(-3000)}`);
    } else await sleep(50);
  }
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    const res = await fetch(`${url}/readyz`).catch(() => undefined);
    if (res?.ok) break;
    if (Date.now() > deadline) throw new Error(`server (${label}) not ready: ${res?.status}`);
    await sleep(100);
  }

  let seq = 0;
  const ask = (kind) =>
    new Promise((resolve, reject) => {
      const id = ++seq;
      const timer = setTimeout(() => reject(new Error('event-loop probe did not answer')), 5000);
      const onMessage = (m) => {
        if (m?.eld === kind && m.id === id) {
          clearTimeout(timer);
          child.off('message', onMessage);
          resolve(m);
        }
      };
      child.on('message', onMessage);
      child.send({ eld: kind, id });
    });

  return {
    url,
    port,
    pid: child.pid,
    log: () => output,
    async eldReset() {
      await ask('reset');
    },
    async eldRead() {
      return ask('read');
    },
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const result = await Promise.race([exit, sleep(25_000).then(() => 'timeout')]);
      if (result === 'timeout') {
        child.kill('SIGKILL');
        await exit;
      }
    },
  };
}

/** The built server's environment under the bench: production settings, no mail, lifted per-IP ceilings, then `extra`. */
export function serverEnv(extra) {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    SEED_DEMO: '0',
    BALLOT_KEY: randomBytes(32).toString('hex'),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    // Production refuses to start without SMTP; no email is sent in this bench.
    SMTP_URL: 'smtp://127.0.0.1:9',
    SMS_PROVIDER: 'webhook',
    // One client address sends every sign-in here: lift the per-IP ceilings (configurable by design).
    RATE_LIMIT_IP_SENDS_PER_HOUR: '1000000',
    RATE_LIMIT_IP_TRIES_PER_HOUR: '1000000',
    // Extra server settings for experiments, e.g. BENCH_SERVER_ENV="DATABASE_POOL_MAX=32,LOG_LEVEL=info".
    ...Object.fromEntries(
      (process.env.BENCH_SERVER_ENV ?? '')
        .split(',')
        .filter((kv) => kv.includes('='))
        .map((kv) => [kv.slice(0, kv.indexOf('=')).trim(), kv.slice(kv.indexOf('=') + 1)]),
    ),
    ...extra,
  };
}
