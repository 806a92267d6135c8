import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from './client';

let cursors = 0;

/**
 * Reads a query's rows a page at a time through a cursor (one snapshot, one sort, however many
 * pages) inside the caller's transaction, and hands each page to `each`, yielding to the event loop
 * between pages. For reads of a whole ballot box or roll in the server process (the close's digest
 * and audit): 100,000 rows parsed and held at once, or a page re-sorted per keyset query, stalled
 * the process that serves every other election's votes (BENCHMARKS.md figure 9).
 */
export async function eachPage<T extends Record<string, unknown>>(
  tx: Tx,
  query: SQL,
  pageSize: number,
  each: (rows: T[]) => void | Promise<void>,
): Promise<void> {
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new Error(`not a page size: ${pageSize}`);
  const name = sql.identifier(`kura_cursor_${++cursors}`);
  await tx.execute(sql`declare ${name} no scroll cursor for ${query}`);
  for (;;) {
    const rows = [...(await tx.execute(sql`fetch ${sql.raw(String(pageSize))} from ${name}`))] as unknown as T[];
    if (rows.length > 0) await each(rows);
    if (rows.length < pageSize) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  await tx.execute(sql`close ${name}`);
}
