/// <reference types="node" />
import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { readSeededDemo, removeDemo, seedDemo, type SeededDemo } from './demo-data-dir';
import { chromiumPath } from './harness';
import { e2ePostgresHost } from './postgres';

/**
 * Vitest global setup for the e2e run: the demo is seeded once, by the real server started the way
 * every file starts it, which is then stopped cleanly; each file's server starts from a copy of
 * that data directory (and, with `E2E_PGHOST`, of its PostgreSQL database: e2e/postgres.ts) instead
 * of seeding the demo again (the seed runs the Set-up page's services: some 20 s of CPU). Files that
 * set SEED_DEMO seed nothing from it. E2E_DEMO_DATA_DIR_FILE names a file
 * written by e2e/demo-data-dir.ts, which seeded ahead (CI seeds it beside an earlier step); the run
 * takes the demo over and removes it at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Which browser every file drives (the headless shell where installed: harness.ts), and which database.
  console.log(`e2e: Chromium at ${chromiumPath()}`);
  const host = e2ePostgresHost();
  console.log(host ? `e2e: servers on PostgreSQL at ${host} (E2E_PGHOST), but the first hour's on PGlite` : 'e2e: every server on PGlite');
  const ahead = process.env.E2E_DEMO_DATA_DIR_FILE;
  const prepared: SeededDemo | undefined = ahead && existsSync(ahead) ? readSeededDemo(ahead) : undefined;
  const usable = prepared && existsSync(prepared.dataDir) && Boolean(prepared.database) === Boolean(host);
  const demo = usable ? prepared : await seedDemo();
  if (prepared && !usable) await removeDemo(prepared).catch(() => undefined);
  project.provide('e2eDemoDataDir', demo.dataDir);
  project.provide('e2eDemoDatabase', demo.database);
  return () => removeDemo(demo);
}
