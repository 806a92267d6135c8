import type { Role } from '../auth/sessions';
import type { Core } from '../core';
import type { Db, Tx } from '../db/client';
import { and, asc, eq, gt, lte, ne, sql } from 'drizzle-orm';
import { MORE_NOT_LOGGED } from './refused-activity';

export { REFUSED_PER_ADDRESS, REFUSED_PER_SUBJECT, REFUSED_WINDOW_MS } from './refused-activity';
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

/** The who-and-where of a member's own row (sign-in, sign-up, authenticator steps). */
export function memberActivity(member: { id: number; name: string }, activity: string, ip: string) {
  return { name: member.name, activity, userId: member.id, userType: 'voter' as const, ip };
}

/** Appends to the activity log; inside a transaction when one is given. */
export async function recordActivity(ctx: Core, entry: ActivityEntry, tx?: Db | Tx): Promise<void> {
  const now = ctx.now();
  if (entry.status !== 'success') {
    const allowance = ctx.refusedActivity.allowance(entry, now.getTime());
    if (allowance === 'skip') return;
    if (allowance === 'last') entry = { ...entry, data: `${entry.data ?? ''}${MORE_NOT_LOGGED}`.trim() };
  }
  await (tx ?? ctx.database.db).insert(activityLogs).values(rowOf(entry, now));
}

/** The stored row: over-long text cut to the column's budget. */
function rowOf(entry: ActivityEntry, now: Date) {
  return {
    name: entry.name.slice(0, 200),
    activity: entry.activity.slice(0, 200),
    userId: entry.userId ?? null,
    userType: entry.userId ? entry.userType : null,
    data: entry.data?.slice(0, 1000) ?? null,
    ipAddress: entry.ip ?? '',
    status: entry.status,
    createdAt: now,
    updatedAt: now,
  };
}

/** Appends many success rows, a few hundred per statement (a re-import may change thousands of members). */
export async function recordSuccesses(ctx: Core, entries: Omit<ActivityEntry, 'status'>[], tx: Db | Tx): Promise<void> {
  const now = ctx.now();
  for (let i = 0; i < entries.length; i += 500) {
    await tx
      .insert(activityLogs)
      .values(entries.slice(i, i + 500).map((entry) => rowOf({ ...entry, status: 'success' } as ActivityEntry, now)));
  }
}

/** How many of this actor's `activity` lines since `since` were not a success, and the time of the first. */
export async function refusalsSince(
  db: Db | Tx,
  activity: string,
  actor: { id: number; role: Role },
  since: Date,
): Promise<{ n: number; first: string | null } | undefined> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int`, first: sql<string | null>`min(${activityLogs.createdAt})::text` })
    .from(activityLogs)
    .where(
      and(
        gt(activityLogs.createdAt, since),
        eq(activityLogs.activity, activity),
        eq(activityLogs.userId, actor.id),
        eq(activityLogs.userType, actor.role),
        ne(activityLogs.status, 'success'),
      ),
    );
  return row;
}

export type ActivityRow = typeof activityLogs.$inferSelect;

/**
 * An election's rows of the log (those whose data names it: `subject`, `nameElection` of the
 * election store) up to and including its close, by id, `pageSize` at a time (the evidence pack's
 * activity.csv). The close's own row is written as its transaction commits (a moment after
 * `closedAt`): up to it, or up to `closedAt` when there is none.
 */
export async function* electionActivityPages(
  db: Db | Tx,
  subject: string,
  closedAt: Date,
  pageSize: number,
): AsyncGenerator<ActivityRow[], void> {
  const naming = sql`(${activityLogs.data} = ${subject} or ${activityLogs.data} like ${`${subject}: %`} or ${activityLogs.data} like ${`${subject}; %`})`;
  const [close] = await db
    .select({ id: sql<number>`min(${activityLogs.id})`.mapWith(Number) })
    .from(activityLogs)
    .where(and(naming, eq(activityLogs.activity, 'Closed the election')));
  const upTo = close?.id ? sql`${activityLogs.id} <= ${close.id}` : lte(activityLogs.createdAt, closedAt);
  let afterId = 0;
  for (;;) {
    const page = await db
      .select()
      .from(activityLogs)
      .where(and(naming, upTo, sql`${activityLogs.id} > ${afterId}`))
      .orderBy(asc(activityLogs.id))
      .limit(pageSize);
    yield page;
    if (page.length < pageSize) return;
    afterId = page[page.length - 1]!.id;
  }
}
