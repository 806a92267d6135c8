// The bench's shared state for one run: its settings, the log lines, the figure rows and raw
// results, the cleanups, and the measure every ballot-rate figure uses (`measureVotes`).
import { castVotes } from './load.mjs';
import { cpuMeter, percentile, round, sleep } from './util.mjs';

/**
 * One figure row: `value` beside its `baseline` measured in the same run, their `ratio`, the
 * `target` and whether it was `met`. Each figure's file builds its rows in its `verdict`.
 * @typedef {{ id: string, name: string, value: string, baseline: string, ratio: number|string, target: string, met: boolean, note?: string }} FigureRow
 */

export function createBench({ seconds, watchers, connections, profile }) {
  const t0 = Date.now();
  const results = { figures: {}, phases: {} };
  const lines = [];
  const cleanups = [];
  let sampledDb;

  const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(0)}s`;
  const say = (line) => console.log(`[${elapsed()}] ${line}`);

  /** Records and prints figure rows. */
  function figure(...rows) {
    for (const { id, name, value, baseline, ratio, target, met, note = '' } of rows) {
      results.figures[id] = { name, value, baseline, ratio, target, met, note };
      const line = `${id.padEnd(4)} ${name.padEnd(44)} ${String(value).padEnd(22)} ${String(baseline).padEnd(30)} ${String(ratio).padEnd(9)} ${target.padEnd(12)} ${met ? 'MET' : 'MISSED'}${note ? `  (${note})` : ''}`;
      lines.push(line);
      say(line);
    }
  }

  /** Samples the server's pool connections in pg_stat_activity every 100 ms: how many are busy. */
  function poolSampler() {
    const db = sampledDb;
    if (!db) return { stop: async () => undefined };
    let stopped = false;
    const samples = [];
    const loop = (async () => {
      while (!stopped) {
        const rows = await db
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

  /** One measured phase of 32 voters casting for `seconds`: rate, latency, event loop, CPU per ballot. */
  async function measureVotes(label, server, args) {
    await server.eldReset();
    const meter = cpuMeter({ server: server.pid, bench: process.pid });
    const sampler = poolSampler();
    const r = await castVotes({ url: server.url, connections, seconds, ...args });
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
        `  results broadcasts: ${eld.broadcast.count}, ${eld.broadcast.meanMs} ms each on average (max ${eld.broadcast.maxMs} ms) of synchronous fan-out, ${eld.broadcast.totalMs} ms in all; ${eld.broadcast.sockets} socket writes, ${eld.broadcast.usPerSocket} µs each; payload ${eld.broadcast.payloadBytes} bytes`,
      );
    say(
      `${label}: ${r.okPerSec} ballots/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non2xx ${r.non2xx}, errors ${r.errors}; event loop p99 ${eld.stats.p99} ms max ${eld.stats.max} ms; cpu ${JSON.stringify(cpu)}; CPU per ballot: server ${perBallot.serverCpuMs} ms, postgres ${perBallot.postgresCpuMs} ms${poolUse ? `; pool connections busy avg ${poolUse.busyAvg} of ${poolUse.openMax} (active ${poolUse.activeAvg} of which waiting for the server's next message ${poolUse.activeClientReadAvg}, idle in transaction ${poolUse.inTxIdleAvg})` : ''}`,
    );
    if (r.non2xx > 0) say(`  status codes: ${JSON.stringify(r.statusCodes)}`);
    return { ...r, eld: eld.stats, cpu };
  }

  return {
    seconds,
    watchers,
    connections,
    profile,
    results,
    lines,
    cleanups,
    elapsed,
    say,
    figure,
    measureVotes,
    poolSampler,
    /** The bench database whose pool connections `measureVotes` samples (none: no sampling). */
    sampleDatabase(db) {
      sampledDb = db;
    },
  };
}
