import { PGlite } from '@electric-sql/pglite';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { bundleServer } from '../bundle.mjs';
import { TemplateBlob } from './template-database';

/**
 * The server as a test starts it in a real process (its own pid, signals, standard input, a
 * crash): the bundle `pnpm build` ships (bundle.mjs, the same options), built from the source
 * under test once per test process, into node_modules/.cache/ so that its npm imports resolve.
 * Starting the source through tsx instead compiled the whole server again at every start (tens
 * of seconds each on a loaded 2-core machine); a stale dist/ is never run.
 */
const CACHE = join(import.meta.dirname, '..', 'node_modules', '.cache', 'kura-test-server');
let built: Promise<string> | undefined;

/** The path of the bundle's entry point (`main`: the server, `cli`: the operator commands). */
export async function serverEntry(entry: 'main' | 'cli'): Promise<string> {
  built ??= build();
  return join(await built, `${entry}.js`);
}

async function build(): Promise<string> {
  mkdirSync(CACHE, { recursive: true });
  // Bundles of test processes that are gone (killed before they could remove theirs).
  for (const name of readdirSync(CACHE)) if (!alive(Number(name))) rmSync(join(CACHE, name), { recursive: true, force: true });
  const dir = join(CACHE, String(process.pid));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  await bundleServer(dir);
  return dir;
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Puts the run's migrated embedded database (the template test/template-database.ts made) in
 * `dataDir` where the server and the operator commands keep theirs (DATA_DIR/pglite), so a process
 * started on it opens a database instead of migrating one from nothing (about 20 s on a loaded
 * machine). Where the run has no such template (a suite on Postgres), the process migrates as on
 * a fresh install. Starting from an empty DATA_DIR is what the browser suite's first hour and the
 * Docker test do.
 */
export async function withMigratedDatabase(dataDir: string): Promise<void> {
  const template = inject('pgliteTemplatePath');
  if (!template) return;
  const db = await PGlite.create({ dataDir: join(dataDir, 'pglite'), loadDataDir: new TemplateBlob(readFileSync(template)) });
  await db.close();
}
