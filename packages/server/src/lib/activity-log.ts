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

/**
 * Refused actions (status other than success) are logged at most REFUSED_PER_SUBJECT times per
 * subject (account, or the identifier tried) and REFUSED_PER_ADDRESS times per client address, per
 * activity and REFUSED_WINDOW_MS: a voter repeating a refused vote, or a script trying member
 * numbers, cannot flood the log (300 refused votes once wrote 300 rows in 1.5 s). The last row
 * logged says that more are not. Per process, in memory: with several processes each has its share.
 */
export const REFUSED_PER_SUBJECT = 10;
export const REFUSED_PER_ADDRESS = 100;
export const REFUSED_WINDOW_MS = 10 * 60_000;
const MORE_NOT_LOGGED = ' (more of these in the next 10 minutes are not logged)';

type Window = { start: number; n: number };

/** The refused-action windows of this process (`ctx.refusedActivity`). No lifecycle. */
export class RefusedActivityLimiter {
  private readonly windows = new Map<string, Window>();

  /** Whether this refused entry may be written, and whether it is the last one for now. */
  allowance(entry: ActivityEntry, now: number): 'write' | 'last' | 'skip' {
    return refusedAllowance(this.windows, entry, now);
  }
}

function refusedAllowance(windows: Map<string, Window>, entry: ActivityEntry, now: number): 'write' | 'last' | 'skip' {
  if (windows.size > 50_000) for (const [k, w] of windows) if (now - w.start >= REFUSED_WINDOW_MS) windows.delete(k);
  const subject = entry.userId ? `${entry.userType}:${entry.userId}` : `name:${entry.name.toLowerCase().slice(0, 200)}`;
  const keys: [string, number][] = [[`s|${entry.activity}|${subject}`, REFUSED_PER_SUBJECT]];
  if (entry.ip) keys.push([`a|${entry.activity}|${entry.ip}`, REFUSED_PER_ADDRESS]);
  let verdict: 'write' | 'last' | 'skip' = 'write';
  const counted: Window[] = [];
  for (const [key, limit] of keys) {
    let w = windows.get(key);
    if (!w || now - w.start >= REFUSED_WINDOW_MS) windows.set(key, (w = { start: now, n: 0 }));
    if (w.n >= limit) return 'skip';
    if (w.n === limit - 1) verdict = 'last';
    counted.push(w);
  }
  for (const w of counted) w.n++;
  return verdict;
}

/** Appends to the activity log; inside a transaction when one is given. */
/** The who-and-where of a member's own row (sign-in, sign-up, authenticator steps). */
export function memberActivity(member: { id: number; name: string }, activity: string, ip: string) {
  return { name: member.name, activity, userId: member.id, userType: 'voter' as const, ip };
}

export async function recordActivity(ctx: AppContext, entry: ActivityEntry, tx?: Db | Tx): Promise<void> {
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
export async function recordSuccesses(ctx: AppContext, entries: Omit<ActivityEntry, 'status'>[], tx: Db | Tx): Promise<void> {
  const now = ctx.now();
  for (let i = 0; i < entries.length; i += 500) {
    await tx
      .insert(activityLogs)
      .values(entries.slice(i, i + 500).map((entry) => rowOf({ ...entry, status: 'success' } as ActivityEntry, now)));
  }
}
