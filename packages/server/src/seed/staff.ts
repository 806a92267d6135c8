import type { Db } from '../db/client';
import { eq } from 'drizzle-orm';
import type { Core } from '../core';
import { staff } from '../db/schema';

/** Creates or updates an admin or agent (ADMIN_EMAIL, AGENT_EMAILS, `cli admin:create`). */
export async function upsertStaff(
  ctx: Pick<Core, 'database' | 'passwords'>,
  input: { email: string; name?: string; role: 'admin' | 'agent'; password?: string },
): Promise<void> {
  const email = input.email.trim().toLowerCase();
  const db = ctx.database.db;
  const passwordHash = input.password ? await ctx.passwords.hash(input.password) : null;
  const name = input.name ?? email.split('@')[0]!;
  await db
    .insert(staff)
    .values({ email, name, role: input.role, passwordHash })
    .onConflictDoUpdate({
      target: staff.email,
      set: { role: input.role, ...(passwordHash ? { passwordHash } : {}), ...(input.name ? { name } : {}) },
    });
}

/** Whether any admin exists (the start banner and the staff login say how to make the first one until then). */
export async function hasAdmin(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: staff.id }).from(staff).where(eq(staff.role, 'admin')).limit(1);
  return row !== undefined;
}
