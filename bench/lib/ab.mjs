// The parts the alternating A/B scripts share (bench/ab.mjs: figure 1; bench/ab-ussd.mjs: figure
// 10): a side's own database, the Postgres CPU a window spent, the rounds in alternating order
// (A B, then B A) with the machine's load beside each, the medians, and the clean-up. The USSD
// step diagnostic (bench/ussd-steps.mjs) takes its database and Postgres CPU from here too.
import { readFileSync, rmSync } from 'node:fs';
import { percentile, postgresCpuByPid } from './util.mjs';

/** A fresh database `db` on the server of `adminUrl` (dropped first if left over); answers its URL. */
export async function freshDatabase(admin, adminUrl, db) {
  await admin.unsafe(`drop database if exists ${db} with (force)`);
  await admin.unsafe(`create database ${db}`);
  const u = new URL(adminUrl);
  u.pathname = `/${db}`;
  return u.toString();
}

/** The CPU of every Postgres backend (and the shared WAL writer and checkpointer) since `before` (a `postgresCpuByPid()`), in ms. */
export function postgresCpuSince(before) {
  let ms = 0;
  for (const [pid, now] of postgresCpuByPid()) ms += now - (before.get(pid) ?? 0);
  return ms;
}

export const median = (xs) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

/**
 * A warm-up window a side (discarded), then `rounds` rounds, each side in turn (A B, then B A),
 * each window's result kept in `sides[name].runs` with the load average when it began, and
 * printed by `describe(result)`.
 */
export async function alternate({ sides, rounds, windowS, warmupS, window, describe }) {
  for (const name of ['A', 'B']) await window(name, warmupS);
  for (let i = 0; i < rounds; i++) {
    for (const name of i % 2 === 0 ? ['A', 'B'] : ['B', 'A']) {
      const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
      const r = await window(name, windowS);
      sides[name].runs.push({ ...r, load });
      console.log(`round ${i + 1} ${name}: ${describe(r)}; load ${load}`);
    }
  }
}

/** Stops both sides' servers, drops their databases, and closes what the script opened. */
export async function tearDown({ sides, admin, sink, tmp }) {
  for (const s of Object.values(sides)) await s.server.stop();
  for (const s of Object.values(sides)) await admin.unsafe(`drop database if exists ${s.db} with (force)`).catch(() => {});
  await admin.end();
  await sink.close();
  rmSync(tmp, { recursive: true, force: true });
}
