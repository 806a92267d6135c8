// A/B of figure 1 in short alternating windows: two checkouts' built servers up at once (each with
// its own database, seeded by its own bench code), 32 voters casting against one at a time for
// WINDOW seconds, A B then B A, ROUNDS times, so load from other work on the machine hits both
// alike. Not part of `pnpm bench`; see BENCHMARKS.md. Both trees must be built (`pnpm build`).
// usage: node bench/ab.mjs TREE_A TREE_B [ROUNDS=10] [WINDOW_S=8]
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import postgres from 'postgres';
import { serverEnv } from './lib/server.mjs';
import { startSmsSink } from './lib/sms-sink.mjs';
import { alternate, freshDatabase, median, postgresCpuSince, tearDown } from './lib/ab.mjs';
import { postgresCpuByPid, processCpuMs, round, sleep } from './lib/util.mjs';

const [treeA, treeB, roundsArg, windowArg] = process.argv.slice(2);
if (!treeA || !treeB) throw new Error('usage: node bench/ab.mjs TREE_A TREE_B [ROUNDS] [WINDOW_S]');
const TREES = { A: resolve(treeA), B: resolve(treeB) };
const ROUNDS = Number(roundsArg ?? 10);
const WINDOW = Number(windowArg ?? 8);
const GAP_MS = 3000; // the mixer (every 2 s) moves the window's queue before the other side's window
const ADMIN = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const tmp = mkdtempSync(join(tmpdir(), 'kura-ab-'));
const admin = postgres(ADMIN, { max: 1, onnotice: () => {} });
const sides = {};
const sink = await startSmsSink();

for (const [name, root] of Object.entries(TREES)) {
  const { startServer } = await import(`${root}/bench/lib/server.mjs`);
  const { seedElection, seedBallots } = await import(`${root}/bench/lib/seed.mjs`);
  const { castVotes, VoterPool } = await import(`${root}/bench/lib/load.mjs`);
  const db = `kura_ab_${name.toLowerCase()}`;
  const url = await freshDatabase(admin, ADMIN, db);
  // The environment from this checkout's bench, the same for both sides.
  const env = serverEnv({ SMS_WEBHOOK_URL: sink.url, DATABASE_URL: url, DATA_DIR: join(tmp, name) });
  let server = await startServer({ env, label: `${name}-migrate` });
  await server.stop();
  const sql = postgres(url, { max: 2, onnotice: () => {} });
  // 250,000 voters a side: 100,000 ran out in round 7 of 8-s windows at ~2,000 ballots/s (AMD EPYC).
  const seeded = await seedElection((t) => sql.unsafe(t), { voters: 250_000, signers: 10, secret: randomBytes(16).toString('hex') });
  await seedBallots((t) => sql.unsafe(t), 10_000);
  // The voting switch: a settings key before migration 0011, a column of `election` since; either tree may be old.
  await sql.unsafe(`update settings set value = '1' where key = 'election_active'`);
  await sql.unsafe(`update election set voting_active = true where id = 1`).catch(() => {});
  await sql.end();
  server = await startServer({ env, label: name });
  const pool = new VoterPool(seeded.voterIds, seeded.tokenOf);
  const { p1, p2 } = seeded.positions;
  const spread = (i) => ({ [p1]: seeded.standing.p1[i % 3], [p2]: seeded.standing.p2[Math.floor(i / 3) % 3] });
  sides[name] = { server, pool, castVotes, spread, db, runs: [] };
  console.log(`${name}: ${root} up at ${server.url}`);
}

/**
 * One window: `seconds` of casting, then GAP_MS in which the mixer moves what the window queued.
 * CPU per ballot spans both (server process, and the Postgres backends of the side's database
 * with the shared WAL writer and checkpointer), so a costlier mixer pass is counted.
 */
const window = async (name, seconds) => {
  const s = sides[name];
  process.env.BENCH_DB = s.db;
  const cpu0 = processCpuMs(s.server.pid);
  const pg0 = postgresCpuByPid();
  const r = await s.castVotes({ url: s.server.url, pool: s.pool, connections: 32, seconds, choose: s.spread });
  await sleep(GAP_MS);
  const cpuMs = processCpuMs(s.server.pid) - cpu0;
  const pgMs = postgresCpuSince(pg0);
  return { ...r, serverCpuMsPerBallot: round(cpuMs / Math.max(1, r.ok), 2), postgresCpuMsPerBallot: round(pgMs / Math.max(1, r.ok), 2) };
};

try {
  await alternate({
    sides,
    rounds: ROUNDS,
    windowS: WINDOW,
    warmupS: 3,
    window,
    describe: (r) =>
      `${r.okPerSec}/s p99 ${r.p99} ms non2xx ${r.non2xx}, CPU per ballot: server ${r.serverCpuMsPerBallot} ms, postgres ${r.postgresCpuMsPerBallot} ms`,
  });
  for (const name of ['A', 'B']) {
    const runs = sides[name].runs;
    console.log(
      `${name}: median ${median(runs.map((r) => r.okPerSec))}/s, p99 median ${median(runs.map((r) => r.p99))} ms, CPU per ballot medians: server ${median(runs.map((r) => r.serverCpuMsPerBallot))} ms, postgres ${median(runs.map((r) => r.postgresCpuMsPerBallot))} ms`,
    );
  }
  const ratios = sides.B.runs.map((r, i) => r.okPerSec / sides.A.runs[i].okPerSec);
  console.log(`B/A per round: ${ratios.map((x) => round(x, 2)).join(' ')}; median ${round(median(ratios), 2)}`);
} finally {
  await tearDown({ sides, admin, sink, tmp });
}
