// Figure 1e: ballots/s with two elections open at once (an annual election and a by-election), 32
// voters each voting in both: every member casts figure 1's ballot in election 1 (the bare call,
// the current election) and a ballot of two positions in election 2 (`?election_id=2`), one after
// the other. No target: reported beside figure 1's load measured just before and just after it on
// the same server, as 1m is. The second election is seeded before the server starts (seed.mjs,
// `secondElection`), with every seeded member on its roll.
import { castVotes } from '../lib/load.mjs';
import { round } from '../lib/util.mjs';

/** Hands each member of `pool` out twice in a row: the first ballot in election 1, the second in election 2. */
function twice(pool) {
  let pending;
  return {
    ids: pool.ids,
    tokenOf: pool.tokenOf,
    take() {
      if (pending !== undefined) {
        const id = pending;
        pending = undefined;
        return id;
      }
      pending = pool.take();
      return pending;
    },
  };
}

export async function measure(b, { server, pool, seeded, spread }) {
  const { id, p1, p2, standing } = seeded.second;
  const other = (i) => ({ [p1]: standing.p1[i % 3], [p2]: standing.p2[Math.floor(i / 3) % 3] });
  // Request n: member ⌊n/2⌋; even n in election 1 (figure 1's ballot), odd n in election 2.
  const choose = (n) => (n % 2 === 0 ? spread(n / 2) : other((n - 1) / 2));
  const pathOf = (n) => (n % 2 === 0 ? '/api/v1/psk/vote' : `/api/v1/psk/vote?election_id=${id}`);
  await castVotes({ url: server.url, pool: twice(pool), connections: b.connections, seconds: 2, choose, pathOf });
  const both = await b.measureVotes('votes-two-elections', server, { pool: twice(pool), choose, pathOf });
  const spreadAfter = await b.measureVotes('votes-spread-after-1e', server, { pool, choose: spread });
  return { twoElections: both, spreadAfter1e: spreadAfter };
}

/** @returns {import('../lib/bench.mjs').FigureRow[]} */
export function verdict({ spread: before, twoElections, spreadAfter1e: after }) {
  if (!before || !twoElections || !after) return [];
  const base = round((before.okPerSec + after.okPerSec) / 2, 1);
  return [
    {
      id: '1e',
      name: 'ballots/s, two elections open, each voter in both',
      value: `${twoElections.okPerSec}/s p99 ${twoElections.p99} ms`,
      baseline: `figure 1 load ${base}/s`,
      ratio: round(twoElections.okPerSec / base, 2),
      target: 'record',
      met: true,
      note: `no target; baseline = mean of figure 1's load before (${before.okPerSec}/s p99 ${before.p99} ms) and after (${after.okPerSec}/s p99 ${after.p99} ms)`,
    },
  ];
}
