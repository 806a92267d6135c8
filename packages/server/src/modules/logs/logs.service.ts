import type { LogEntry, PageQuery, Paginated } from '@kura/contract';
import { and, count, desc, eq, ilike, inArray, sql, type Column, type SQL } from 'drizzle-orm';
import type { Core } from '../../core';
import { activityLogs } from '../../db/schema';
import { likeContains, pageRequest, paginate } from '../../lib/pagination';

export type LogUserType = 'voter' | 'agent' | 'admin' | 'staff';
export type LogFilters = {
  name?: string;
  activity?: string;
  user_id?: string;
  /** members (voter) and staff (admin, agent) number their ids separately: this says whose */
  user_type?: LogUserType;
  data?: string;
  ip_address?: string;
  status?: string;
};

function filterConditions(f: LogFilters): SQL[] {
  const out: SQL[] = [];
  const contains = (column: Column, value?: string) => {
    const v = value?.trim();
    if (v) out.push(ilike(column, likeContains(v)));
  };
  contains(activityLogs.name, f.name);
  contains(activityLogs.activity, f.activity);
  contains(activityLogs.data, f.data);
  contains(activityLogs.ipAddress, f.ip_address);
  contains(activityLogs.status, f.status);
  const userId = f.user_id?.trim();
  if (userId) {
    // An id is matched exactly; a non-numeric id can match nothing (rather than a 422 on a search box).
    out.push(/^\d{1,9}$/.test(userId) ? eq(activityLogs.userId, Number(userId)) : sql`false`);
  }
  if (f.user_type === 'staff') out.push(inArray(activityLogs.userType, ['admin', 'agent']));
  else if (f.user_type) out.push(eq(activityLogs.userType, f.user_type));
  return out;
}

/** The activity log, newest first, paginated; every filter given must match. */
export async function searchLogs(ctx: Core, query: PageQuery, filters: LogFilters = {}): Promise<Paginated<LogEntry>> {
  const { db } = ctx.database;
  const page = pageRequest(query);
  const where = and(...filterConditions(filters));
  const [total] = await db.select({ n: count() }).from(activityLogs).where(where);
  const rows = await db
    .select()
    .from(activityLogs)
    .where(where)
    .orderBy(desc(activityLogs.createdAt), desc(activityLogs.id))
    .limit(page.perPage)
    .offset(page.offset);
  return paginate(
    rows.map((r) => ({
      id: r.id,
      name: r.name,
      activity: r.activity,
      user_id: r.userId,
      user_type: r.userType ?? null,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
      ip_address: r.ipAddress,
      status: r.status,
    })),
    total?.n ?? 0,
    page,
  );
}
