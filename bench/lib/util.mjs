import { createCipheriv, randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Wall-clock milliseconds with sub-millisecond resolution, comparable across processes on one machine. */
export const nowMs = () => performance.timeOrigin + performance.now();

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export const round = (x, digits = 1) => (Number.isFinite(x) ? Math.round(x * 10 ** digits) / 10 ** digits : x);

/** Total busy and idle jiffies of the machine (all cores), from /proc/stat. */
export function machineTicks() {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = cpu[3] + (cpu[4] ?? 0);
    const total = cpu.reduce((a, b) => a + b, 0);
    return { idle, total };
  } catch {
    return undefined;
  }
}

/** CPU time (ms) of one process, from /proc/<pid>/stat (utime + stime). */
export function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ = 100 on Linux
  } catch {
    return 0;
  }
}

/**
 * CPU time (ms) per pid of the Postgres processes that work for the bench: backends connected to
 * the bench's database (BENCH_DB, process title "postgres: user db …") and the shared auxiliary
 * processes (WAL writer, checkpointer, …); other databases' backends (other users) are left out.
 */
export function postgresCpuByPid() {
  const db = process.env.BENCH_DB ?? 'kura_bench';
  const out = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      // "postgres: [cluster: ]user db host(port) state" or "postgres: [cluster: ]walwriter"
      const rest = title.replace(/^postgres: (\S+\/\S+: )?/, '');
      const aux = /^(walwriter|checkpointer|background writer|autovacuum|logical replication|archiver|stats)/.test(rest);
      const m = /^(\S+) (\S+) /.exec(rest);
      if (aux || (m && m[2] === db)) out.set(entry, processCpuMs(Number(entry)));
    } catch {
      /* process gone */
    }
  }
  return out;
}

/** Measures CPU use over a phase: the machine's busy share and the given processes' cores in use. */
export function cpuMeter(pids = {}) {
  const t0 = machineTicks();
  const start = performance.now();
  const p0 = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, processCpuMs(pid)]));
  const pg0 = postgresCpuByPid();
  return () => {
    const t1 = machineTicks();
    const seconds = (performance.now() - start) / 1000;
    const out = {};
    if (t0 && t1) out.machineBusyPct = round(100 * (1 - (t1.idle - t0.idle) / (t1.total - t0.total)), 0);
    for (const [k, pid] of Object.entries(pids)) out[`${k}Cores`] = round((processCpuMs(pid) - p0[k]) / 1000 / seconds, 2);
    // Backends that started during the phase count from 0; ones that exited are lost (pgbench: sampled while it runs).
    let pgMs = 0;
    for (const [pid, ms] of postgresCpuByPid()) pgMs += ms - (pg0.get(pid) ?? 0);
    out.postgresCores = round(Math.max(0, pgMs) / 1000 / seconds, 2);
    return out;
  };
}

export function loadAverage() {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return '?';
  }
}

/** The server's `seal` (packages/server/src/lib/crypto.ts): AES-256-GCM, `iv.tag.ciphertext` in base64url. */
export function seal(key, plaintext) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((x) => x.toString('base64url')).join('.');
}
