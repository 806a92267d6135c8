/// <reference types="node" />
import { existsSync, readFileSync, rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { seedDemoDataDir } from './demo-data-dir';
import { chromiumPath } from './harness';

/**
 * Vitest global setup for the e2e run: the demo is seeded once, by the real server started the way
 * every file starts it, which is then stopped cleanly; each file's server starts from a copy of
 * that data directory (harness.ts `startServer`) instead of seeding the demo again (the seed runs
 * the Set-up page's services: some 20 s of CPU). Files that set SEED_DEMO start as before.
 * E2E_DEMO_DATA_DIR_FILE names a file holding a directory seeded ahead by e2e/demo-data-dir.ts
 * (CI seeds it beside an earlier step); the run takes it over and removes it at the end.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  // Which browser every file drives (the headless shell where installed: harness.ts).
  console.log(`e2e: Chromium at ${chromiumPath()}`);
  const ahead = process.env.E2E_DEMO_DATA_DIR_FILE;
  const prepared = ahead && existsSync(ahead) ? readFileSync(ahead, 'utf8').trim() : '';
  const dataDir = prepared && existsSync(prepared) ? prepared : await seedDemoDataDir();
  project.provide('e2eDemoDataDir', dataDir);
  return () => rmSync(dataDir, { recursive: true, force: true });
}
