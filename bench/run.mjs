// `pnpm bench`: the performance suite. Starts the BUILT server as a child process against
// a real Postgres (a database it creates and drops) and once against embedded PGlite, seeds an
// election straight into the database, and prints eight figures, each beside its baseline measured
// in this same run and the ratio against its target. Every loop is bounded by count and by time;
// all traffic goes to 127.0.0.1. Figure 8, the STV count of a million ranked ballots, needs no server.
// Each figure lives in bench/figures/<id>-<name>.mjs with its measure and its verdict (target and
// met or missed); this file seeds, starts the servers and runs them in order. See BENCHMARKS.md
// for what each figure means and the last record.
//
// Environment (all optional):
//   BENCH_PG_URL      admin URL of the Postgres to use (default postgres://postgres@127.0.0.1:5432/postgres)
//   BENCH_DB          database the bench creates and drops (default kura_bench)
//   BENCH_SECONDS     length of each measured load phase (default 10)
//   BENCH_WATCHERS    Socket.IO watchers of figures 4 and 4c (default 5000)
//   BENCH_CONNECTIONS concurrent voters (and sign-ins) of the load phases (default 32; fewer: a thread with headroom)
//   BENCH_REDIS_URL   Redis of figure 4c's two processes (default redis://127.0.0.1:6379; none: the Postgres adapter)
//   BENCH_4C_SHAPE    figure 4c's shape: even (default: voters and watchers half on each process) or split
//                     (voters and probe on the first, every watcher on the second: the compose realtime profile)
//   BENCH_USSD_MEMBERS members seeded for figure 10's USSD votes (default 12000)
//   BENCH_ONLY        comma-separated figures to run, e.g. "1,3" or "1m" (default all); "8" alone starts no server;
//                     "9" (a close beside an open election) closes election 1, so it runs after the other Postgres figures;
//                     "10" (the register) adds 100,000 members of a branch of their own
//   BENCH_COUNT_BALLOTS  ballots of figure 8's STV count (default 1,000,000)
//   BENCH_EVIDENCE_BALLOTS  ballots (rows of the ballot box, over 10 positions) of figure 11's evidence pack (default 100,000); "11" alone seeds only its own database
//   BENCH_PROFILE=1   write a V8 CPU profile of every server child into bench/.profiles/
//   BENCH_KEEP_DB=1   keep the database afterwards (for EXPLAIN ANALYZE)
//   BENCH_EXTRA=1     also measure figure 1 with DATABASE_POOL_MAX 4 and 20 (diagnostic; the default is 8)
//   BENCH_SERVER_ENV  extra server environment, "KEY=value,KEY2=value" (to try a setting)
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import * as votes from './figures/1-votes.mjs';
import * as multiSeat from './figures/1m-multi-seat.mjs';
import * as twoElections from './figures/1e-two-elections.mjs';
import * as hot from './figures/2-hot.mjs';
import * as reads from './figures/3-results-reads.mjs';
import * as live from './figures/4-live.mjs';
import * as liveTwo from './figures/4c-live-two-processes.mjs';
import * as pglite from './figures/5-pglite.mjs';
import * as signin from './figures/6-signin.mjs';
import * as replicas from './figures/7-replicas.mjs';
import * as stvCount from './figures/8-stv-count.mjs';
import * as closeBeside from './figures/9-close-beside-open.mjs';
import * as ussd from './figures/10-ussd.mjs';
import * as evidence from './figures/11-evidence.mjs';
import * as register from './figures/12-register.mjs';
import { createBench } from './lib/bench.mjs';
import { castVotes, VoterPool } from './lib/load.mjs';
import { seedBallots, seedElection } from './lib/seed.mjs';
import { serverEnv, startServer } from './lib/server.mjs';
import { startSmsSink } from './lib/sms-sink.mjs';
import { loadAverage, nowMs, ROOT, round } from './lib/util.mjs';

const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_DB ?? 'kura_bench';
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 5000);
const ONLY = new Set((process.env.BENCH_ONLY ?? '1,1m,1e,2,3,4,4c,5,6,7,8,9,10,11,12').split(',').map((s) => s.trim()));
// Figure 8 (the STV count) needs no server or database: `BENCH_ONLY=8` runs it alone.
/** Members for figure 10's USSD sessions (each votes once, by USSD). */
const USSD_MEMBERS = Number(process.env.BENCH_USSD_MEMBERS ?? 12_000);
const SERVER_FIGURES = [...ONLY].some((id) => id !== '8');
// Figure 11 (the evidence pack) seeds a database of its own: `BENCH_ONLY=11` runs it alone.
const POSTGRES_SUITE = [...ONLY].some((id) => id !== '8' && id !== '11');
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

const b = createBench({
  seconds: Number(process.env.BENCH_SECONDS ?? 10),
  watchers: WATCHERS,
  connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
  profile: process.env.BENCH_PROFILE === '1',
});
const { say, cleanups } = b;

// ---------------------------------------------------------------------------------------------
// Postgres: seed once, then the figures in an order where none disturbs another's baseline.

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
  b.sampleDatabase(db);
  const exec = (text) => db.unsafe(text);
  const env = serverEnv({ DATABASE_URL: BENCH_URL, DATA_DIR: join(tmp, 'pg-data'), SMS_WEBHOOK_URL: sink.url });

  // First start: migrations and reference data. Then seed, and restart so the results snapshot
  // (built at start) includes the seeded ballots.
  let server = await startServer({ env, label: 'pg-migrate' });
  await server.stop();
  const secret = randomBytes(16).toString('hex');
  // Enough for every figure at ~2,000 ballots/s (150,000 ran out by figure 4 on a 2-core AMD EPYC).
  const voters = Number(process.env.BENCH_VOTERS ?? 400_000);
  // Figure 1m's 3-seat position exists only when 1m runs, so the other figures see the same election as before it.
  const seeded = await seedElection(exec, {
    voters,
    // Figure 10's USSD voters come after figure 6's 8,000 sign-in members.
    signers: 8000 + (ONLY.has('10') ? USSD_MEMBERS : 0),
    secret,
    multiSeat: ONLY.has('1m'),
    secondElection: ONLY.has('1e') || ONLY.has('9'),
  });
  const ussdNos = seeded.signerNos.splice(8000);
  // Figure 9 closes election 1 with 100,000 archived ballots of its own (it runs last).
  await seedBallots(exec, ONLY.has('9') ? 100_000 : 10_000);
  await exec(`update election set voting_active = false where id = 1`);
  say(`postgres: seeded ${seeded.voterIds.length} voters with sessions, ${seeded.signerNos.length} sign-in members, 10,000 ballots`);

  // Figure 1's baseline first, while nothing else of ours runs.
  const pool = new VoterPool(seeded.voterIds, seeded.tokenOf);
  const pgbenchTps = ONLY.has('1') ? await votes.baseline(b, { db, benchUrl: BENCH_URL, dbName: DB_NAME, seeded, pool }) : undefined;

  const startPg = async (label, extraEnv = {}) => {
    const s = await startServer({ env: { ...env, ...extraEnv }, label, profile: b.profile });
    cleanups.unshift(() => s.stop());
    return s;
  };
  server = await startPg('pg');
  say(`postgres server up at ${server.url} (pid ${server.pid})`);
  const { p1, p2 } = seeded.positions;
  const spread = (i) => ({ [p1]: seeded.standing.p1[i % 3], [p2]: seeded.standing.p2[Math.floor(i / 3) % 3] });
  const run = { server, pool, seeded, spread, sink, tmp, startPg };

  const out = { pgbenchTps };
  if (ONLY.has('3')) out.reads10k = await reads.measure(b, { label: 'results-10k', server, tmp });

  await exec(`update election set voting_active = true where id = 1`);
  if (['1', '1m', '1e', '2', '4', '5', '6'].some((f) => ONLY.has(f))) out.spread = await votes.measure(b, run);
  if (ONLY.has('1m')) Object.assign(out, await multiSeat.measure(b, run));
  if (ONLY.has('1e')) Object.assign(out, await twoElections.measure(b, run));
  if (ONLY.has('2')) out.hot = await hot.measure(b, run);
  if (ONLY.has('4')) out.live = await live.measure(b, run);
  if (ONLY.has('4c')) out.liveTwo = await liveTwo.measure(b, run);
  if (ONLY.has('6')) out.signin = await signin.measure(b, run);
  if (ONLY.has('7')) out.replicas = await replicas.measure(b, run);
  if (ONLY.has('10')) Object.assign(out, await ussd.measure(b, { ...run, ussdNos }));
  if (ONLY.has('12')) Object.assign(out, await register.measure(b, { ...run, exec }));
  // Last: it closes election 1 (figure 3's 1m reads below read a closed election's results alike).
  if (ONLY.has('9')) Object.assign(out, await closeBeside.measure(b, { ...run, exec, ballotKey: env.BALLOT_KEY }));

  if (process.env.BENCH_EXTRA === '1') {
    // Diagnostic: how the connection pool (DATABASE_POOL_MAX, default 8) shapes figure 1.
    for (const size of [4, 20]) {
      await server.stop();
      server = await startServer({ env: { ...env, DATABASE_POOL_MAX: String(size) }, label: `pg-pool${size}`, profile: b.profile });
      cleanups.unshift(() => server.stop());
      await castVotes({ url: server.url, pool, connections: b.connections, seconds: 2, choose: spread });
      out[`pool${size}`] = await b.measureVotes(`votes-spread-pool${size}`, server, { pool, choose: spread });
    }
  }

  if (ONLY.has('3')) {
    await exec(`update election set voting_active = false where id = 1`);
    await server.stop();
    const t = nowMs();
    const n = await seedBallots(exec, 1_000_000);
    say(`postgres: ballots topped up to ${n} in ${round((nowMs() - t) / 1000, 1)} s; restarting so the snapshot includes them`);
    server = await startPg('pg-1m');
    out.reads1m = await reads.measure(b, { label: 'results-1m', server, tmp });
  }
  await server.stop();
  b.sampleDatabase(undefined);
  say(`postgres: ${pool.next} voters used of ${pool.ids.length}`);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Figure 11: the evidence pack of a closed 100,000-ballot election, in a database of its own.

async function evidenceSuite(sink, tmp) {
  const dbName = `${DB_NAME}_evidence`;
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  cleanups.push(async () => {
    if (process.env.BENCH_KEEP_DB !== '1') await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await admin.end({ timeout: 5 });
  });
  await admin.unsafe(`drop database if exists ${dbName} with (force)`);
  await admin.unsafe(`create database ${dbName}`);
  const db = postgres(url.toString(), { max: 2, onnotice: () => {} });
  cleanups.unshift(() => db.end({ timeout: 5 }));
  const exec = (text) => db.unsafe(text);
  // No mixing while it stands open: the close publishes and re-mixes the whole box.
  const env = serverEnv({ DATABASE_URL: url.toString(), DATA_DIR: join(tmp, 'evidence-data'), SMS_WEBHOOK_URL: sink.url });
  let server = await startServer({ env, label: 'evidence-migrate' });
  await server.stop();
  const t = nowMs();
  const seeded = await evidence.seed(exec, { ballots: Number(process.env.BENCH_EVIDENCE_BALLOTS ?? 100_000), ballotKey: env.BALLOT_KEY });
  say(`evidence: seeded ${seeded.rows} ballots (${seeded.voters} voters × 10 positions) in ${round((nowMs() - t) / 1000, 1)} s`);
  server = await startServer({ env, label: 'evidence', profile: b.profile });
  cleanups.unshift(() => server.stop());
  const closeMs = await evidence.close(exec);
  say(`evidence: election 1 closed (final commitment and audit) in ${closeMs} ms`);
  const out = await evidence.measure(b, { server, seeded, tmp, closeMs });
  await server.stop();
  return out;
}

// ---------------------------------------------------------------------------------------------

async function main() {
  say(
    `kura bench: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${round(totalmem() / 2 ** 30, 1)} GiB, Node ${process.version}, load average ${loadAverage()}`,
  );
  say(`phases of ${b.seconds} s, ${b.connections} voters, ${b.watchers} watchers; figures ${[...ONLY].join(',')}`);
  const tmp = mkdtempSync(join(tmpdir(), 'kura-bench-'));
  cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
  let measured = {};
  if (SERVER_FIGURES) {
    const sink = await startSmsSink();
    cleanups.push(() => sink.close());
    if (POSTGRES_SUITE) measured = await postgresSuite(sink, tmp);
    if (ONLY.has('5')) measured.lite = await pglite.measure(b, { sink, tmp });
    if (ONLY.has('11')) Object.assign(measured, await evidenceSuite(sink, tmp));
  }
  if (ONLY.has('8')) measured.stv = await stvCount.measure(b);

  console.log('\nFigures (value | baseline measured in this run | ratio | target):');
  for (const figure of [
    votes,
    multiSeat,
    twoElections,
    hot,
    reads,
    live,
    liveTwo,
    pglite,
    signin,
    replicas,
    stvCount,
    closeBeside,
    ussd,
    evidence,
    register,
  ])
    b.figure(...figure.verdict(measured));
  console.log(`\n${b.lines.join('\n')}\n`);
  const outDir = join(ROOT, 'bench/.results');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      { at: new Date().toISOString(), seconds: b.seconds, watchers: b.watchers, loadAverage: loadAverage(), ...b.results },
      null,
      2,
    ),
  );
  say(`raw results: ${file}; total ${b.elapsed()}`);
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
