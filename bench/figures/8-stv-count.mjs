// Figure 8: the STV count of 1,000,000 ranked ballots (15 candidates, 5 seats) with @kura/count,
// in its own process (bench/lib/count-figure.ts) so that its peak memory is the count's alone. No
// server, no database. Target: under 5 s and under 500 MB.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../lib/util.mjs';

const run = promisify(execFile);

export async function measure(b) {
  b.say('figure 8: counting ranked ballots by STV (bench/lib/count-figure.ts)');
  const { stdout } = await run(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/lib/count-figure.ts')], {
    cwd: ROOT,
    env: process.env,
    maxBuffer: 1 << 20,
  });
  const stv = JSON.parse(stdout.trim().split('\n').at(-1));
  b.say(`stv count: ${JSON.stringify(stv)}`);
  b.results.phases.stvCount = stv;
  return stv;
}

/** @returns {import('../lib/bench.mjs').FigureRow[]} */
export function verdict({ stv }) {
  if (!stv) return [];
  return [
    {
      id: '8',
      name: `STV count, ${stv.ballots.toLocaleString('en')} ranked ballots, ${stv.candidates} cand., ${stv.seats} seats`,
      value: `${stv.countMs} ms, peak ${stv.peakRssMb} MB`,
      baseline: `CPU ${stv.countCpuMs} ms; RSS before count ${stv.rssBeforeCountMb} MB`,
      ratio: '-',
      target: '<5s, <500MB',
      met: stv.countMs < 5000 && stv.peakRssMb < 500,
      note: `${stv.rounds} rounds, quota ${stv.quota}; generating the ballots took ${stv.generateMs} ms`,
    },
  ];
}
