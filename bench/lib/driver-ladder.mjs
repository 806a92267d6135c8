// Diagnostic for figure 1: the server's own vote SQL (session lookup, then one transaction: advisory
// locks + eligibility check pipelined, then participation, sealed-queue and activity-log inserts
// pipelined, as castVote issues them) driven straight through the `postgres` driver from this
// process, with no HTTP, Express or Drizzle. Run twice: unprepared (what Drizzle asks of
// postgres.js for every query that is not `.prepare()`d: Parse/Describe, wait, Bind/Execute, and a
// fresh plan each time) and prepared (named statements reused per connection). Writes go to copies
// of participation / ballot_queue / activity_logs in schema `pgb`; reads hit the seeded tables.
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { cpuMeter, nowMs, percentile, round } from './util.mjs';

const ELECTION_LOCK = 7_262_000_001;
const MEMBER_LOCK_NAMESPACE = 72_620_002;
const b64 = (n) => randomBytes(n).toString('base64url');

export async function driverLadder({ url, seeded, memberIds, seconds, connections = 32, poolMax = 20, prepare }) {
  const sql = postgres(url, { max: poolMax, prepare: true, onnotice: () => {}, connection: { search_path: 'pgb, public' } });
  const opts = { prepare };
  const { p1, p2 } = seeded.positions;
  let next = 0;
  let done = 0;
  let failures = 0;
  const latencies = [];
  const deadline = nowMs() + seconds * 1000;
  const castOne = async (memberId) => {
    const [session] = await sql.unsafe(
      'select "token_hash", "role", "subject_id", "created_at", "last_seen_at", "expires_at", "ip" from "sessions" where ("sessions"."token_hash" = $1 and "sessions"."expires_at" > $2) limit $3',
      [seeded.tokenHashOf(memberId), new Date(), 1],
      opts,
    );
    if (!session) throw new Error('no session');
    const c1 = seeded.standing.p1[memberId % 3];
    const c2 = seeded.standing.p2[memberId % 3];
    await sql.begin(async (tx) => {
      const [, rows] = await Promise.all([
        tx.unsafe('select pg_advisory_xact_lock_shared($1), pg_advisory_xact_lock($2, $3)', [ELECTION_LOCK, MEMBER_LOCK_NAMESPACE, memberId], opts),
        tx.unsafe(
          `with req(position_id, candidate_id) as (values ($1::int, $2::int), ($3::int, $4::int)),
             me as (select m.id, m.name, m.branch_id from members m where m.id = $5)
        select req.position_id, req.candidate_id, p.name as position_name, p.level,
               (p.id is not null and (p.level = 'National' or p.branch_id = me.branch_id)) as eligible,
               exists (select 1 from candidacies c where c.position_id = req.position_id and c.member_id = req.candidate_id) as standing,
               exists (select 1 from participation pa where pa.member_id = me.id and pa.position_id = req.position_id) as voted,
               (select value from settings where key = 'election_active') as active,
               me.name as voter_name,
               exists (select 1 from participation pa where pa.member_id = me.id) as voted_before
        from req cross join me left join positions p on p.id = req.position_id`,
          [p1, c1, p2, c2, memberId],
          opts,
        ),
      ]);
      if (rows.length !== 2 || rows.some((r) => r.voted || !r.standing || !r.eligible)) throw new Error('check failed');
      await Promise.all([
        tx.unsafe(
          'insert into "participation" ("member_id", "position_id", "receipt_enc") values ($1, $2, $3), ($4, $5, $6) returning pg_current_xact_id()::text',
          [memberId, p1, b64(47), memberId, p2, b64(47)],
          opts,
        ),
        tx.unsafe('insert into "ballot_queue" ("id", "sealed") values ($1, $2), ($3, $4)', [b64(16), b64(100), b64(16), b64(100)], opts),
        tx.unsafe(
          'insert into "activity_logs" ("id", "name", "activity", "user_id", "data", "ip_address", "status", "created_at", "updated_at") values (default, $1, $2, $3, $4, $5, $6, $7, $8)',
          ['Bench Member', 'Voted', memberId, '2 position(s)', '127.0.0.1', 'success', new Date(), new Date()],
          opts,
        ),
      ]);
    });
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
        } catch {
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
    used: next,
    cpu,
    nodeCpuMs: round((cpu.benchCores * 1000) / Math.max(1, tps), 2),
    postgresCpuMs: round((cpu.postgresCores * 1000) / Math.max(1, tps), 2),
  };
}
