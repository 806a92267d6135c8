import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * The embedded database: PGlite behind a Postgres wire-protocol socket on 127.0.0.1, so the
 * server talks to it with the same `postgres` driver, Drizzle schema and migrations as a real
 * Postgres. In `worker` mode PGlite's WebAssembly runs on its own thread and never blocks the
 * HTTP event loop; `inline` mode (tests) keeps it on the calling thread.
 */
export type PgliteHost = {
  url: string;
  close(): Promise<void>;
  /** The data directory as a tarball (inline mode), for another instance to start from. */
  dumpDataDir?(): Promise<Blob>;
};

/** PGlite runs one query at a time; more socket connections only add interleaving risk. */
const MAX_CONNECTIONS = 4;

/**
 * An in-memory instance (no data directory: only the tests make one) starts with 16 MB of shared
 * buffers, not Postgres' 128 MB: a test's database is small, and the larger pool cost some 0.45 s
 * of CPU at every start (measured: 1.12 → 0.67 s per instance), which the server suite pays once
 * per file. An instance on disk (the product) keeps the default.
 */
const IN_MEMORY_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * `from` starts an in-memory instance as a copy of another's data directory (a `dumpDataDir()`
 * tarball) instead of an empty one: no initdb, and whatever the copy holds (tests: the migrations).
 */
export async function startPgliteInline(dataDir?: string, from?: Blob): Promise<PgliteHost> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir ? { dataDir } : { startParams: IN_MEMORY_START_PARAMS, ...(from ? { loadDataDir: from } : {}) });
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: MAX_CONNECTIONS });
  await server.start();
  const conn = server.getServerConn();
  return {
    url: `postgres://postgres@${conn}/postgres`,
    async close() {
      await server.stop();
      await db.close();
    },
    dumpDataDir: () => db.dumpDataDir('none'),
  };
}

function createWorker(dataDir: string): Worker {
  const here = dirname(fileURLToPath(import.meta.url));
  // The bundle ships a compiled worker beside main.js; from source, tsx compiles it on the fly.
  const built = join(here, 'pglite-worker.js');
  if (existsSync(built)) return new Worker(built, { workerData: { dataDir } });
  const source = pathToFileURL(join(here, 'pglite-worker.ts')).href;
  return new Worker(`import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(source)}, ${JSON.stringify(source)}))`, {
    eval: true,
    workerData: { dataDir },
  });
}

export async function startPgliteWorker(dataDir: string): Promise<PgliteHost> {
  await mkdir(dataDir, { recursive: true });
  const worker = createWorker(dataDir);
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('message', (m: { url?: string; error?: string }) =>
      m.url ? resolve(m.url) : reject(new Error(m.error ?? 'PGlite worker failed')),
    );
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`PGlite worker exited with code ${code}`)));
  });
  return {
    url,
    async close() {
      const done = new Promise<void>((resolve) => {
        worker.once('message', () => resolve());
        worker.once('exit', () => resolve());
      });
      worker.postMessage('close');
      await done;
      await worker.terminate();
    },
  };
}
