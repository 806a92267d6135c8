import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Walks up from this module's folder to the first ancestor holding `relative`. The server runs
 * from src/ (tsx, vitest), from dist/ (the bundle) and from /app in the container, so fixed
 * `../..` paths would differ between them.
 */
export function findUp(relative: string, from = dirname(fileURLToPath(import.meta.url))): string | undefined {
  let dir = resolve(from);
  for (;;) {
    const candidate = join(dir, relative);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
