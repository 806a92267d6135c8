// Where a USSD session's cost goes, step by step (a diagnostic beside figure 10, not part of
// `pnpm bench`): one checkout's built server on a database of its own, BATCHES batches of 32
// sessions driven in lockstep (all 32 dial, then all 32 send their member number, and so on), with
// the server's CPU, the Postgres backends' CPU and the database's transactions counted around each
// step. Then 32 × BATCHES web ballots (POST psk/vote) counted the same way, for comparison.
// usage: node bench/ussd-steps.mjs TREE [BATCHES=10] [STORE=postgres|redis]
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import postgres from 'postgres';
import { serverEnv } from './lib/server.mjs';
import { startSmsSink } from './lib/sms-sink.mjs';
import { freshDatabase, postgresCpuSince } from './lib/ab.mjs';
import { loadAverage, postgresCpuByPid, processCpuMs, round, sleep } from './lib/util.mjs';

const [treeArg, batchesArg, storeArg] = process.argv.slice(2);
const TREE = resolve(treeArg ?? '.');
const BATCHES = Number(batchesArg ?? 10);
const STORE = storeArg ?? 'postgres';
const ADMIN = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = process.env.BENCH_DB ?? 'kura_ussd_steps';
process.env.BENCH_DB = DB;
const N = 32;
const tmp = mkdtempSync(join(tmpdir(), 'kura-ussd-steps-'));
const admin = postgres(ADMIN, { max: 1, onnotice: () => {} });
const token = randomBytes(24).toString('hex');
const sink = await startSmsSink();
const { startServer } = await import(`${TREE}/bench/lib/server.mjs`);
const { seedElection, seedBallots } = await import(`${TREE}/bench/lib/seed.mjs`);
const url = await freshDatabase(admin, ADMIN, DB);
const env = serverEnv({
  SMS_WEBHOOK_URL: sink.url,
  DATABASE_URL: url,
  DATA_DIR: join(tmp, 'data'),
  USSD_CALLBACK_TOKEN: token,
  ...(STORE === 'redis' ? { REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379' } : {}),
});
let server = await startServer({ env, label: 'ussd-steps-migrate' });
await server.stop();
const db = postgres(url, { max: 1, onnotice: () => {} });
const seeded = await seedElection((t) => db.unsafe(t), {
  voters: N * BATCHES + N,
  signers: N * BATCHES + N,
  secret: randomBytes(16).toString('hex'),
});
await seedBallots((t) => db.unsafe(t), 10_000);
server = await startServer({ env, label: 'ussd-steps', profile: process.env.BENCH_PROFILE === '1' });
const { hostname, port } = new URL(server.url);
const agent = new Agent({ keepAlive: true, maxSockets: N });
const post = (path, body, headers) =>
  new Promise((resolveIt, reject) => {
    const req = request(
      { agent, hostname, port, path, method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolveIt({ status: res.statusCode, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
const xacts = async () => {
  await sleep(700); // backends report their counts at most every 500 ms (PostgreSQL 15)
  const [row] = await db`select (xact_commit + xact_rollback)::bigint as n from pg_stat_database where datname = ${DB}`;
  return Number(row.n);
};
const totals = new Map();
/** Runs `fn` over the batch at once and counts its cost under `step`. */
const counted = async (step, fn) => {
  const x0 = await xacts();
  const s0 = processCpuMs(server.pid);
  const p0 = postgresCpuByPid();
  const results = await fn();
  const pg = postgresCpuSince(p0);
  const s = processCpuMs(server.pid) - s0;
  const x = (await xacts()) - x0 - 1; // less the count's own
  const t = totals.get(step) ?? { requests: 0, server: 0, pg: 0, xacts: 0 };
  t.requests += results.length;
  t.server += s;
  t.pg += pg;
  t.xacts += x;
  totals.set(step, t);
  return results;
};

const ussd = (s, input) => {
  if (input !== undefined) s.inputs.push(input);
  const body = new URLSearchParams({
    sessionId: s.id,
    serviceCode: '*384*1#',
    phoneNumber: `+254${s.phone.slice(1)}`,
    text: s.inputs.join('*'),
  }).toString();
  return post(`/api/v1/ussd/${token}`, body, { 'content-type': 'application/x-www-form-urlencoded' }).then((r) => r.text);
};
try {
  const nos = [...seeded.signerNos];
  const voters = [...seeded.voterIds];
  const { p1, p2 } = seeded.positions;
  // A warm-up batch, not counted.
  for (let b = 0; b <= BATCHES; b++) {
    const warm = b === 0;
    const step = (name, fn) => (warm ? fn() : counted(name, fn));
    const sessions = nos
      .splice(0, N)
      .map((no) => ({ id: `steps-${randomBytes(6).toString('hex')}`, no, phone: seeded.phoneOf(no), inputs: [] }));
    await step('dial', () => Promise.all(sessions.map((s) => ussd(s))));
    await step('member number', () => Promise.all(sessions.map((s) => ussd(s, s.no))));
    const codes = await Promise.all(sessions.map((s) => sink.codeFor(s.phone)));
    let screens = await step('code', () => Promise.all(sessions.map((s, i) => ussd(s, codes[i]))));
    while (screens.every((x) => x.startsWith('CON ') && !x.startsWith('CON Confirm')))
      screens = await step('ballot screen', () => Promise.all(sessions.map((s) => ussd(s, '1'))));
    const done = await step('confirm', () => Promise.all(sessions.map((s) => ussd(s, '1'))));
    if (!done.every((x) => x.startsWith('END Your vote is recorded')))
      throw new Error(`not recorded: ${done.find((x) => !x.startsWith('END Your'))}`);
    await sleep(300); // the receipts SMS after the answer
    if (process.env.STEPS_NO_WEB !== '1')
      await step('web ballot (2 positions)', () =>
        Promise.all(
          voters.splice(0, N).map((id, i) =>
            post(
              '/api/v1/psk/vote',
              JSON.stringify({ candidates: { [p1]: seeded.standing.p1[i % 3], [p2]: seeded.standing.p2[Math.floor(i / 3) % 3] } }),
              {
                'content-type': 'application/json',
                authorization: `Bearer ${seeded.tokenOf(id)}`,
              },
            ).then((r) => {
              if (r.status !== 201) throw new Error(`vote ${r.status} ${r.text}`);
              return r;
            }),
          ),
        ),
      );
  }
  console.log(`${TREE} (store ${STORE}), ${BATCHES} batches of ${N}, load ${loadAverage()}`);
  let session = { server: 0, pg: 0, xacts: 0 };
  for (const [name, t] of totals) {
    const per = N * BATCHES;
    if (!name.startsWith('web'))
      session = { server: session.server + t.server / per, pg: session.pg + t.pg / per, xacts: session.xacts + t.xacts / per };
    console.log(
      `${name.padEnd(26)} ${String(round(t.requests / per, 0)).padStart(2)} request(s) a session: server ${round(t.server / per, 2)} ms, postgres ${round(t.pg / per, 2)} ms, ${round(t.xacts / per, 1)} transactions`,
    );
  }
  console.log(
    `whole USSD session: server ${round(session.server, 1)} ms, postgres ${round(session.pg, 1)} ms, ${round(session.xacts, 1)} transactions`,
  );
} finally {
  agent.destroy();
  await server.stop();
  await db.end();
  await admin.unsafe(`drop database if exists ${DB} with (force)`).catch(() => {});
  await admin.end();
  await sink.close();
  rmSync(tmp, { recursive: true, force: true });
}
