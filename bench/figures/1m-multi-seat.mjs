// Figure 1m: ballots/s when the ballot also fills a 3-seat board (3 distinct candidates of its 6,
// all 20 sets in turn) on top of figure 1's two positions. No target: reported beside figure 1's
// load measured just before and just after it on the same server.
import { castVotes } from '../lib/load.mjs';
import { round } from '../lib/util.mjs';

/** Every `k`-element subset of `items`, in order. */
function combinations(items, k) {
  if (k === 0) return [[]];
  return items.flatMap((first, i) => combinations(items.slice(i + 1), k - 1).map((rest) => [first, ...rest]));
}

/**
 * Right after figure 1 on the same server (a short warm-up for the multi-seat statement shapes),
 * then figure 1's load once more: the baseline is the mean of the phases either side, so neither
 * the server's first seconds nor a later one favours either.
 */
export async function measure(b, { server, pool, seeded, spread }) {
  const boardSets = combinations(seeded.board.standing, seeded.board.seats);
  const multiSeat = (i) => ({ ...spread(i), [seeded.board.id]: boardSets[i % boardSets.length] });
  await castVotes({ url: server.url, pool, connections: b.connections, seconds: 2, choose: multiSeat });
  const multi = await b.measureVotes('votes-multi-seat', server, { pool, choose: multiSeat });
  const spreadAfter = await b.measureVotes('votes-spread-after-1m', server, { pool, choose: spread });
  return { multiSeat: multi, spreadAfter };
}

/** @returns {import('../lib/bench.mjs').FigureRow[]} */
export function verdict({ spread: before, multiSeat, spreadAfter: after }) {
  if (!before || !multiSeat || !after) return [];
  const base = round((before.okPerSec + after.okPerSec) / 2, 1);
  return [
    {
      id: '1m',
      name: 'ballots/s, 2 positions + 3-seat (3 chosen)',
      value: `${multiSeat.okPerSec}/s p99 ${multiSeat.p99} ms`,
      baseline: `figure 1 load ${base}/s`,
      ratio: round(multiSeat.okPerSec / base, 2),
      target: 'record',
      met: true,
      note: `no target; baseline = mean of figure 1's load before (${before.okPerSec}/s p99 ${before.p99} ms) and after (${after.okPerSec}/s p99 ${after.p99} ms)`,
    },
  ];
}
