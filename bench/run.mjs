// `pnpm bench`: the performance suite. Starts the BUILT server as a child process against
// a real Postgres (a database it creates and drops) and once against embedded PGlite, seeds an
// election straight into the database, and prints eight figures, each beside its baseline measured
// in this same run and the ratio against its target. Every loop is bounded by count and by time;
// all traffic goes to 127.0.0.1. Figure 8, the STV count of a million ranked ballots, needs no server.
// See BENCHMARKS.md for what each figure means and the last record.
//
// Environment (all optional):
//   BENCH_PG_URL      admin URL of the Postgres to use (default postgres://postgres@127.0.0.1:5432/postgres)
//   BENCH_DB          database the bench creates and drops (default kura_bench)
//   BENCH_SECONDS     length of each measured load phase (default 10)
//   BENCH_WATCHERS    Socket.IO watchers of figure 4 (default 5000)
//   BENCH_ONLY        comma-separated figures to run, e.g. "1,3" or "1m" (default all); "8" alone starts no server
//   BENCH_COUNT_BALLOTS  ballots of figure 8's STV count (default 1,000,000)
//   BENCH_PROFILE=1   write a V8 CPU profile of every server child into bench/.profiles/
//   BENCH_KEEP_DB=1   keep the database afterwards (for EXPLAIN ANALYZE)
//   BENCH_EXTRA=1     also measure figure 1 with DATABASE_POOL_MAX 4 and 20 (diagnostic; the default is 8)
//   BENCH_SERVER_ENV  extra server environment, "KEY=value,KEY2=value" (to try a setting)
import { execFile, fork, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { driverLadder } from './lib/driver-ladder.mjs';
import { castVotes, hammer, VoterPool } from './lib/load.mjs';
import { seedBallots, seedElection } from './lib/seed.mjs';
import { serverEnv, startServer } from './lib/server.mjs';
import { csrfPair, requestCodes, verifyCodes } from './lib/signin.mjs';
import { startSmsSink } from './lib/sms-sink.mjs';
import { cpuMeter, loadAverage, nowMs, percentile, ROOT, round, sleep } from './lib/util.mjs';

const run = promisify(execFile);
const T0 = Date.now();
const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_DB ?? 'kura_bench';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 5000);
const ONLY = new Set((process.env.BENCH_ONLY ?? '1,1m,2,3,4,5,6,7,8').split(',').map((s) => s.trim()));
// Figure 8 (the STV count) needs no server or database: `BENCH_ONLY=8` runs it alone.
const SERVER_FIGURES = [...ONLY].some((id) => id !== '8');
const PROFILE = process.env.BENCH_PROFILE === '1';
const CONNECTIONS = 32;
const BENCH_URL = (() => {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${DB_NAME}`;
  return u.toString();
})();

// 5,000 watchers need as many sockets in the server and in the watcher processes: raise the soft
// open-files limit to the hard one (children inherit it) by re-running under `ulimit -n`.
{
  const limits = /Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/.exec(readFileSync('/proc/self/limits', 'utf8'));
  const soft = limits ? Number(limits[1] === 'unlimited' ? Infinity : limits[1]) : Infinity;
  const hard = limits ? (limits[2] === 'unlimited' ? 'unlimited' : limits[2]) : 'unlimited';
  if (soft < WATCHERS * 2 + 2000 && !process.env.BENCH_ULIMIT_RAISED) {
    const child = spawnSync('sh', ['-c', `ulimit -n ${hard} 2>/dev/null; exec "$0" "$@"`, process.execPath, ...process.argv.slice(1)], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_ULIMIT_RAISED: '1' },
    });
    process.exit(child.status ?? 1);
  }
}

const elapsed = () => `${((Date.now() - T0) / 1000).toFixed(0)}s`;
const say = (line) => console.log(`[${elapsed()}] ${line}`);
const results = { figures: {}, phases: {} };
const cleanups = [];

/** Every `k`-element subset of `items`, in order. */
function combinations(items, k) {
  if (k === 0) return [[]];
  return items.flatMap((first, i) => combinations(items.slice(i + 1), k - 1).map((rest) => [first, ...rest]));
}

// ---------------------------------------------------------------------------------------------
// Figure lines

const figureLines = [];
function figure(id, name, value, baseline, ratio, target, met, note = '') {
  results.figures[id] = { name, value, baseline, ratio, target, met, note };
  const line = `${id.padEnd(4)} ${name.padEnd(44)} ${String(value).padEnd(22)} ${String(baseline).padEnd(30)} ${String(ratio).padEnd(9)} ${target.padEnd(12)} ${met ? 'MET' : 'MISSED'}${note ? `  (${note})` : ''}`;
  figureLines.push(line);
  say(line);
}

// ---------------------------------------------------------------------------------------------
// Postgres

async function pgbenchBaseline(db, seeded, pool) {
  try {
    await run('pgbench', ['--version']);
  } catch {
    say('pgbench not found (apt-get install postgresql-client): figure 1 has no baseline');
    return undefined;
  }
  await db.unsafe(`drop schema if exists pgb cascade; create schema pgb;
    create table pgb.participation (like public.participation including all);
    create table pgb.ballot_queue (like public.ballot_queue including all);
    create table pgb.activity_logs (like public.activity_logs including all);`);
  const u = new URL(BENCH_URL);
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
    String(CONNECTIONS),
    '-j',
    '2',
    '-T',
    String(SECONDS),
    '-D',
    'n=0',
    '-f',
    join(ROOT, 'bench/pgbench/vote.sql'),
    '-r',
    DB_NAME,
  ];
  // pgbench's backends exit with it, taking their CPU counters along: sample while they run.
  let cpu;
  const sampler = sleep(1000).then(async () => {
    const meter = cpuMeter();
    await sleep(Math.max(1000, (SECONDS - 2) * 1000));
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
  results.phases.pgbench = { tps, latencyAvgMs: lat, failed: Number(failed ?? 0), cpu, postgresCpuMs };
  say(
    `pgbench: ${round(tps, 0)} TPS, latency avg ${lat} ms, failed ${failed ?? 0}; cpu ${JSON.stringify(cpu)}; postgres CPU per transaction ${postgresCpuMs} ms`,
  );

  // Diagnostic ladder: the server's vote SQL straight through postgres.js, unprepared then prepared.
  const LADDER_SECONDS = Math.max(3, Math.round(SECONDS / 2));
  results.phases.driver = {};
  // cast_vote checks that voting is open, as the server's votes do.
  const [{ voting_active: wasActive }] = await db.unsafe(`select voting_active from election where id = 1`);
  await db.unsafe(`update election set voting_active = true where id = 1`);
  for (const prepare of [false, true]) {
    await db.unsafe(`truncate pgb.participation, pgb.ballot_queue, pgb.activity_logs`);
    const ids = pool.ids.slice(pool.next, pool.next + 40_000);
    const r = await driverLadder({ url: BENCH_URL, seeded, memberIds: ids, seconds: LADDER_SECONDS, connections: CONNECTIONS, prepare });
    pool.next += r.used;
    results.phases.driver[prepare ? 'prepared' : 'unprepared'] = r;
    say(
      `server vote SQL via postgres.js, ${prepare ? 'prepared  ' : 'unprepared'} (no HTTP/Express/Drizzle): ${r.tps} TPS p99 ${r.p99} ms, failures ${r.failures}${r.firstError ? ` (first: ${r.firstError})` : ''}; CPU per vote: node ${r.nodeCpuMs} ms, postgres ${r.postgresCpuMs} ms`,
    );
  }
  await db.unsafe(`update election set voting_active = $1 where id = 1`, [wasActive]);
  await db.unsafe(`drop schema pgb cascade`);
  return tps;
}

/** Samples the server's pool connections in pg_stat_activity every 100 ms: how many are busy. */
let benchDb;
function poolSampler() {
  if (!benchDb) return { stop: async () => undefined };
  let stopped = false;
  const samples = [];
  const loop = (async () => {
    while (!stopped) {
      const rows = await benchDb
        .unsafe(
          `select count(*) filter (where state <> 'idle')::int as busy, count(*) filter (where state = 'active')::int as active,
                        count(*) filter (where state like 'idle in transaction%')::int as in_tx_idle,
                        count(*) filter (where state = 'active' and wait_event = 'ClientRead')::int as active_client_read, count(*)::int as open
                 from pg_stat_activity where datname = current_database() and application_name = 'kura'`,
        )
        .catch(() => undefined);
      if (rows?.[0]) samples.push(rows[0]);
      await sleep(100);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      if (!samples.length) return undefined;
      const busy = samples.map((x) => x.busy).sort((a, b) => a - b);
      const avg = (k) => round(samples.reduce((a, x) => a + x[k], 0) / samples.length, 1);
      // busy = active (Postgres working) + idle in transaction (waiting for the server between statements)
      return {
        busyAvg: avg('busy'),
        activeAvg: avg('active'),
        activeClientReadAvg: avg('active_client_read'),
        inTxIdleAvg: avg('in_tx_idle'),
        busyP50: percentile(busy, 50),
        openMax: Math.max(...samples.map((x) => x.open)),
        samples: samples.length,
      };
    },
  };
}

async function measureVotes(label, server, args) {
  await server.eldReset();
  const meter = cpuMeter({ server: server.pid, bench: process.pid });
  const sampler = poolSampler();
  const r = await castVotes({ url: server.url, connections: CONNECTIONS, seconds: SECONDS, ...args });
  const cpu = meter();
  const poolUse = await sampler.stop();
  const eld = await server.eldRead();
  const perBallot = {
    serverCpuMs: round((cpu.serverCores * 1000) / Math.max(1, r.okPerSec), 2),
    postgresCpuMs: round((cpu.postgresCores * 1000) / Math.max(1, r.okPerSec), 2),
  };
  results.phases[label] = { ...r, cpu, perBallot, eld: eld.stats, poolUse, broadcast: eld.broadcast };
  if (eld.broadcast?.count)
    say(
      `  results broadcasts: ${eld.broadcast.count}, ${eld.broadcast.meanMs} ms each on average (max ${eld.broadcast.maxMs} ms) of synchronous fan-out, ${eld.broadcast.totalMs} ms in all`,
    );
  say(
    `${label}: ${r.okPerSec} ballots/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non2xx ${r.non2xx}, errors ${r.errors}; event loop p99 ${eld.stats.p99} ms max ${eld.stats.max} ms; cpu ${JSON.stringify(cpu)}; CPU per ballot: server ${perBallot.serverCpuMs} ms, postgres ${perBallot.postgresCpuMs} ms${poolUse ? `; pool connections busy avg ${poolUse.busyAvg} of ${poolUse.openMax} (active ${poolUse.activeAvg} of which waiting for the server's next message ${poolUse.activeClientReadAvg}, idle in transaction ${poolUse.inTxIdleAvg})` : ''}`,
  );
  if (r.non2xx > 0) say(`  status codes: ${JSON.stringify(r.statusCodes)}`);
  return { ...r, eld: eld.stats, cpu };
}

async function resultsReads(label, server, tmp) {
  const res = await fetch(`${server.url}/api/v1/psk/results`);
  const body = Buffer.from(await res.arrayBuffer());
  const file = join(tmp, `${label}-body.json`);
  writeFileSync(file, body);
  const bare = fork(join(ROOT, 'bench/lib/bare-http.mjs'), [file], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise((resolve) => bare.once('message', (m) => resolve(m.port)));
  try {
    const READ_SECONDS = Math.max(3, Math.round(SECONDS * 0.6));
    const meterBare = cpuMeter({ bare: bare.pid });
    const base = await hammer({ url: `http://127.0.0.1:${port}`, path: '/', connections: 100, seconds: READ_SECONDS });
    const cpuBare = meterBare();
    await server.eldReset();
    const meter = cpuMeter({ server: server.pid });
    const real = await hammer({ url: server.url, path: '/api/v1/psk/results', connections: 100, seconds: READ_SECONDS });
    const cpu = meter();
    const eld = await server.eldRead();
    // Diagnostic: the server's cheapest route (GET /healthz: pino-http, helmet, a tiny res.json)
    // shows what the Express stack alone costs next to the bare server.
    const meterHealth = cpuMeter({ server: server.pid });
    const health = await hammer({ url: server.url, path: '/healthz', connections: 100, seconds: 3 });
    const cpuHealth = meterHealth();
    results.phases[label] = {
      bodyBytes: body.length,
      bare: { ...base, cpu: cpuBare },
      server: { ...real, cpu, eld: eld.stats },
      healthz: { ...health, cpu: cpuHealth },
    };
    const usPer = (r, cores) => round((cores * 1e6) / Math.max(1, r.okPerSec), 0);
    say(
      `${label}: body ${body.length} B; bare node:http ${base.okPerSec} req/s p99 ${base.p99} ms (${usPer(base, cpuBare.bareCores)} µs CPU/req); psk/results ${real.okPerSec} req/s p99 ${real.p99} ms non2xx ${real.non2xx} (${usPer(real, cpu.serverCores)} µs CPU/req); /healthz ${health.okPerSec} req/s (${usPer(health, cpuHealth.serverCores)} µs CPU/req); cpu ${JSON.stringify(cpu)}`,
    );
    return { base, real, health, bodyBytes: body.length };
  } finally {
    bare.send('stop');
  }
}

/** Sequential probe votes for the probe candidate while the load runs; answers [[count, sendTime]]. */
function startProbe(url, pool, seeded, base, intervalMs = 100) {
  let stopped = false;
  const sent = [];
  let count = base;
  let failures = 0;
  const done = (async () => {
    while (!stopped) {
      const id = pool.take();
      if (id === undefined) break;
      const t = nowMs();
      const res = await fetch(`${url}/api/v1/psk/vote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${pool.tokenOf(id)}` },
        body: JSON.stringify({
          candidates: { [seeded.positions.p1]: seeded.probeCandidate, [seeded.positions.p2]: seeded.standing.p2[0] },
        }),
      }).catch(() => undefined);
      await res?.text();
      if (res?.status === 201) sent.push([++count, t, nowMs()]);
      else failures++;
      const wait = intervalMs - (nowMs() - t);
      if (wait > 0) await sleep(wait);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await done;
      return { sent, failures };
    },
  };
}

async function probeCount(url, seeded) {
  const res = await fetch(`${url}/api/v1/psk/results`);
  const json = await res.json();
  const group = json.data.data.find((g) => g.position_id === seeded.positions.p1);
  return group?.values.find((v) => v.candidate_id === seeded.probeCandidate)?.count ?? 0;
}

function ask(child, message, type, timeoutMs) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`watcher process did not answer ${type}`)), timeoutMs);
    const onMessage = (m) => {
      if (m?.type === type) {
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(m);
      }
    };
    child.on('message', onMessage);
    if (message) child.send(message);
  });
}

async function liveFigure(server, pool, seeded, spread) {
  // Baseline: the same load (32 voters + the probe) with nobody watching.
  let base = await probeCount(server.url, seeded);
  let probe = startProbe(server.url, pool, seeded, base);
  const without = await measureVotes('live-no-watchers', server, { pool, choose: spread });
  await probe.stop();

  // 5,000 watchers from several processes (one process would saturate a core on its own).
  const processes = Math.max(1, Math.min(4, Math.ceil(WATCHERS / 2500)));
  const children = [];
  try {
    base = await probeCount(server.url, seeded);
    const t0 = nowMs();
    for (let i = 0; i < processes; i++) {
      const child = fork(join(ROOT, 'bench/lib/watchers.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      children.push(child);
      await ask(child, undefined, 'up', 10_000);
    }
    const share = Math.ceil(WATCHERS / processes);
    const connected = await Promise.all(
      children.map((child, i) =>
        ask(
          child,
          {
            type: 'connect',
            url: server.url,
            count: Math.min(share, WATCHERS - i * share),
            position: seeded.positions.p1,
            probeCandidate: seeded.probeCandidate,
            initialCount: base,
            connectSeconds: 60,
          },
          'connected',
          90_000,
        ),
      ),
    );
    const watching = connected.reduce((s, c) => s + c.count, 0);
    say(
      `live: ${watching} watchers connected and subscribed to results in ${round((nowMs() - t0) / 1000, 1)} s (${connected.reduce((s, c) => s + c.errors, 0)} connect errors)`,
    );
    await sleep(1000);

    probe = startProbe(server.url, pool, seeded, base);
    const meterWatchers = cpuMeter(Object.fromEntries(children.map((c, i) => [`watchers${i}`, c.pid])));
    const withWatchers = await measureVotes('live-with-watchers', server, { pool, choose: spread });
    const watcherCpu = meterWatchers();
    const probed = await probe.stop();
    await sleep(1500); // the trailing coalesced emit (≤ 250 ms) and its delivery
    const collected = await Promise.all(children.map((child) => ask(child, { type: 'collect', sent: probed.sent }, 'collected', 60_000)));
    const latencies = collected.flatMap((c) => c.latencies).sort((a, b) => a - b);
    const fromAck = collected.flatMap((c) => c.fromAck).sort((a, b) => a - b);
    const probeRtt = probed.sent.map(([, s, a]) => a - s).sort((a, b) => a - b);
    const missing = collected.reduce((s, c) => s + c.missing, 0);
    const messages = collected.reduce((s, c) => s + c.messages, 0);
    const live = {
      watchers: watching,
      probes: probed.sent.length,
      samples: latencies.length,
      missing,
      messagesPerWatcher: round(messages / Math.max(1, watching), 1),
      p50: round(percentile(latencies, 50), 1),
      p99: round(percentile(latencies, 99), 1),
      max: round(latencies[latencies.length - 1], 1),
      // From the probe's 201 (the commit is acknowledged) to the watcher: a lower bound of commit→watcher.
      ackP50: round(percentile(fromAck, 50), 1),
      ackP99: round(percentile(fromAck, 99), 1),
      probeVoteP99: round(percentile(probeRtt, 99), 1),
      watcherCpu,
    };
    results.phases.live = live;
    say(`live latency: ${JSON.stringify(live)}`);
    return { without, withWatchers, live };
  } finally {
    await Promise.all(children.map((child) => ask(child, { type: 'close' }, 'closed', 10_000).catch(() => child.kill())));
  }
}

async function signInFigure(server, sink, seeded, pool, spread) {
  const xsrf = await csrfPair(server.url);
  const VERIFY_SECONDS = Math.max(3, Math.round(SECONDS * 0.6));
  const half = Math.floor(seeded.signerNos.length / 2);
  // Idle baseline: codes first (step one), then verifications alone.
  const codesIdle = await requestCodes({
    url: server.url,
    sink,
    memberNos: seeded.signerNos.slice(0, half),
    phoneOf: seeded.phoneOf,
    seconds: 15,
  });
  say(
    `sign-in step one (verify/phone, idle): ${codesIdle.sends} codes sent, ${codesIdle.perSec}/s, p99 ${codesIdle.p99} ms, ${codesIdle.failures} failures`,
  );
  const idle = await verifyCodes({
    url: server.url,
    prepared: codesIdle.prepared,
    xsrf,
    connections: CONNECTIONS,
    seconds: VERIFY_SECONDS,
  });
  say(`sign-in verify/sms idle: ${idle.okPerSec}/s p99 ${idle.p99} ms non2xx ${idle.non2xx}${idle.exhausted ? ' (ran out of codes)' : ''}`);

  const codesLoaded = await requestCodes({
    url: server.url,
    sink,
    memberNos: seeded.signerNos.slice(half),
    phoneOf: seeded.phoneOf,
    seconds: 15,
  });
  say(`sign-in step one (verify/phone, second batch): ${codesLoaded.sends} codes sent, ${codesLoaded.perSec}/s`);
  await server.eldReset();
  const meter = cpuMeter({ server: server.pid });
  const sampler = poolSampler();
  const [loaded, votes] = await Promise.all([
    verifyCodes({ url: server.url, prepared: codesLoaded.prepared, xsrf, connections: CONNECTIONS, seconds: VERIFY_SECONDS }),
    castVotes({ url: server.url, pool, connections: CONNECTIONS, seconds: VERIFY_SECONDS, choose: spread }),
  ]);
  const cpu = meter();
  const poolUse = await sampler.stop();
  const eld = await server.eldRead();
  say(
    `sign-in verify/sms while casting: ${loaded.okPerSec}/s p99 ${loaded.p99} ms non2xx ${loaded.non2xx}${loaded.exhausted ? ' (ran out of codes)' : ''}; ballots meanwhile ${votes.okPerSec}/s p99 ${votes.p99} ms; event loop p99 ${eld.stats.p99} ms; cpu ${JSON.stringify(cpu)}; pool busy ${JSON.stringify(poolUse)}`,
  );
  results.phases.signin = {
    codesIdle: { ...codesIdle, prepared: undefined },
    idle,
    codesLoaded: { ...codesLoaded, prepared: undefined },
    loaded,
    votes,
    cpu,
    eld: eld.stats,
    poolUse,
  };
  return { idle, loaded, votes };
}

// Figure 7: ballots/s with two server processes on the same Postgres (what the compose scale
// profile runs as replicas; here two children on this machine, the Postgres adapter between them)
// against one, 32 voters in all either way, split evenly over the two.
async function replicasFigure(server, startPg, pool, spread) {
  await castVotes({ url: server.url, pool, connections: CONNECTIONS, seconds: 2, choose: spread });
  const one = await measureVotes('votes-1-process', server, { pool, choose: spread });
  const second = await startPg('pg-second');
  say(`second server process up at ${second.url} (pid ${second.pid})`);
  await castVotes({ url: second.url, pool, connections: CONNECTIONS / 2, seconds: 2, choose: spread });
  const [a, b] = await Promise.all(
    [server, second].map((s) => castVotes({ url: s.url, pool, connections: CONNECTIONS / 2, seconds: SECONDS, choose: spread })),
  );
  await second.stop();
  const two = { okPerSec: round(a.okPerSec + b.okPerSec, 1), p99: Math.max(a.p99, b.p99), non2xx: a.non2xx + b.non2xx };
  say(`votes-2-processes: ${two.okPerSec} ballots/s (${a.okPerSec} + ${b.okPerSec}), p99 ${two.p99} ms, non2xx ${two.non2xx}`);
  return { one, two };
}

async function postgresSuite(sink, tmp) {
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  cleanups.push(async () => {
    if (process.env.BENCH_KEEP_DB !== '1') await admin.unsafe(`drop database if exists ${DB_NAME} with (force)`).catch(() => {});
    await admin.end({ timeout: 5 });
  });
  await admin.unsafe(`drop database if exists ${DB_NAME} with (force)`);
  await admin.unsafe(`create database ${DB_NAME}`);
  const db = postgres(BENCH_URL, { max: 2, onnotice: () => {} });
  cleanups.unshift(() => db.end({ timeout: 5 }));
  benchDb = db;
  const exec = (text) => db.unsafe(text);
  const env = serverEnv({ DATABASE_URL: BENCH_URL, DATA_DIR: join(tmp, 'pg-data'), SMS_WEBHOOK_URL: sink.url });

  // First start: migrations and reference data. Then seed, and restart so the results snapshot
  // (built at start) includes the seeded ballots.
  let server = await startServer({ env, label: 'pg-migrate' });
  await server.stop();
  const secret = randomBytes(16).toString('hex');
  const voters = Number(process.env.BENCH_VOTERS ?? 150_000);
  // Figure 1m's 3-seat position exists only when 1m runs, so the other figures see the same election as before it.
  const seeded = await seedElection(exec, { voters, signers: 8000, secret, multiSeat: ONLY.has('1m') });
  await seedBallots(exec, 10_000);
  await exec(`update election set voting_active = false where id = 1`);
  say(`postgres: seeded ${seeded.voterIds.length} voters with sessions, ${seeded.signerNos.length} sign-in members, 10,000 ballots`);

  // Figure 1 baseline first, while nothing else of ours runs.
  const pool = new VoterPool(seeded.voterIds, seeded.tokenOf);
  const pgbenchTps = ONLY.has('1') ? await pgbenchBaseline(db, seeded, pool) : undefined;

  const startPg = async (label) => {
    const s = await startServer({ env, label, profile: PROFILE });
    cleanups.unshift(() => s.stop());
    return s;
  };
  server = await startPg('pg');
  say(`postgres server up at ${server.url} (pid ${server.pid})`);
  const { p1, p2 } = seeded.positions;
  const spread = (i) => ({ [p1]: seeded.standing.p1[i % 3], [p2]: seeded.standing.p2[Math.floor(i / 3) % 3] });
  const hot = () => ({ [p1]: seeded.standing.p1[0], [p2]: seeded.standing.p2[0] });
  // Figure 1m: figure 1's two positions plus the 3-seat board, 3 distinct candidates of its 6 (all 20 sets in turn).
  const boardSets = seeded.board ? combinations(seeded.board.standing, seeded.board.seats) : [];
  const multiSeat = (i) => ({ ...spread(i), [seeded.board.id]: boardSets[i % boardSets.length] });

  let reads10k;
  if (ONLY.has('3')) reads10k = await resultsReads('results-10k', server, tmp);

  await exec(`update election set voting_active = true where id = 1`);
  const out = {};
  if (['1', '1m', '2', '4', '5', '6'].some((f) => ONLY.has(f))) {
    // Warm-up (JIT, pools, caches): discarded.
    await castVotes({ url: server.url, pool, connections: CONNECTIONS, seconds: 3, choose: spread });
    out.spread = await measureVotes('votes-spread', server, { pool, choose: spread });
  }
  if (ONLY.has('1m')) {
    // Right after figure 1 on the same server (a short warm-up for the multi-seat statement
    // shapes), then figure 1's load once more: 1m's baseline is the mean of the phases either side
    // of it, so neither the server's first seconds nor a later one favours either.
    await castVotes({ url: server.url, pool, connections: CONNECTIONS, seconds: 2, choose: multiSeat });
    out.multiSeat = await measureVotes('votes-multi-seat', server, { pool, choose: multiSeat });
    out.spreadAfter = await measureVotes('votes-spread-after-1m', server, { pool, choose: spread });
  }
  if (ONLY.has('2')) out.hot = await measureVotes('votes-hot', server, { pool, choose: hot });
  if (ONLY.has('4')) out.live = await liveFigure(server, pool, seeded, spread);
  if (ONLY.has('6')) out.signin = await signInFigure(server, sink, seeded, pool, spread);
  if (ONLY.has('7')) out.replicas = await replicasFigure(server, startPg, pool, spread);

  if (process.env.BENCH_EXTRA === '1') {
    // Diagnostic: how the connection pool (DATABASE_POOL_MAX, default 8) shapes figure 1.
    for (const size of [4, 20]) {
      await server.stop();
      server = await startServer({ env: { ...env, DATABASE_POOL_MAX: String(size) }, label: `pg-pool${size}`, profile: PROFILE });
      cleanups.unshift(() => server.stop());
      await castVotes({ url: server.url, pool, connections: CONNECTIONS, seconds: 2, choose: spread });
      out[`pool${size}`] = await measureVotes(`votes-spread-pool${size}`, server, { pool, choose: spread });
    }
  }

  let reads1m;
  if (ONLY.has('3')) {
    await exec(`update election set voting_active = false where id = 1`);
    await server.stop();
    const t = nowMs();
    const n = await seedBallots(exec, 1_000_000);
    say(`postgres: ballots topped up to ${n} in ${round((nowMs() - t) / 1000, 1)} s; restarting so the snapshot includes them`);
    server = await startPg('pg-1m');
    reads1m = await resultsReads('results-1m', server, tmp);
  }
  await server.stop();
  benchDb = undefined;
  say(`postgres: ${pool.next} voters used of ${pool.ids.length}`);
  return { pgbenchTps, reads10k, reads1m, ...out };
}

// ---------------------------------------------------------------------------------------------
// PGlite

async function pgliteSuite(sink, tmp) {
  const dataDir = join(tmp, 'pglite-data');
  const env = serverEnv({ DATA_DIR: dataDir, SMS_WEBHOOK_URL: sink.url });
  let server = await startServer({ env, label: 'pglite-migrate' });
  await server.stop();
  // The server is down: open its data folder here, seed, close.
  const t = nowMs();
  const lite = await PGlite.create(join(dataDir, 'pglite'));
  const exec = async (text) => (await lite.query(text)).rows;
  const secret = randomBytes(16).toString('hex');
  const seeded = await seedElection(exec, { voters: Number(process.env.BENCH_PGLITE_VOTERS ?? 12_000), signers: 10, secret });
  await lite.close();
  say(`pglite: seeded ${seeded.voterIds.length} voters in ${round((nowMs() - t) / 1000, 1)} s`);
  server = await startServer({ env, label: 'pglite', profile: PROFILE });
  cleanups.unshift(() => server.stop());
  const pool = new VoterPool(seeded.voterIds, seeded.tokenOf);
  const { p1, p2 } = seeded.positions;
  const spread = (i) => ({ [p1]: seeded.standing.p1[i % 3], [p2]: seeded.standing.p2[Math.floor(i / 3) % 3] });
  await castVotes({ url: server.url, pool, connections: CONNECTIONS, seconds: 2, choose: spread });
  const votes = await measureVotes('pglite-votes', server, { pool, choose: spread });
  await server.stop();
  return { votes };
}

// ---------------------------------------------------------------------------------------------
// Figure 8: the STV count of 1,000,000 ranked ballots (15 candidates, 5 seats) with @kura/count,
// in its own process (bench/lib/count-figure.ts) so that its peak memory is the count's alone.

async function countFigure() {
  say('figure 8: counting ranked ballots by STV (bench/lib/count-figure.ts)');
  const { stdout } = await run(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/lib/count-figure.ts')], {
    cwd: ROOT,
    env: process.env,
    maxBuffer: 1 << 20,
  });
  const stv = JSON.parse(stdout.trim().split('\n').at(-1));
  say(`stv count: ${JSON.stringify(stv)}`);
  results.phases.stvCount = stv;
  return stv;
}

// ---------------------------------------------------------------------------------------------

async function main() {
  say(
    `kura bench: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${round(totalmem() / 2 ** 30, 1)} GiB, Node ${process.version}, load average ${loadAverage()}`,
  );
  say(`phases of ${SECONDS} s, ${CONNECTIONS} voters, ${WATCHERS} watchers; figures ${[...ONLY].join(',')}`);
  const tmp = mkdtempSync(join(tmpdir(), 'kura-bench-'));
  cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
  let pg = {};
  let lite;
  if (SERVER_FIGURES) {
    const sink = await startSmsSink();
    cleanups.push(() => sink.close());
    pg = await postgresSuite(sink, tmp);
    lite = ONLY.has('5') ? await pgliteSuite(sink, tmp) : undefined;
  }
  const stv = ONLY.has('8') ? await countFigure() : undefined;

  console.log('\nFigures (value | baseline measured in this run | ratio | target):');
  if (pg.spread && pg.pgbenchTps) {
    const ratio = round(pg.spread.okPerSec / pg.pgbenchTps, 2);
    figure(
      '1',
      'ballots/s via HTTP, 32 voters, 2 positions',
      `${pg.spread.okPerSec}/s p99 ${pg.spread.p99} ms`,
      `pgbench ${round(pg.pgbenchTps, 0)} TPS`,
      ratio,
      '≥0.5, <100ms',
      ratio >= 0.5 && pg.spread.p99 < 100,
    );
  }
  if (pg.multiSeat && pg.spread && pg.spreadAfter) {
    const before = pg.spread;
    const after = pg.spreadAfter;
    const base = round((before.okPerSec + after.okPerSec) / 2, 1);
    const ratio = round(pg.multiSeat.okPerSec / base, 2);
    figure(
      '1m',
      'ballots/s, 2 positions + 3-seat (3 chosen)',
      `${pg.multiSeat.okPerSec}/s p99 ${pg.multiSeat.p99} ms`,
      `figure 1 load ${base}/s`,
      ratio,
      'record',
      true,
      `no target; baseline = mean of figure 1's load before (${before.okPerSec}/s p99 ${before.p99} ms) and after (${after.okPerSec}/s p99 ${after.p99} ms)`,
    );
  }
  if (pg.hot && pg.spread) {
    const ratio = round(pg.hot.okPerSec / pg.spread.okPerSec, 2);
    figure(
      '2',
      'hot candidate ballots/s',
      `${pg.hot.okPerSec}/s p99 ${pg.hot.p99} ms`,
      `spread ${pg.spread.okPerSec}/s`,
      ratio,
      '≥0.7',
      ratio >= 0.7,
    );
  }
  if (pg.reads10k) {
    const r = pg.reads10k;
    const ratio = round(r.real.okPerSec / r.base.okPerSec, 2);
    figure(
      '3a',
      'psk/results req/s, 100 conns, 10k ballots',
      `${r.real.okPerSec}/s p99 ${r.real.p99} ms`,
      `bare node:http ${r.base.okPerSec}/s`,
      ratio,
      '≥0.5',
      ratio >= 0.5,
    );
  }
  if (pg.reads10k && pg.reads1m) {
    const a = pg.reads10k.real;
    const b = pg.reads1m.real;
    const ratio = round(a.okPerSec / b.okPerSec, 2);
    const latRatio = round(b.p99 / Math.max(1, a.p99), 2);
    figure(
      '3b',
      'psk/results at 1M vs 10k ballots',
      `${b.okPerSec}/s p99 ${b.p99} ms`,
      `10k: ${a.okPerSec}/s p99 ${a.p99} ms`,
      ratio,
      '≤2×',
      ratio <= 2 && latRatio <= 2,
      `p99 ratio ${latRatio}; bare at 1M ${pg.reads1m.base.okPerSec}/s`,
    );
  }
  if (pg.live) {
    const { without, withWatchers, live } = pg.live;
    figure(
      '4a',
      `live: vote→watcher p99, ${live.watchers} watchers`,
      `p99 ${live.p99} ms p50 ${live.p50} ms`,
      `from 201: p99 ${live.ackP99} ms`,
      '-',
      '≤250ms',
      live.p99 <= 250 && live.missing === 0,
      `send→watcher; ${live.samples} samples, ${live.missing} missed; probe vote p99 ${live.probeVoteP99} ms`,
    );
    const ratio = round(withWatchers.okPerSec / without.okPerSec, 2);
    figure(
      '4b',
      'live: ballots/s with watchers',
      `${withWatchers.okPerSec}/s`,
      `no watchers ${without.okPerSec}/s`,
      ratio,
      '≥0.8',
      ratio >= 0.8,
    );
  }
  if (lite && pg.spread) {
    const ratio = round(lite.votes.okPerSec / pg.spread.okPerSec, 2);
    figure(
      '5a',
      'PGlite ballots/s',
      `${lite.votes.okPerSec}/s p99 ${lite.votes.p99} ms`,
      `Postgres ${pg.spread.okPerSec}/s`,
      ratio,
      '≥0.3',
      ratio >= 0.3,
    );
    figure(
      '5b',
      'PGlite event-loop delay p99 under load',
      `${lite.votes.eld.p99} ms (max ${lite.votes.eld.max})`,
      `Postgres ${pg.spread.eld.p99} ms`,
      '-',
      '≤50ms',
      lite.votes.eld.p99 <= 50,
    );
  }
  if (pg.signin) {
    const { idle, loaded, votes } = pg.signin;
    figure(
      '6',
      'SMS-code verifications/s, 32 conc., casting',
      `${loaded.okPerSec}/s p99 ${loaded.p99} ms`,
      `idle ${idle.okPerSec}/s p99 ${idle.p99} ms`,
      round(loaded.okPerSec / idle.okPerSec, 2),
      'p99<200ms',
      loaded.p99 < 200 && loaded.non2xx === 0,
      `ballots meanwhile ${votes.okPerSec}/s`,
    );
  }
  if (pg.replicas) {
    const { one, two } = pg.replicas;
    const ratio = round(two.okPerSec / one.okPerSec, 2);
    figure(
      '7',
      'ballots/s, 2 server processes vs 1',
      `${two.okPerSec}/s p99 ${two.p99} ms`,
      `1 process ${one.okPerSec}/s p99 ${one.p99} ms`,
      ratio,
      'record',
      true,
      `${cpus().length} cores shared with Postgres and the load generator`,
    );
  }
  if (stv) {
    const met = stv.countMs < 5000 && stv.peakRssMb < 500;
    figure(
      '8',
      `STV count, ${stv.ballots.toLocaleString('en')} ranked ballots, ${stv.candidates} cand., ${stv.seats} seats`,
      `${stv.countMs} ms, peak ${stv.peakRssMb} MB`,
      `CPU ${stv.countCpuMs} ms; RSS before count ${stv.rssBeforeCountMb} MB`,
      '-',
      '<5s, <500MB',
      met,
      `${stv.rounds} rounds, quota ${stv.quota}; generating the ballots took ${stv.generateMs} ms`,
    );
  }
  console.log(`\n${figureLines.join('\n')}\n`);
  const outDir = join(ROOT, 'bench/.results');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    JSON.stringify({ at: new Date().toISOString(), seconds: SECONDS, watchers: WATCHERS, loadAverage: loadAverage(), ...results }, null, 2),
  );
  say(`raw results: ${file}; total ${elapsed()}`);
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  console.error('bench failed:', error);
  exitCode = 1;
} finally {
  for (const fn of cleanups)
    await Promise.resolve()
      .then(fn)
      .catch(() => {});
}
process.exit(exitCode);
