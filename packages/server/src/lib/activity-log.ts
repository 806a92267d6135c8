import type { Role } from '../auth/sessions';
import type { AppContext } from '../context';
import type { Db, Tx } from '../db/client';
import { activityLogs } from '../db/schema';

/**
 * Whose row: members and staff number their ids separately, so an id always comes with its
 * type (voter = a member; admin and agent = staff), or neither is given.
 */
type Subject = { userId?: null; userType?: null } | { userId: number | null | undefined; userType: Role };

export type ActivityEntry = Subject & {
  /** Who: a member's or staff member's name, or the identifier tried. */
  name: string;
  activity: string;
  /** Non-secret context. Never a code, password, token, pin or ballot choice. */
  data?: string | null;
  ip?: string | null;
  status: 'success' | 'failed' | 'denied' | string;
};

/** Appends to the activity log; inside a transaction when one is given. */
export async function recordActivity(ctx: AppContext, entry: ActivityEntry, tx?: Db | Tx): Promise<void> {
  const now = ctx.now();
  await (tx ?? ctx.database.db).insert(activityLogs).values({
    name: entry.name.slice(0, 200),
    activity: entry.activity.slice(0, 200),
    userId: entry.userId ?? null,
    userType: entry.userId ? entry.userType : null,
    data: entry.data?.slice(0, 1000) ?? null,
    ipAddress: entry.ip ?? '',
    status: entry.status,
    createdAt: now,
    updatedAt: now,
  });
}
