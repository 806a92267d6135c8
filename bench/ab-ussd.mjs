// A/B of figure 10 (voting by USSD) in short alternating windows: two checkouts' built servers up
// at once (each with its own database, seeded alike), and in each round, for each side in turn
// (A B, then B A), WINDOW seconds of web ballots then WINDOW seconds of whole USSD sessions, both
// 32 at a time, so load from other work on the machine hits both alike. The USSD client is this
// checkout's (figure 10's), the same for both sides. CPU per USSD session is counted for the
// server process, the Postgres backends of the side's database (with the shared WAL writer and
// checkpointer) and this process (the client). Not part of `pnpm bench`; see BENCHMARKS.md.
// Both trees must be built (`pnpm build`).
// usage: node bench/ab-ussd.mjs TREE_A TREE_B [ROUNDS=6] [WINDOW_S=8] [STORE=postgres|redis]
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import postgres from 'postgres';
import { ussdVotes } from './figures/10-ussd.mjs';
import { serverEnv } from './lib/server.mjs';
import { startSmsSink } from './lib/sms-sink.mjs';
import { alternate, freshDatabase, median, postgresCpuSince, tearDown } from './lib/ab.mjs';
import { postgresCpuByPid, processCpuMs, round, sleep } from './lib/util.mjs';

const [treeA, treeB, roundsArg, windowArg, storeArg] = process.argv.slice(2);
if (!treeA || !treeB) throw new Error('usage: node bench/ab-ussd.mjs TREE_A TREE_B [ROUNDS] [WINDOW_S] [STORE]');
const TREES = { A: resolve(treeA), B: resolve(treeB) };
const ROUNDS = Number(roundsArg ?? 6);
const WINDOW = Number(windowArg ?? 8);
const STORE = storeArg ?? 'postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PREFIX = process.env.BENCH_AB_DB ?? 'kura_abussd';
const tmp = mkdtempSync(join(tmpdir(), 'kura-abussd-'));
const admin = postgres(ADMIN, { max: 1, onnotice: () => {} });
const token = randomBytes(24).toString('hex');
const sides = {};
const sink = await startSmsSink();

try {
  for (const [name, root] of Object.entries(TREES)) {
    const { startServer } = await import(`${root}/bench/lib/server.mjs`);
    const { seedElection, seedBallots } = await import(`${root}/bench/lib/seed.mjs`);
    const { castVotes, VoterPool } = await import(`${root}/bench/lib/load.mjs`);
    const db = `${PREFIX}_${name.toLowerCase()}`;
    const url = await freshDatabase(admin, ADMIN, db);
    const env = serverEnv({
      SMS_WEBHOOK_URL: sink.url,
      DATABASE_URL: url,
      DATA_DIR: join(tmp, name),
      USSD_CALLBACK_TOKEN: token,
      ...(STORE === 'redis' ? { REDIS_URL } : {}),
    });
    let server = await startServer({ env, label: `ussd-${name}-migrate` });
    await server.stop();
    const sql = postgres(url, { max: 2, onnotice: () => {} });
    const seeded = await seedElection((t) => sql.unsafe(t), {
      voters: Number(process.env.BENCH_AB_VOTERS ?? 80_000),
      signers: Number(process.env.BENCH_AB_SIGNERS ?? 12_000),
      secret: randomBytes(16).toString('hex'),
    });
    await seedBallots((t) => sql.unsafe(t), 10_000);
    await sql.end();
    server = await startServer({ env, label: `ussd-${name}`, profile: process.env.BENCH_PROFILE === '1' });
    const pool = new VoterPool(seeded.voterIds, seeded.tokenOf);
    const { p1, p2 } = seeded.positions;
    const spread = (i) => ({ [p1]: seeded.standing.p1[i % 3], [p2]: seeded.standing.p2[Math.floor(i / 3) % 3] });
    sides[name] = { server, pool, castVotes, spread, db, seeded, memberNos: [...seeded.signerNos], runs: [] };
    console.log(`${name}: ${root} up at ${server.url} (store ${STORE})`);
  }

  /** One side's round: web ballots for `seconds`, then USSD sessions for `seconds` with CPU counted. */
  const window = async (name, seconds) => {
    const s = sides[name];
    process.env.BENCH_DB = s.db;
    const web = await s.castVotes({ url: s.server.url, pool: s.pool, connections: 32, seconds, choose: s.spread });
    await sleep(1000);
    const cpu0 = processCpuMs(s.server.pid);
    const pg0 = postgresCpuByPid();
    const me0 = process.cpuUsage();
    const ussd = await ussdVotes({
      url: s.server.url,
      token,
      sink,
      memberNos: s.memberNos,
      phoneOf: s.seeded.phoneOf,
      connections: 32,
      seconds,
    });
    s.memberNos.splice(0, ussd.used);
    const cpuMs = processCpuMs(s.server.pid) - cpu0;
    const pgMs = postgresCpuSince(pg0);
    const me = process.cpuUsage(me0);
    const n = Math.max(1, ussd.votes);
    await sleep(1000);
    return {
      web: web.okPerSec,
      ussd: ussd.votesPerSec,
      failed: ussd.failed,
      ratio: round(ussd.votesPerSec / web.okPerSec, 3),
      steps: ussd.stepP50,
      serverMs: round(cpuMs / n, 1),
      pgMs: round(pgMs / n, 1),
      clientMs: round((me.user + me.system) / 1000 / n, 1),
    };
  };

  await alternate({
    sides,
    rounds: ROUNDS,
    windowS: WINDOW,
    warmupS: 2,
    window,
    describe: (r) =>
      `USSD ${r.ussd}/s (${r.failed} failed), web ${r.web}/s, ratio ${r.ratio}; CPU per USSD session: server ${r.serverMs} ms, postgres ${r.pgMs} ms, client ${r.clientMs} ms; step p50 ${JSON.stringify(r.steps)}`,
  });
  for (const name of ['A', 'B']) {
    const runs = sides[name].runs;
    console.log(
      `${name}: medians USSD ${median(runs.map((r) => r.ussd))}/s, web ${median(runs.map((r) => r.web))}/s, ratio ${median(runs.map((r) => r.ratio))}; CPU per session: server ${median(runs.map((r) => r.serverMs))} ms, postgres ${median(runs.map((r) => r.pgMs))} ms, client ${median(runs.map((r) => r.clientMs))} ms`,
    );
  }
  const ratios = sides.B.runs.map((r, i) => r.ussd / sides.A.runs[i].ussd);
  console.log(`USSD B/A per round: ${ratios.map((x) => round(x, 2)).join(' ')}; median ${round(median(ratios), 2)}`);
} finally {
  await tearDown({ sides, admin, sink, tmp });
}
