// Renders a bench/.results/*.json run as Markdown tables (for BENCHMARKS.md).
// Usage: node bench/lib/report.mjs [file]   (default: the newest run)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './util.mjs';

const dir = join(ROOT, 'bench/.results');
const file =
  process.argv[2] ??
  join(
    dir,
    readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .at(-1),
  );
const run = JSON.parse(readFileSync(file, 'utf8'));
const { figures, phases } = run;

console.log(`Run of ${run.at} (phases of ${run.seconds} s, ${run.watchers} watchers; load average at the end ${run.loadAverage})\n`);
console.log('| # | Figure | Measured | Baseline (same run) | Ratio | Target | |');
console.log('|---|---|---|---|---|---|---|');
for (const [id, f] of Object.entries(figures).sort((a, b) => a[0].localeCompare(b[0], 'en', { numeric: true }))) {
  console.log(
    `| ${id} | ${f.name} | ${f.value} | ${f.baseline} | ${f.ratio} | ${f.target} | ${f.met ? '**met**' : '**missed**'}${f.note ? ` (${f.note})` : ''} |`,
  );
}

console.log('\nPhases (CPU in cores of the 2; per-ballot CPU = cores ÷ rate):\n');
console.log(
  '| Phase | Rate | p50 / p99 ms | Server CPU | Postgres CPU | Per op: server / postgres ms | Event loop p99 / max ms | Pool busy (of 8 by default) |',
);
console.log('|---|---|---|---|---|---|---|---|');
const row = (name, r) => {
  if (!r) return;
  const cpu = r.cpu ?? {};
  const per = r.perBallot ? `${r.perBallot.serverCpuMs} / ${r.perBallot.postgresCpuMs}` : '';
  const eld = r.eld ? `${r.eld.p99} / ${r.eld.max}` : '';
  const pool = r.poolUse
    ? `${r.poolUse.busyAvg} (active ${r.poolUse.activeAvg ?? '?'}, of which ClientRead ${r.poolUse.activeClientReadAvg ?? '?'}, idle in tx ${r.poolUse.inTxIdleAvg ?? '?'})`
    : '';
  console.log(
    `| ${name} | ${r.okPerSec ?? r.tps}/s | ${r.p50 ?? ''} / ${r.p99 ?? ''} | ${cpu.serverCores ?? ''} | ${cpu.postgresCores ?? ''} | ${per} | ${eld} | ${pool} |`,
  );
};
if (phases.pgbench)
  console.log(
    `| pgbench (32 clients, prepared) | ${Math.round(phases.pgbench.tps)}/s | avg ${phases.pgbench.latencyAvgMs} | – | ${phases.pgbench.cpu?.postgresCores} | – / ${phases.pgbench.postgresCpuMs} | |`,
  );
for (const [k, r] of Object.entries(phases.driver ?? {}))
  console.log(
    `| vote SQL via postgres.js, ${k} (no HTTP) | ${r.tps}/s | – / ${r.p99} | ${r.cpu?.benchCores} (bench) | ${r.cpu?.postgresCores} | ${r.nodeCpuMs} / ${r.postgresCpuMs} | |`,
  );
for (const k of [
  'votes-spread',
  'votes-multi-seat',
  'votes-spread-after-1m',
  'votes-hot',
  'votes-spread-pool4',
  'votes-spread-pool20',
  'live-no-watchers',
  'live-with-watchers',
  'pglite-votes',
])
  row(k, phases[k]);
for (const k of ['results-10k', 'results-1m']) {
  const r = phases[k];
  if (!r) continue;
  row(`${k}: bare node:http`, { ...r.bare, cpu: { serverCores: r.bare.cpu?.bareCores, postgresCores: r.bare.cpu?.postgresCores } });
  row(`${k}: psk/results`, r.server);
  row(`${k}: /healthz`, r.healthz);
}
if (phases.signin) {
  const s = phases.signin;
  console.log(`| sign-in step 1 (verify/phone), idle | ${s.codesIdle.perSec}/s | – / ${s.codesIdle.p99} | | | | |`);
  row('sign-in verify/sms, idle', s.idle);
  row('sign-in verify/sms while casting', { ...s.loaded, cpu: s.cpu, eld: s.eld });
  row('ballots during sign-in', s.votes);
}
if (phases.live) console.log(`\nLive: ${JSON.stringify(phases.live)}`);
for (const k of ['live-no-watchers', 'live-with-watchers'])
  if (phases[k]?.broadcast?.count) console.log(`Broadcasts during ${k}: ${JSON.stringify(phases[k].broadcast)}`);
