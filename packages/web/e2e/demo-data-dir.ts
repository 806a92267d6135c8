/// <reference types="node" />
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServer } from './harness';

/**
 * Seeds the demo once, with the real server started the way every e2e file starts it, and stops
 * it cleanly: the returned data directory is what each file's server starts from (a copy). The
 * caller removes it.
 */
export async function seedDemoDataDir(): Promise<string> {
  // The SMS webhook is never called while seeding; the server only needs a URL for it.
  const server = await startServer('http://127.0.0.1:9/sms', {}, { dataDirFrom: false, keepDataDir: true });
  const dataDir = server.dataDir;
  try {
    const seeded = server.logLines.some((line) => line.includes('Demo election seeded'));
    await server.stop();
    if (!seeded) throw new Error(`the server did not seed the demo:\n${server.logLines.slice(-30).join('\n')}`);
    return dataDir;
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

// `tsx e2e/demo-data-dir.ts OUT`: seeds ahead of the run and writes the directory's path to OUT, which
// the run then takes from E2E_DEMO_DATA_DIR_FILE (.ci/run does this beside the reliability suite).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2];
  if (!out) throw new Error('usage: tsx e2e/demo-data-dir.ts OUT_FILE');
  writeFileSync(out, await seedDemoDataDir());
}
