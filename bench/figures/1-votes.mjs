// Figure 1: ballots/s through HTTP (32 voters, a ballot of two positions) against pgbench running
// the same vote statement straight in Postgres, in the same run. Target: at least half of pgbench,
// p99 under 100 ms. Its measured load ("votes-spread") is the baseline of figures 1m, 2 and 5a.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { driverLadder } from '../lib/driver-ladder.mjs';
import { castVotes } from '../lib/load.mjs';
import { cpuMeter, ROOT, round, sleep } from '../lib/util.mjs';

const run = promisify(execFile);

/** pgbench on the vote statement (tables copied into schema pgb), then the server's SQL through postgres.js alone. */
export async function baseline(b, { db, benchUrl, dbName, seeded, pool }) {
  try {
    await run('pgbench', ['--version']);
  } catch {
    b.say('pgbench not found (apt-get install postgresql-client): figure 1 has no baseline');
    return undefined;
  }
  await db.unsafe(`drop schema if exists pgb cascade; create schema pgb;
    create table pgb.participation (like public.participation including all);
    create table pgb.ballot_queue (like public.ballot_queue including all);
    create table pgb.activity_logs (like public.activity_logs including all);`);
  const u = new URL(benchUrl);
  const args = [
    '-h',
    u.hostname,
    '-p',
    u.port || '5432',
    '-U',
    decodeURIComponent(u.username || 'postgres'),
    '-n',
    '-M',
    'prepared',
    '-c',
    String(b.connections),
    '-j',
    '2',
    '-T',
    String(b.seconds),
    '-D',
    'n=0',
    '-f',
    join(ROOT, 'bench/pgbench/vote.sql'),
    '-r',
    dbName,
  ];
  // pgbench's backends exit with it, taking their CPU counters along: sample while they run.
  let cpu;
  const sampler = sleep(1000).then(async () => {
    const meter = cpuMeter();
    await sleep(Math.max(1000, (b.seconds - 2) * 1000));
    cpu = meter();
  });
  const { stdout } = await run('pgbench', args, {
    env: { ...process.env, PGOPTIONS: '-c search_path=pgb', ...(u.password ? { PGPASSWORD: decodeURIComponent(u.password) } : {}) },
    maxBuffer: 10 * 2 ** 20,
  });
  await sampler;
  const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1]);
  const lat = Number(/latency average = ([\d.]+) ms/.exec(stdout)?.[1]);
  const failed = /number of failed transactions: (\d+)/.exec(stdout)?.[1];
  const postgresCpuMs = round((cpu.postgresCores * 1000) / Math.max(1, tps), 2);
  b.results.phases.pgbench = { tps, latencyAvgMs: lat, failed: Number(failed ?? 0), cpu, postgresCpuMs };
  b.say(
    `pgbench: ${round(tps, 0)} TPS, latency avg ${lat} ms, failed ${failed ?? 0}; cpu ${JSON.stringify(cpu)}; postgres CPU per transaction ${postgresCpuMs} ms`,
  );

  // Diagnostic ladder: the server's vote SQL straight through postgres.js, unprepared then prepared.
  const LADDER_SECONDS = Math.max(3, Math.round(b.seconds / 2));
  b.results.phases.driver = {};
  // cast_vote checks that voting is open, as the server's votes do.
  const [{ voting_active: wasActive }] = await db.unsafe(`select voting_active from election where id = 1`);
  await db.unsafe(`update election set voting_active = true where id = 1`);
  for (const prepare of [false, true]) {
    await db.unsafe(`truncate pgb.participation, pgb.ballot_queue, pgb.activity_logs`);
    const ids = pool.ids.slice(pool.next, pool.next + 40_000);
    const r = await driverLadder({ url: benchUrl, seeded, memberIds: ids, seconds: LADDER_SECONDS, connections: b.connections, prepare });
    pool.next += r.used;
    b.results.phases.driver[prepare ? 'prepared' : 'unprepared'] = r;
    b.say(
      `server vote SQL via postgres.js, ${prepare ? 'prepared  ' : 'unprepared'} (no HTTP/Express/Drizzle): ${r.tps} TPS p99 ${r.p99} ms, failures ${r.failures}${r.firstError ? ` (first: ${r.firstError})` : ''}; CPU per vote: node ${r.nodeCpuMs} ms, postgres ${r.postgresCpuMs} ms`,
    );
  }
  await db.unsafe(`update election set voting_active = $1 where id = 1`, [wasActive]);
  await db.unsafe(`drop schema pgb cascade`);
  return tps;
}

/** A warm-up (discarded), then figure 1's measured load. */
export async function measure(b, { server, pool, spread }) {
  await castVotes({ url: server.url, pool, connections: b.connections, seconds: 3, choose: spread });
  return b.measureVotes('votes-spread', server, { pool, choose: spread });
}

/** @returns {import('../lib/bench.mjs').FigureRow[]} */
export function verdict({ spread, pgbenchTps }) {
  if (!spread || !pgbenchTps) return [];
  const ratio = round(spread.okPerSec / pgbenchTps, 2);
  return [
    {
      id: '1',
      name: 'ballots/s via HTTP, 32 voters, 2 positions',
      value: `${spread.okPerSec}/s p99 ${spread.p99} ms`,
      baseline: `pgbench ${round(pgbenchTps, 0)} TPS`,
      ratio,
      target: '≥0.5, <100ms',
      met: ratio >= 0.5 && spread.p99 < 100,
    },
  ];
}
