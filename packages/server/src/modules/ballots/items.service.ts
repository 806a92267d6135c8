import { asc } from 'drizzle-orm';
import type { Core } from '../../core';
import { items } from '../../db/schema';

/** The voting items of the nominate page, in the order they were created. */
export async function listItems(ctx: Core) {
  return ctx.database.db.select({ id: items.id, title: items.title, description: items.description }).from(items).orderBy(asc(items.id));
}
