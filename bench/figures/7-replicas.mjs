// Figure 7: ballots/s with two server processes on the same Postgres (what the compose scale
// profile runs as replicas; here two children on this machine, the Postgres adapter between them)
// against one, 32 voters in all either way, split evenly over the two. No target: reported.
import { cpus } from 'node:os';
import { castVotes } from '../lib/load.mjs';
import { round } from '../lib/util.mjs';

export async function measure(b, { server, startPg, pool, spread }) {
  await castVotes({ url: server.url, pool, connections: b.connections, seconds: 2, choose: spread });
  const one = await b.measureVotes('votes-1-process', server, { pool, choose: spread });
  const second = await startPg('pg-second');
  b.say(`second server process up at ${second.url} (pid ${second.pid})`);
  await castVotes({ url: second.url, pool, connections: b.connections / 2, seconds: 2, choose: spread });
  const [ra, rb] = await Promise.all(
    [server, second].map((s) => castVotes({ url: s.url, pool, connections: b.connections / 2, seconds: b.seconds, choose: spread })),
  );
  await second.stop();
  const two = { okPerSec: round(ra.okPerSec + rb.okPerSec, 1), p99: Math.max(ra.p99, rb.p99), non2xx: ra.non2xx + rb.non2xx };
  b.say(`votes-2-processes: ${two.okPerSec} ballots/s (${ra.okPerSec} + ${rb.okPerSec}), p99 ${two.p99} ms, non2xx ${two.non2xx}`);
  return { one, two };
}

/** @returns {import('../lib/bench.mjs').FigureRow[]} */
export function verdict({ replicas }) {
  if (!replicas) return [];
  const { one, two } = replicas;
  return [
    {
      id: '7',
      name: 'ballots/s, 2 server processes vs 1',
      value: `${two.okPerSec}/s p99 ${two.p99} ms`,
      baseline: `1 process ${one.okPerSec}/s p99 ${one.p99} ms`,
      ratio: round(two.okPerSec / one.okPerSec, 2),
      target: 'record',
      met: true,
      note: `${cpus().length} cores shared with Postgres and the load generator`,
    },
  ];
}
