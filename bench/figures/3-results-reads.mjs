// Figure 3: reads of the public results (GET psk/results, 100 connections) against a bare
// node:http server answering the same bytes. 3a at 10,000 ballots (target: at least half the bare
// rate); 3b the same at 1,000,000 ballots against 10,000 (target: rate and p99 within 2×).
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hammer } from '../lib/load.mjs';
import { cpuMeter, ROOT, round } from '../lib/util.mjs';

/** One read phase (`label` results-10k or results-1m): bare node:http, psk/results, /healthz. */
export async function measure(b, { label, server, tmp }) {
  const res = await fetch(`${server.url}/api/v1/psk/results`);
  const body = Buffer.from(await res.arrayBuffer());
  const file = join(tmp, `${label}-body.json`);
  writeFileSync(file, body);
  const bare = fork(join(ROOT, 'bench/lib/bare-http.mjs'), [file], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise((resolve) => bare.once('message', (m) => resolve(m.port)));
  try {
    const READ_SECONDS = Math.max(3, Math.round(b.seconds * 0.6));
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
    b.results.phases[label] = {
      bodyBytes: body.length,
      bare: { ...base, cpu: cpuBare },
      server: { ...real, cpu, eld: eld.stats },
      healthz: { ...health, cpu: cpuHealth },
    };
    const usPer = (r, cores) => round((cores * 1e6) / Math.max(1, r.okPerSec), 0);
    b.say(
      `${label}: body ${body.length} B; bare node:http ${base.okPerSec} req/s p99 ${base.p99} ms (${usPer(base, cpuBare.bareCores)} µs CPU/req); psk/results ${real.okPerSec} req/s p99 ${real.p99} ms non2xx ${real.non2xx} (${usPer(real, cpu.serverCores)} µs CPU/req); /healthz ${health.okPerSec} req/s (${usPer(health, cpuHealth.serverCores)} µs CPU/req); cpu ${JSON.stringify(cpu)}`,
    );
    return { base, real, health, bodyBytes: body.length };
  } finally {
    bare.send('stop');
  }
}

/** @returns {import('../lib/bench.mjs').FigureRow[]} */
export function verdict({ reads10k, reads1m }) {
  const rows = [];
  if (reads10k) {
    const r = reads10k;
    const ratio = round(r.real.okPerSec / r.base.okPerSec, 2);
    rows.push({
      id: '3a',
      name: 'psk/results req/s, 100 conns, 10k ballots',
      value: `${r.real.okPerSec}/s p99 ${r.real.p99} ms`,
      baseline: `bare node:http ${r.base.okPerSec}/s`,
      ratio,
      target: '≥0.5',
      met: ratio >= 0.5,
    });
  }
  if (reads10k && reads1m) {
    const a = reads10k.real;
    const c = reads1m.real;
    const ratio = round(a.okPerSec / c.okPerSec, 2);
    const latRatio = round(c.p99 / Math.max(1, a.p99), 2);
    rows.push({
      id: '3b',
      name: 'psk/results at 1M vs 10k ballots',
      value: `${c.okPerSec}/s p99 ${c.p99} ms`,
      baseline: `10k: ${a.okPerSec}/s p99 ${a.p99} ms`,
      ratio,
      target: '≤2×',
      met: ratio <= 2 && latRatio <= 2,
      note: `p99 ratio ${latRatio}; bare at 1M ${reads1m.base.okPerSec}/s`,
    });
  }
  return rows;
}
