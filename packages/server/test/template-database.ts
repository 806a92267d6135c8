import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client';
import { runMigrations } from '../src/db/migrate';

/**
 * Vitest global setup: migrates one template database per run, which every test file's database
 * then copies instead of running the migrations itself (the copy takes a fraction of the time).
 *
 * - PGlite: an in-memory instance migrated once, its data directory written to a tarball that
 *   each file's PGlite starts from.
 * - Postgres: a database named for this run (other runs on the same server have their own), that
 *   each file's database is created from with `CREATE DATABASE … TEMPLATE`; dropped at the end.
 *
 * The copies are exactly what the real migrations leave; migrate.test.ts still runs them itself.
 */

declare module 'vitest' {
  // Vitest's provided values are declared by merging into its interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  export interface ProvidedContext {
    /** PGlite: the migrated data directory tarball's path. */
    pgliteTemplatePath: string | undefined;
    /** Postgres: the migrated template database's name. */
    postgresTemplate: string | undefined;
  }
}

/**
 * The tarball without the given directories and what they hold. The copy leaves out the data of
 * `template0` and `template1` (a third of the files and bytes): only `CREATE DATABASE` reads them,
 * which no test does on PGlite, and every test file's instance would otherwise unpack them again
 * (measured: 0.71 → 0.50 s of CPU per instance; the server suite starts one per file). Throws if
 * a directory is not there, so a change in PGlite's layout is seen rather than silently copied.
 */
export function withoutDirectories(tar: Buffer, dirs: string[]): Buffer {
  const kept: Buffer[] = [];
  const seen = new Set<string>();
  let at = 0;
  while (at + 512 <= tar.length) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break; // the end-of-archive blocks
    const field = (from: number, length: number) =>
      header
        .subarray(from, from + length)
        .toString('latin1')
        .replace(/\0.*$/s, '');
    const prefix = field(345, 155);
    const name = (prefix ? `${prefix}/` : '') + field(0, 100);
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const end = at + 512 + Math.ceil(size / 512) * 512;
    const path = name.replace(/^\.?\//, '').replace(/\/$/, '');
    const dropped = dirs.find((d) => path === d || path.startsWith(`${d}/`));
    if (dropped) seen.add(dropped);
    else kept.push(tar.subarray(at, end));
    at = end;
  }
  const missing = dirs.filter((d) => !seen.has(d));
  if (missing.length > 0) throw new Error(`the PGlite data directory has no ${missing.join(', ')}`);
  kept.push(Buffer.alloc(1024));
  return Buffer.concat(kept);
}

/**
 * The migrated template's bytes as PGlite's `loadDataDir` takes them: PGlite reads the whole
 * tarball with `arrayBuffer()` (and looks at `type`), and Node's own `Blob` gives its bytes back
 * through a stream in small pieces, 2–4 ms a MB: some 60–110 ms of CPU for the 27 MB tarball at
 * every test file's instance. This one hands PGlite a copy of the bytes already in memory
 * (measured per instance: 613 → 487 ms of CPU on Node 20, 775 → 622 on Node 24). A copy, not
 * the bytes themselves, so nothing PGlite does to its buffer reaches the next file's.
 */
export class TemplateBlob extends Blob {
  readonly #bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    super([]); // PGlite reads only arrayBuffer() and type (empty: not gzipped)
    this.#bytes = bytes;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    const copy = new Uint8Array(this.#bytes.byteLength);
    copy.set(this.#bytes);
    return Promise.resolve(copy.buffer);
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.DATABASE_URL || undefined;
  if (!url) {
    const database = await openDatabase({ pgliteMode: 'inline' });
    try {
      await runMigrations(database);
      // Every page on disk, so the copy starts without replaying the write-ahead log.
      await database.sql`checkpoint`;
      const templates = await database.sql<{ oid: number }[]>`select oid::int as oid from pg_database where datistemplate`;
      const tarball = await database.dumpDataDir!();
      const dir = mkdtempSync(join(tmpdir(), 'kura-template-'));
      const path = join(dir, 'pgdata.tar');
      writeFileSync(
        path,
        withoutDirectories(
          Buffer.from(await tarball.arrayBuffer()),
          templates.map((t) => `base/${t.oid}`),
        ),
      );
      project.provide('pgliteTemplatePath', path);
      project.provide('postgresTemplate', undefined);
      return async () => rmSync(dir, { recursive: true, force: true });
    } finally {
      await database.close();
    }
  }

  const name = `kura_template_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${name}`;
  // Two connections: runMigrations holds one for its lock while the migrations run on the other.
  const database = await openDatabase({ url: templateUrl.toString(), poolMax: 2 });
  try {
    await runMigrations(database);
  } finally {
    // A template must have no connection open while it is copied.
    await database.close();
  }
  project.provide('pgliteTemplatePath', undefined);
  project.provide('postgresTemplate', name);
  return async () => {
    await admin.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
    await admin.end();
  };
}
