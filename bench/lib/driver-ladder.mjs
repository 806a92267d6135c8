// Diagnostic for figure 1: the server's own vote SQL (one statement in autocommit: the session
// lookup, then `cast_vote(...)` with its locks, check and the three inserts, as castVote sends it) driven
// straight through the `postgres` driver from this process, with no HTTP, Express or Drizzle, and
// the server's default pool of 8. Run twice: unprepared (what Drizzle asks of
// postgres.js for every query that is not `.prepare()`d: Parse/Describe, wait, Bind/Execute, and a
// fresh plan each time) and prepared (named statements reused per connection). Writes go to copies
// of participation / ballot_queue / activity_logs in schema `pgb` (search_path pgb first, which the
// function's unqualified table names follow); reads hit the seeded tables.
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { cpuMeter, nowMs, percentile, round } from './util.mjs';

const ELECTION_LOCK = 7_262_000_001;
const MEMBER_LOCK_NAMESPACE = 72_620_002;
const b64 = (n) => randomBytes(n).toString('base64url');
/** Random bytes whose base64url is as long as a sealed ballot: IV, tag and 512 bytes, 723 characters with the dots. */
const SEALED_BALLOT = 542;

export async function driverLadder({ url, seeded, memberIds, seconds, connections = 32, poolMax = 8, prepare }) {
  const sql = postgres(url, { max: poolMax, prepare: true, onnotice: () => {}, connection: { search_path: 'pgb, public' } });
  const opts = { prepare };
  const { p1, p2 } = seeded.positions;
  let next = 0;
  let done = 0;
  let failures = 0;
  let firstError;
  const latencies = [];
  const deadline = nowMs() + seconds * 1000;
  const castOne = async (memberId) => {
    const c1 = seeded.standing.p1[memberId % 3];
    const c2 = seeded.standing.p2[memberId % 3];
    const now = new Date();
    const rows = await sql.unsafe(
      `select cast_vote(s.subject_id, $3::int[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[], $9, $10, $11, $12::timestamptz, $13::bigint, $14::int, $15::int) as outcome
       from (select role, subject_id, last_seen_at < $2::timestamptz as stale from sessions
             where token_hash = $1 and expires_at > $12::timestamptz limit 1) s where s.role = 'voter'`,
      // (position, candidate) pairs, then one ballot per position: its sealed receipt, queue id and
      // sealed ballot, the sizes the server's are (a ballot is padded to 512 bytes before sealing).
      [
        seeded.tokenHashOf(memberId),
        new Date(now.getTime() - 60_000).toISOString(),
        `{${p1},${p2}}`,
        `{${c1},${c2}}`,
        `{${p1},${p2}}`,
        `{"${b64(47)}","${b64(47)}"}`,
        `{"${b64(16)}","${b64(16)}"}`,
        `{"${b64(SEALED_BALLOT)}","${b64(SEALED_BALLOT)}"}`,
        'Voted',
        '2 position(s)',
        '127.0.0.1',
        now.toISOString(),
        ELECTION_LOCK,
        MEMBER_LOCK_NAMESPACE,
        1,
      ],
      opts,
    );
    if (rows.length === 0) throw new Error('no session');
    const [{ outcome }] = rows;
    if (!outcome.xid) throw new Error(`refused: ${JSON.stringify(outcome.checks)}`);
  };
  const meter = cpuMeter({ bench: process.pid });
  const started = nowMs();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (nowMs() < deadline && next < memberIds.length) {
        const id = memberIds[next++];
        const t0 = nowMs();
        try {
          await castOne(id);
          done++;
          latencies.push(nowMs() - t0);
        } catch (error) {
          firstError ??= error instanceof Error ? error.message : String(error);
          failures++;
        }
      }
    }),
  );
  const elapsedS = (nowMs() - started) / 1000;
  const cpu = meter();
  await sql.end({ timeout: 5 });
  latencies.sort((a, b) => a - b);
  const tps = done / elapsedS;
  return {
    prepare,
    tps: round(tps, 1),
    p99: round(percentile(latencies, 99), 1),
    failures,
    firstError,
    used: next,
    cpu,
    nodeCpuMs: round((cpu.benchCores * 1000) / Math.max(1, tps), 2),
    postgresCpuMs: round((cpu.postgresCores * 1000) / Math.max(1, tps), 2),
  };
}
