import { eq } from 'drizzle-orm';
import type { Request } from 'express';
import type { Core } from '../core';
import { members, staff } from '../db/schema';
import { callerOf } from './access';
import type { Role } from './sessions';

/** Who is doing something, as the activity log and issue reports record it. */
export type Actor = { role: Role; id: number | null; name: string; ip: string };
/** A caller with a session always has an id (the CLI acts without one). */
export type SignedInActor = Actor & { id: number };

/**
 * The signed-in caller with a display name and IP, built in the handler so services never read
 * `req`. A session whose subject has since been deleted still gets a name rather than a 500.
 */
export async function actorOf(ctx: Core, req: Request<any, any, any, any>): Promise<SignedInActor> {
  const caller = callerOf(req);
  const table = caller.role === 'voter' ? members : staff;
  const [row] = await ctx.database.db.select({ name: table.name }).from(table).where(eq(table.id, caller.subjectId)).limit(1);
  return { role: caller.role, id: caller.subjectId, name: row?.name ?? `${caller.role} #${caller.subjectId}`, ip: req.ip ?? '' };
}
