import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL } from './harness';
import { serverEntry, withMigratedDatabase } from './server-bundle';

const SERVER_MAIN = await serverEntry('main');

const dataDir = mkdtempSync(join(tmpdir(), 'kura-shutdown-'));
await withMigratedDatabase(dataDir);
let child: ChildProcess | undefined;
afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts the real server process (the bundle, test/server-bundle.ts) and resolves with its port. */
function startServer(): Promise<{ proc: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [SERVER_MAIN], {
      cwd: join(__dirname, '..'),
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SEED_DEMO: '0',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'development',
        ...(TEST_DATABASE_URL ? { DATABASE_URL: TEST_DATABASE_URL } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 110_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /running at http:\/\/localhost:(\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ proc, port: Number(match[1]) });
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`server exited early (${code}):\n${out}`)));
  });
}

describe('graceful shutdown', () => {
  // Starting a real process (PGlite, the migrations) is slow on a loaded 2-core machine.
  it('lets an in-flight request finish after SIGTERM, then exits 0', { timeout: 120_000 }, async () => {
    const started = await startServer();
    child = started.proc;
    const exited = new Promise<number | null>((resolve) => started.proc.once('exit', (code) => resolve(code)));

    // A request whose body is still arriving is in flight: send half, signal, then send the rest.
    const socket = connect(started.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const body = JSON.stringify({ unique_id: 'abc!', consent: true });
    socket.write(
      `POST /api/v1/verify/phone HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    socket.write(body.slice(0, 5));
    let response = '';
    socket.on('data', (c) => (response += c.toString()));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));

    await new Promise((r) => setTimeout(r, 200));
    started.proc.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    socket.write(body.slice(5));
    await closed;

    // The request was answered (validation error for this identifier), not cut off.
    expect(response).toMatch(/^HTTP\/1\.1 422/);
    expect(response).toContain('Should only contain digits');
    expect(await exited).toBe(0);
  });
});
