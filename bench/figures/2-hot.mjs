// Figure 2: ballots/s when every voter chooses the same candidates (one hot row per position)
// against figure 1's spread load. Target: at least 0.7 of it.
import { round } from '../lib/util.mjs';

export async function measure(b, { server, pool, seeded }) {
  const hot = () => ({ [seeded.positions.p1]: seeded.standing.p1[0], [seeded.positions.p2]: seeded.standing.p2[0] });
  return b.measureVotes('votes-hot', server, { pool, choose: hot });
}

/** @returns {import('../lib/bench.mjs').FigureRow[]} */
export function verdict({ hot, spread }) {
  if (!hot || !spread) return [];
  const ratio = round(hot.okPerSec / spread.okPerSec, 2);
  return [
    {
      id: '2',
      name: 'hot candidate ballots/s',
      value: `${hot.okPerSec}/s p99 ${hot.p99} ms`,
      baseline: `spread ${spread.okPerSec}/s`,
      ratio,
      target: '≥0.7',
      met: ratio >= 0.7,
    },
  ];
}
