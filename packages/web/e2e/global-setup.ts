/// <reference types="node" />
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { startServer } from './harness';

/**
 * Vitest global setup for the e2e run: the demo is seeded once, by the real server started the way
 * every file starts it, which is then stopped cleanly; each file's server starts from a copy of
 * that data directory (harness.ts `startServer`) instead of seeding the demo again (the seed runs
 * the Set-up page's services: some 20 s of CPU). Files that set SEED_DEMO start as before.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  // The SMS webhook is never called while seeding; the server only needs a URL for it.
  const server = await startServer('http://127.0.0.1:9/sms', {}, { dataDirFrom: false, keepDataDir: true });
  const dataDir = server.dataDir;
  try {
    const seeded = server.logLines.some((line) => line.includes('Demo election seeded'));
    await server.stop();
    if (!seeded) throw new Error(`the server did not seed the demo:\n${server.logLines.slice(-30).join('\n')}`);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  project.provide('e2eDemoDataDir', dataDir);
  return () => rmSync(dataDir, { recursive: true, force: true });
}
