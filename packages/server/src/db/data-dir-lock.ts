import { mkdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import lockfile from 'proper-lockfile';

/**
 * One process at a time on an embedded database (docs/operations.md "Operator commands"). PGlite
 * has no lock of its own: a second process that opens the same data directory (an operator command
 * while the server runs) writes beside the first and corrupts it (two `staff` rows with one id).
 *
 * The lock is proper-lockfile's: a directory `<dataDir>.lock` made atomically (mkdir), its mtime
 * refreshed every LOCK_UPDATE_MS while held, stale once it is older than LOCK_STALE_MS (a holder
 * killed with SIGKILL stops refreshing it). Inside it `holder.json` names the holder (pid, host,
 * what it runs, when its process started), written once the directory is made, so a lock without
 * one is a fresh one: a holder on this host whose process is gone, or an earlier process with our
 * own pid (a container restarted: the server is pid 1 again), does not hold it, so its lock is
 * stale at once rather than after LOCK_STALE_MS. Two processes that find the same stale lock at
 * the same instant can both take it (proper-lockfile's own race); the loser's refresh then fails
 * and `onCompromised` runs.
 */

/** A lock not refreshed for this long is stale: its holder stopped (or its event loop stalled this long). */
export const LOCK_STALE_MS = 30_000;
const LOCK_UPDATE_MS = 5_000;

export type DataDirLock = { release(): Promise<void> };

/** Who holds the lock, as `<dataDir>.lock/holder.json` records it. */
type Holder = { pid: number; host: string; holder: string; processStartedAt: number; lockedAt: string };

export type LockDataDirOptions = {
  /** What the lock holder runs, for the refusal another process prints ("the server", "the command admin:create"). */
  holder: string;
  /** How long to wait for a lock held by another process to be released or go stale (0: refuse at once). */
  waitMs?: number;
  /** Called if the lock is lost while held (another process judged it stale and took it). */
  onCompromised?: (error: Error) => void;
};

/** The data directory is held by another process: the message says by whom and what to do. */
export class DataDirBusyError extends Error {
  readonly code = 'DATA_DIR_BUSY';
}

const processStartedAt = () => Math.round(Date.now() - process.uptime() * 1000);

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const holderFile = (dataDir: string) => `${dataDir}.lock/holder.json`;

async function readHolder(dataDir: string): Promise<Holder | undefined> {
  try {
    return JSON.parse(await readFile(holderFile(dataDir), 'utf8')) as Holder;
  } catch {
    return undefined;
  }
}

/** Whether the recorded holder is certainly gone: a process of this host that no longer runs, or an earlier one with our pid. */
function certainlyGone(h: Holder): boolean {
  if (h.host !== hostname() || !Number.isSafeInteger(h.pid) || h.pid <= 0) return false;
  if (h.pid === process.pid) return Math.abs(h.processStartedAt - processStartedAt()) > 2_000;
  return !isAlive(h.pid);
}

function refusal(dataDir: string, h: Holder | undefined): string {
  const who = h ? `${h.holder} (process ${h.pid} on ${h.host}, since ${h.lockedAt})` : 'another Kura process';
  return (
    `${who.charAt(0).toUpperCase()}${who.slice(1)} is running on this data directory (${dataDir}): stop it first, or do this in the running ` +
    `server's admin screens (members: Members → Import; an admin or agent: ADMIN_EMAIL or AGENT_EMAILS ` +
    `at its next start), or run Kura on PostgreSQL (DATABASE_URL), where the server and the commands ` +
    `share the database safely. A lock left by a process that was killed lapses ${LOCK_STALE_MS / 1000} s after it stopped.`
  );
}

/** Takes the data directory for this process, or throws DataDirBusyError while another holds it. */
export async function lockDataDir(dataDir: string, options: LockDataDirOptions): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true });
  const lockPath = `${dataDir}.lock`;
  const deadline = Date.now() + (options.waitMs ?? 0);
  for (;;) {
    const before = await readHolder(dataDir);
    const refreshed = await stat(lockPath).then(
      (st) => st.mtimeMs,
      () => undefined,
    );
    // A lock whose holder is certainly gone is stale now, one not refreshed for LOCK_STALE_MS is
    // stale anyway: emptied (proper-lockfile removes it with rmdir) and dated stale, proper-lockfile
    // then removes and retakes it.
    if (refreshed !== undefined && ((before && certainlyGone(before)) || refreshed < Date.now() - LOCK_STALE_MS)) {
      await rm(holderFile(dataDir), { force: true });
      await utimes(lockPath, 0, 0).catch(() => undefined);
    }
    try {
      const release = await lockfile.lock(dataDir, {
        realpath: false,
        stale: LOCK_STALE_MS,
        update: LOCK_UPDATE_MS,
        onCompromised:
          options.onCompromised ??
          ((error) => {
            throw error;
          }),
      });
      const holder: Holder = {
        pid: process.pid,
        host: hostname(),
        holder: options.holder,
        processStartedAt: processStartedAt(),
        lockedAt: new Date().toISOString(),
      };
      // A file made in the directory moves its mtime: put back the one proper-lockfile recorded,
      // or its first refresh would find the lock "not ours" and call it compromised.
      const taken = await stat(lockPath);
      await writeFile(holderFile(dataDir), `${JSON.stringify(holder)}\n`);
      await utimes(lockPath, taken.atime, taken.mtime);
      return {
        async release() {
          await rm(holderFile(dataDir), { force: true });
          await release().catch(() => undefined);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      if (Date.now() >= deadline) throw new DataDirBusyError(refusal(dataDir, await readHolder(dataDir)));
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
