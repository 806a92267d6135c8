// Figure 5: the embedded database. The same 32 voters against a server on PGlite (its own data
// folder, 12,000 voters seeded with the server down). 5a: ballots/s against figure 1's Postgres
// load (target ≥ 0.3); 5b: the event loop's p99 delay under that load (target ≤ 50 ms).
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { castVotes, VoterPool } from '../lib/load.mjs';
import { seedElection } from '../lib/seed.mjs';
import { serverEnv, startServer } from '../lib/server.mjs';
import { randomBytes } from 'node:crypto';
import { nowMs, round } from '../lib/util.mjs';

export async function measure(b, { sink, tmp }) {
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
  b.say(`pglite: seeded ${seeded.voterIds.length} voters in ${round((nowMs() - t) / 1000, 1)} s`);
  server = await startServer({ env, label: 'pglite', profile: b.profile });
  b.cleanups.unshift(() => server.stop());
  const pool = new VoterPool(seeded.voterIds, seeded.tokenOf);
  const { p1, p2 } = seeded.positions;
  const spread = (i) => ({ [p1]: seeded.standing.p1[i % 3], [p2]: seeded.standing.p2[Math.floor(i / 3) % 3] });
  await castVotes({ url: server.url, pool, connections: b.connections, seconds: 2, choose: spread });
  const votes = await b.measureVotes('pglite-votes', server, { pool, choose: spread });
  await server.stop();
  return { votes };
}

/** @returns {import('../lib/bench.mjs').FigureRow[]} */
export function verdict({ lite, spread }) {
  if (!lite || !spread) return [];
  const ratio = round(lite.votes.okPerSec / spread.okPerSec, 2);
  return [
    {
      id: '5a',
      name: 'PGlite ballots/s',
      value: `${lite.votes.okPerSec}/s p99 ${lite.votes.p99} ms`,
      baseline: `Postgres ${spread.okPerSec}/s`,
      ratio,
      target: '≥0.3',
      met: ratio >= 0.3,
    },
    {
      id: '5b',
      name: 'PGlite event-loop delay p99 under load',
      value: `${lite.votes.eld.p99} ms (max ${lite.votes.eld.max})`,
      baseline: `Postgres ${spread.eld.p99} ms`,
      ratio: '-',
      target: '≤50ms',
      met: lite.votes.eld.p99 <= 50,
    },
  ];
}
