// Figure 9: the close of an election with 100,000 archived ballots of its own beside another open
// election receiving votes (issue 36; docs/decisions/009-a-ballot-box-per-election.md). Election 1
// holds the seeded ballots (seedBallots: election 1's positions only); election 2 (figure 1e's
// by-election) is open. Voters cast in election 2 at full speed while the schedule closes election
// 1 (closes_at set to now: the scheduler's close and its closing statements, the re-mix of the
// 100,000 ballots and the audit at close, which opens each of their 100,000 voters' receipts,
// included). The figure is the longest a vote in election 2 took in that window
// (autocannon's max latency, 4 voters in a loop), target ≤ 100 ms; the close's own length is reported beside it. Runs
// last of the Postgres figures: election 1 stays closed afterwards.
import { castVotes } from '../lib/load.mjs';
import { nowMs, round, seal } from '../lib/util.mjs';

// A few voters, not figure 1's 32: at full load a vote's latency is its wait in the server's own
// queue, which would hide what the figure is about (how long the close holds a vote).
const VOTERS = 4;

/**
 * A voter for every seeded ballot of election 1 (a participation row with the receipt sealed, as a
 * vote writes it), so the audit at close opens as many voters' receipts as there are ballots, as
 * in a real election. Members that do not exist: nothing joins them, and no other figure runs after.
 */
async function seedVoters(exec, ballotKey) {
  const key = Buffer.from(ballotKey, 'hex');
  const rows = await exec(
    `select b.receipt, b.position_id from ballots b join positions p on p.id = b.position_id
     where p.election_id = 1 and b.receipt like 'VP-SEED-%' and not exists (select 1 from participation x where x.position_id = b.position_id and x.member_id = 10000000 + substr(b.receipt, 9)::int)`,
  );
  for (let i = 0; i < rows.length; i += 10_000) {
    const slice = rows.slice(i, i + 10_000);
    const ids = slice.map((r) => 10_000_000 + Number(r.receipt.slice(8)));
    await exec(
      `insert into participation (member_id, position_id, receipt_enc)
       select * from unnest('{${ids.join(',')}}'::int[], '{${slice.map((r) => r.position_id).join(',')}}'::int[], '{${slice.map((r) => seal(key, r.receipt)).join(',')}}'::text[])`,
    );
  }
  return rows.length;
}

export async function measure(b, { server, pool, seeded, exec, ballotKey }) {
  const { id, p1, p2, standing } = seeded.second;
  const other = (i) => ({ [p1]: standing.p1[i % 3], [p2]: standing.p2[Math.floor(i / 3) % 3] });
  const pathOf = () => `/api/v1/psk/vote?election_id=${id}`;
  const [{ n: archived }] = await exec(
    `select count(*)::int as n from ballots b join positions p on p.id = b.position_id where p.election_id = 1`,
  );
  const voters = await seedVoters(exec, ballotKey);
  b.say(`close-beside-open: ${voters} voters recorded for election 1's seeded ballots`);
  // Warm-up in election 2, then a baseline phase of the same length without a close.
  await castVotes({ url: server.url, pool, connections: VOTERS, seconds: 2, choose: other, pathOf });
  await server.eldReset();
  const quiet = await castVotes({ url: server.url, pool, connections: VOTERS, seconds: Math.max(8, b.seconds), choose: other, pathOf });
  quiet.eld = (await server.eldRead())?.stats;
  b.say(
    `close-beside-open baseline (no close): ${quiet.okPerSec} ballots/s in election ${id}, p99 ${quiet.p99} ms, max ${quiet.max} ms; server event loop delay max ${quiet.eld?.max} ms`,
  );
  let closeMs;
  let done = false;
  // How long the close holds a vote, read in Postgres: every ~10 ms, the longest a vote statement
  // (cast_vote) has been waiting on a lock so far; the maximum over the window is the figure's
  // second reading (0: no vote ever seen waiting on a lock). Another connection's statement, so
  // the sampling itself holds nothing.
  const holds = { maxLockWaitMs: 0, samples: 0, lockWaitsSeen: 0 };
  const sampling = (async () => {
    while (!done) {
      const [row] = await exec(`select coalesce(max(extract(epoch from clock_timestamp() - query_start) * 1000), 0)::float8 as ms,
        count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%cast_vote%'`);
      holds.samples++;
      if (row.n > 0) holds.lockWaitsSeen++;
      holds.maxLockWaitMs = Math.max(holds.maxLockWaitMs, Math.round(row.ms));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const closing = (async () => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const t0 = nowMs();
    await exec(`update election set closes_at = now() where id = 1`);
    for (;;) {
      // Until the audit at close is stored too: it runs after the final commitment, in the same process.
      const [row] = await exec(`select final_commitment_id is not null and audit is not null as done from election where id = 1`);
      if (row.done) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    closeMs = round(nowMs() - t0, 0);
    done = true;
  })();
  // Votes in 2-second phases until the close has finished (at most a minute), and one phase more.
  const phases = [];
  await server.eldReset();
  const started = nowMs();
  for (let extra = 1; extra > 0 && nowMs() - started < 60_000;) {
    if (done) extra--;
    phases.push(await castVotes({ url: server.url, pool, connections: VOTERS, seconds: 2, choose: other, pathOf }));
  }
  await closing;
  await sampling;
  const eld = (await server.eldRead())?.stats;
  const ok = phases.reduce((n, p) => n + p.ok, 0);
  const during = {
    okPerSec: round(ok / phases.reduce((n, p) => n + p.seconds, 0), 1),
    p99: Math.max(...phases.map((p) => p.p99)),
    max: Math.max(...phases.map((p) => p.max)),
    non2xx: phases.reduce((n, p) => n + p.non2xx, 0),
    eld,
    holds,
  };
  b.say(
    `close-beside-open: election 1 (${archived} archived ballots) closed and audited in ${closeMs} ms (schedule wake-up included); votes in election ${id} meanwhile: ${during.okPerSec}/s, worst phase p99 ${during.p99} ms, max ${during.max} ms, non2xx ${during.non2xx}; server event loop delay max ${eld?.max} ms (p99 ${eld?.p99}); longest lock wait of a vote ${holds.maxLockWaitMs} ms (${holds.lockWaitsSeen} of ${holds.samples} samples saw one)`,
  );
  return { closeBeside: { archived, closeMs, during, quiet } };
}

/** @returns {import('../lib/bench.mjs').FigureRow[]} */
export function verdict({ closeBeside }) {
  if (!closeBeside) return [];
  const { during, quiet, archived, closeMs } = closeBeside;
  return [
    {
      id: '9',
      name: `longest vote in an open election while another closes (${archived} archived ballots)`,
      value: `max ${during.max} ms (worst 2 s phase p99 ${during.p99} ms, ${during.okPerSec}/s)`,
      baseline: `no close: max ${quiet.max} ms, p99 ${quiet.p99} ms, ${quiet.okPerSec}/s`,
      ratio: round(during.max / 100, 2),
      target: '≤ 100 ms',
      met: during.max <= 100 && during.non2xx === 0,
      note: `the close took ${closeMs} ms from closes_at to its audit at close (up to 5 s of it the scheduler's wake-up); the longest a vote waited on a lock meanwhile: ${during.holds?.maxLockWaitMs ?? '?'} ms (${during.holds?.lockWaitsSeen ?? '?'} of ${during.holds?.samples ?? '?'} samples saw a vote waiting)`,
    },
  ];
}
