/**
 * The activity log's limit on refused actions, per process. Its own file, importing no module, so
 * the core (src/core.ts) can carry one limiter shared by every module's writes to the log
 * (lib/activity-log.ts).
 */

/** What the limiter reads of an activity-log entry. */
export type RefusedEntry = { userId?: number | null; userType?: string | null; name: string; activity: string; ip?: string | null };

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
export const MORE_NOT_LOGGED = ' (more of these in the next 10 minutes are not logged)';

type Window = { start: number; n: number };

/** The refused-action windows of this process (`ctx.refusedActivity`). No lifecycle. */
export class RefusedActivityLimiter {
  private readonly windows = new Map<string, Window>();

  /** Whether this refused entry may be written, and whether it is the last one for now. */
  allowance(entry: RefusedEntry, now: number): 'write' | 'last' | 'skip' {
    return refusedAllowance(this.windows, entry, now);
  }
}

function refusedAllowance(windows: Map<string, Window>, entry: RefusedEntry, now: number): 'write' | 'last' | 'skip' {
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
