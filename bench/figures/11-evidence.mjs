// Figure 11: the evidence pack of a closed election with 100,000 ballots over 10 positions (issue
// 41; docs/operations.md "After the close: certifying the result"). A ballot is a row of the ballot
// box, as in figure 9: 10,000 members on the frozen roll, each with a ballot on every one of 10
// national positions of 3 candidates (100,000 ballots; BENCH_EVIDENCE_BALLOTS changes it). Its own
// database, closed by the schedule. Measured: GET elections/1/evidence
// (the zip streamed to a file, the manifest's first pass included) with the server's peak RSS
// sampled every 25 ms, targets < 30 s and < 300 MB; then `kura verify-evidence` on the file
// (dist/cli.js, offline) with its peak RSS from /usr/bin/time, target < 30 s, every check passed.
// Each voter has a participation row per position with their receipt sealed as a vote writes it,
// so the audit at close opens 100,000 receipts and the pack's `audit` check passes, as in a real election.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { nowMs, ROOT, round, seal, sleep } from '../lib/util.mjs';

const POSITIONS = 10;
const CANDIDATES = 3;
const BRANCHES = ['Nairobi', 'Mombasa', 'Kisumu', 'Nakuru', 'Kiambu'];

/** Seeds the election straight into the database (after the server's migrations ran). */
export async function seed(exec, { ballots: total, ballotKey }) {
  const ballots = Math.ceil(total / POSITIONS);
  await exec(`insert into branches (name) values ${BRANCHES.map((b) => `('${b}')`).join(', ')} on conflict do nothing`);
  const branchIds = (await exec(`select id from branches where name in (${BRANCHES.map((b) => `'${b}'`).join(', ')}) order by id`)).map(
    (r) => Number(r.id),
  );
  const positions = [];
  for (let k = 0; k < POSITIONS; k++) {
    const [{ id }] = await exec(`insert into positions (election_id, name, level, branch_id, sort_order)
                                 values (1, 'Position ${k + 1}', 'National', null, ${k}) returning id`);
    positions.push(Number(id));
  }
  const branchArray = `array[${branchIds.join(',')}]`;
  const members = (prefix, count) =>
    exec(`insert into members (member_no, name, email, phone, branch_id, created_at, updated_at)
          select (${prefix} + g)::text, 'Bench Member ' || (${prefix} + g), 'm' || (${prefix} + g) || '@bench.example.org',
                 '07' || lpad(((${prefix} + g) % 100000000)::text, 8, '0'), (${branchArray})[1 + (g % ${branchIds.length})], now(), now()
          from generate_series(1, ${count}) g`);
  await members(8_000_000, POSITIONS * CANDIDATES);
  const candidates = (
    await exec(`select id from members where member_no::bigint between 8000001 and 8000030 order by member_no::bigint`)
  ).map((r) => Number(r.id));
  await exec(
    `insert into candidacies (member_id, position_id) values ${positions
      .flatMap((p, k) => candidates.slice(k * CANDIDATES, (k + 1) * CANDIDATES).map((m) => `(${m}, ${p})`))
      .join(', ')}`,
  );
  await members(8_100_000, ballots);
  await exec(
    `insert into election_roll (election_id, member_id, branch_id, member_no, branch) select 1, m.id, m.branch_id, m.member_no, b.name from members m join branches b on b.id = m.branch_id on conflict do nothing`,
  );
  await exec(`update election set voting_active = false, opened_at = now() - interval '1 hour',
              roll_frozen_at = now() - interval '1 hour', updated_at = now() where id = 1`);
  // One ballot per member and position: a random-looking receipt, a candidate spread unevenly.
  const BATCH = 20_000;
  for (let from = 1; from <= ballots; from += BATCH) {
    const to = Math.min(from + BATCH - 1, ballots);
    await exec(`with p as (select k - 1 as k, id from unnest(array[${positions.join(',')}]) with ordinality as t(id, k)),
                     c as (select position_id, member_id, row_number() over (partition by position_id order by member_id) - 1 as j
                           from candidacies where position_id in (${positions.join(',')}))
                insert into ballots (election_id, receipt, position_id, candidate_id)
                select 1, 'VP-' || upper(substr(md5(g::text || ':' || p.k), 1, 4)) || '-' || upper(substr(md5(g::text || ':' || p.k), 5, 8)),
                       p.id, c.member_id
                from generate_series(${from}, ${to}) g cross join p
                join c on c.position_id = p.id and c.j = ((g * 7 + p.k * 13 + g / 3) % 5) % ${CANDIDATES}`);
  }
  // A participation row per voter and position, the receipt sealed with the server's BALLOT_KEY:
  // the same receipt as the ballot's (the md5 expression above, in JavaScript).
  const key = Buffer.from(ballotKey, 'hex');
  const voterIds = (
    await exec(
      `select id, member_no::bigint - 8100000 as g from members where member_no::bigint between 8100001 and ${8_100_000 + ballots}`,
    )
  ).map((r) => [Number(r.id), Number(r.g)]);
  const receipt = (g, k) => {
    const h = createHash('md5').update(`${g}:${k}`).digest('hex').toUpperCase();
    return `VP-${h.slice(0, 4)}-${h.slice(4, 12)}`;
  };
  for (let i = 0; i < voterIds.length; i += 2_000) {
    const ids = [];
    const pos = [];
    const enc = [];
    for (const [id, g] of voterIds.slice(i, i + 2_000))
      positions.forEach((p, k) => {
        ids.push(id);
        pos.push(p);
        enc.push(seal(key, receipt(g, k)));
      });
    await exec(`insert into participation (member_id, position_id, receipt_enc)
                select * from unnest('{${ids.join(',')}}'::int[], '{${pos.join(',')}}'::int[], '{${enc.join(',')}}'::text[])`);
  }
  // An admin with a bearer session, to download the pack.
  const [{ id: staffId }] = await exec(
    `insert into staff (email, name, role) values ('bench-admin@bench.example.org', 'Bench Admin', 'admin') returning id`,
  );
  const token = randomBytes(24).toString('hex');
  await exec(`insert into sessions (token_hash, role, subject_id, created_at, last_seen_at, expires_at)
              values ('${createHash('sha256').update(token).digest('hex')}', 'admin', ${Number(staffId)}, now(), now(), now() + interval '2 hours')`);
  await exec(`analyze`);
  const [{ n }] = await exec(`select count(*)::int as n from ballots where election_id = 1`);
  return { token, rows: Number(n), voters: ballots };
}

/** Closes election 1 by its schedule and waits for its closing statements (the final commitment). */
export async function close(exec) {
  const t0 = nowMs();
  await exec(`update election set closes_at = now() where id = 1`);
  for (const started = nowMs(); nowMs() - started < 1_200_000;) {
    const [row] = await exec(`select final_commitment_id is not null and audit is not null as done from election where id = 1`);
    if (row.done) return round(nowMs() - t0, 0);
    await sleep(100);
  }
  throw new Error('election 1 did not finish closing in 20 minutes');
}

const rssMb = (pid) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

export async function measure(b, { server, seeded, tmp, closeMs }) {
  const file = join(tmp, 'evidence-election-1.zip');
  const before = rssMb(server.pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(server.pid));
  }, 25);
  const t0 = nowMs();
  const res = await fetch(`${server.url}/api/v1/elections/1/evidence`, { headers: { authorization: `Bearer ${seeded.token}` } });
  if (res.status !== 200) throw new Error(`evidence: ${res.status} ${await res.text()}`);
  await pipeline(Readable.fromWeb(res.body), createWriteStream(file));
  const buildMs = round(nowMs() - t0, 0);
  clearInterval(sampler);
  const bytes = statSync(file).size;
  b.say(
    `evidence pack: ${seeded.rows} ballots (${seeded.voters} voters × 10 positions), ${round(bytes / 1024 / 1024, 1)} MB, built and streamed in ${buildMs} ms; server RSS ${round(before, 0)} → peak ${round(peak, 0)} MB`,
  );

  const cli = join(ROOT, 'packages/server/dist/cli.js');
  const run = spawnSync('/usr/bin/time', ['-f', 'KURA_TIME %M %e', process.execPath, cli, 'verify-evidence', file], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
    maxBuffer: 64 * 1024 * 1024,
  });
  const [, kb, seconds] = /KURA_TIME (\d+) ([\d.]+)/.exec(run.stderr) ?? [];
  const failed = run.stdout
    .split('\n')
    .filter((l) => l.startsWith('FAIL'))
    .map((l) => l.slice(5, l.indexOf(':')));
  const verify = { ms: round(Number(seconds) * 1000, 0), mb: round(Number(kb) / 1024, 0), exit: run.status, failed };
  b.say(
    `verify-evidence: ${verify.ms} ms, peak RSS ${verify.mb} MB, exit ${verify.exit}${failed.length ? `, failed: ${failed.join(', ')}` : ', every check passed'}`,
  );
  return {
    evidence: { rows: seeded.rows, voters: seeded.voters, bytes, buildMs, before: round(before, 0), peak: round(peak, 0), verify, closeMs },
  };
}

/** @returns {import('../lib/bench.mjs').FigureRow[]} */
export function verdict({ evidence }) {
  if (!evidence) return [];
  const { buildMs, peak, before, verify, rows, voters, bytes, closeMs } = evidence;
  return [
    {
      id: '11',
      name: `evidence pack of ${rows} ballots over 10 positions (${voters} voters, ${round(bytes / 1024 / 1024, 1)} MB zip)`,
      value: `${round(buildMs / 1000, 1)} s, server peak RSS ${peak} MB`,
      baseline: `server RSS before ${before} MB; the close took ${round(closeMs / 1000, 1)} s`,
      ratio: round(buildMs / 30_000, 2),
      target: '< 30 s, < 300 MB',
      met: buildMs < 30_000 && peak < 300,
    },
    {
      id: '11v',
      name: 'kura verify-evidence on that pack, offline',
      value: `${round(verify.ms / 1000, 1)} s, peak RSS ${verify.mb} MB`,
      baseline: '–',
      ratio: round(verify.ms / 30_000, 2),
      target: '< 30 s',
      met: verify.ms < 30_000 && verify.exit === 0 && verify.failed.length === 0,
      note: verify.failed.length ? `failed checks: ${verify.failed.join(', ')}` : 'every check passed',
    },
  ];
}
