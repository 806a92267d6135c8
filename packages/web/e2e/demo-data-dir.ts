/// <reference types="node" />
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServer } from './harness';
import { createDatabase, dropDatabase, e2ePostgresHost, newDatabaseName } from './postgres';

/** The seeded demo: a data directory, and its PostgreSQL database when seeded on one (e2e/postgres.ts). */
export type SeededDemo = { dataDir: string; database?: string };

/**
 * Seeds the demo once, with the real server started the way every e2e file starts it, and stops
 * it cleanly: the returned data directory (and database, with `E2E_PGHOST`) is what each file's
 * server starts from (a copy). The caller removes both (`removeDemo`).
 */
export async function seedDemo(): Promise<SeededDemo> {
  const database = e2ePostgresHost() ? newDatabaseName('demo') : undefined;
  if (database) await createDatabase(database);
  try {
    // The SMS webhook is never called while seeding; the server only needs a URL for it.
    const server = await startServer('http://127.0.0.1:9/sms', {}, { dataDirFrom: false, keepDataDir: true, database });
    const dataDir = server.dataDir;
    try {
      const seeded = server.logLines.some((line) => line.includes('Demo election seeded'));
      await server.stop();
      if (!seeded) throw new Error(`the server did not seed the demo:\n${server.logLines.slice(-30).join('\n')}`);
      return { dataDir, database };
    } catch (error) {
      rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
  } catch (error) {
    if (database) await dropDatabase(database).catch(() => undefined);
    throw error;
  }
}

export async function removeDemo(demo: SeededDemo): Promise<void> {
  rmSync(demo.dataDir, { recursive: true, force: true });
  if (demo.database) await dropDatabase(demo.database);
}

/** What `tsx e2e/demo-data-dir.ts OUT` wrote: the seeded demo, as JSON. */
export function readSeededDemo(file: string): SeededDemo {
  return JSON.parse(readFileSync(file, 'utf8')) as SeededDemo;
}

// `tsx e2e/demo-data-dir.ts OUT`: seeds ahead of the run and writes where (as JSON) to OUT, which
// the run then takes from E2E_DEMO_DATA_DIR_FILE (.ci/run does this beside the reliability suite).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2];
  if (!out) throw new Error('usage: tsx e2e/demo-data-dir.ts OUT_FILE');
  writeFileSync(out, JSON.stringify(await seedDemo()));
}
