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

/** CPU time (ms) of every process whose command name is `name` (e.g. postgres backends). */
export function commandCpuMs(name) {
  let sum = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm === name) sum += processCpuMs(Number(entry));
    } catch {
      /* process gone */
    }
  }
  return sum;
}

/** Measures CPU use over a phase: the machine's busy share and the given processes' cores in use. */
export function cpuMeter(pids = {}) {
  const t0 = machineTicks();
  const start = performance.now();
  const p0 = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, processCpuMs(pid)]));
  const pg0 = commandCpuMs('postgres');
  return () => {
    const t1 = machineTicks();
    const seconds = (performance.now() - start) / 1000;
    const out = {};
    if (t0 && t1) out.machineBusyPct = round((100 * (1 - (t1.idle - t0.idle) / (t1.total - t0.total))), 0);
    for (const [k, pid] of Object.entries(pids)) out[`${k}Cores`] = round((processCpuMs(pid) - p0[k]) / 1000 / seconds, 2);
    out.postgresCores = round((commandCpuMs('postgres') - pg0) / 1000 / seconds, 2);
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
