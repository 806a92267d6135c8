// Figure 10: voting by USSD. Whole USSD votes per second — a session as Africa's Talking drives it:
// dial, member number, the code from the SMS, one option per position (the seeded ballot has six:
// five national, the member's branch chair), confirm; 10 form-encoded requests with one sessionId
// and a growing `text` — against web ballots
// per second (POST psk/vote with a session already signed in) on the same server in the same run,
// 32 at a time each. Measured twice: with the USSD session store on Postgres, then on Redis
// (REDIS_URL). Target: USSD votes/s at least 0.5 × web ballots/s.
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { castVotes } from '../lib/load.mjs';
import { nowMs, percentile, round } from '../lib/util.mjs';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Redis answers PING within a second (the Redis phase is skipped otherwise). */
function redisReachable(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname || '127.0.0.1', port: Number(port || 6379) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

/** E.164 as the network gives it, from the register's 07… form. */
const dialled = (phone) => `+254${phone.slice(1)}`;

/**
 * `connections` members dial at once, each a whole session after the other, until `seconds` pass
 * or the member numbers run out. Counts the sessions that ended with "Your vote is recorded".
 */
export async function ussdVotes({ url, token, sink, memberNos, phoneOf, connections, seconds }) {
  const deadline = nowMs() + seconds * 1000;
  const sessions = [];
  const requests = [];
  /** Latencies by step: dial, member number, code, ballot screens, confirm. */
  const steps = { dial: [], memberNo: [], code: [], ballot: [], confirm: [] };
  let failed = 0;
  let next = 0;
  // Plain node:http on kept-alive sockets, one a session at a time: the gateway's side costs about
  // what autocannon's does for the web ballots (fetch cost this process 1.5 ms of CPU a request).
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const { hostname, port } = new URL(url);
  const path = `/api/v1/ussd/${token}`;
  const send = (body) =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          agent,
          hostname,
          port,
          path,
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const post = async (form, step) => {
    const t0 = nowMs();
    const { status, text } = await send(new URLSearchParams(form).toString());
    requests.push(nowMs() - t0);
    steps[step].push(nowMs() - t0);
    if (status < 200 || status >= 300) throw new Error(`USSD ${status}: ${text}`);
    return text;
  };
  const session = async (memberNo) => {
    const phone = phoneOf(memberNo);
    const base = { sessionId: `bench-${randomBytes(8).toString('hex')}`, serviceCode: '*384*1#', phoneNumber: dialled(phone) };
    const inputs = [];
    const send = (input, step) => {
      if (input !== undefined) inputs.push(input);
      return post({ ...base, text: inputs.join('*') }, step);
    };
    await send(undefined, 'dial');
    const codeScreen = await send(memberNo, 'memberNo');
    if (!codeScreen.startsWith('CON ')) throw new Error(`sign-in: ${codeScreen}`);
    let screen = await send(await sink.codeFor(phone), 'code');
    let n = 3;
    while (screen.startsWith('CON ') && !screen.startsWith('CON Confirm')) {
      screen = await send('1', 'ballot');
      if (++n > 20) throw new Error(`no confirmation: ${screen}`);
    }
    const done = await send('1', 'confirm');
    if (!done.startsWith('END Your vote is recorded')) throw new Error(`vote: ${done}`);
    return n + 1;
  };
  const started = nowMs();
  const worker = async () => {
    while (next < memberNos.length && nowMs() < deadline) {
      const memberNo = memberNos[next++];
      const t0 = nowMs();
      try {
        const count = await session(memberNo);
        sessions.push({ ms: nowMs() - t0, requests: count });
      } catch (error) {
        if (failed++ < 3) console.error(String(error).slice(0, 300));
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (nowMs() - started) / 1000;
  agent.destroy();
  const ms = sessions.map((s) => s.ms).sort((a, b) => a - b);
  requests.sort((a, b) => a - b);
  return {
    votesPerSec: round(sessions.length / elapsed, 1),
    votes: sessions.length,
    failed,
    requestsPerSession: round(sessions.reduce((s, x) => s + x.requests, 0) / (sessions.length || 1), 1),
    sessionP50: round(percentile(ms, 50), 1),
    sessionP99: round(percentile(ms, 99), 1),
    requestP99: round(percentile(requests, 99), 1),
    /** Median latency of each step (ms). */
    stepP50: Object.fromEntries(
      Object.entries(steps).map(([k, v]) => [
        k,
        round(
          percentile(
            [...v].sort((a, b) => a - b),
            50,
          ),
          1,
        ),
      ]),
    ),
    exhausted: next >= memberNos.length,
    /** Members taken from the front of `memberNos` (each dialled once). */
    used: next,
    seconds: round(elapsed, 2),
  };
}

export async function measure(b, { seeded, spread, sink, startPg, pool, ussdNos }) {
  const token = randomBytes(24).toString('hex');
  const stores = ['postgres', ...(REDIS_URL !== 'none' && (await redisReachable(REDIS_URL)) ? ['redis'] : [])];
  if (stores.length === 1) b.say(`figure 10: Redis at ${REDIS_URL} does not answer; the Redis phase is skipped`);
  const out = {};
  const per = Math.floor(ussdNos.length / stores.length);
  for (const [i, store] of stores.entries()) {
    const server = await startPg(`pg-ussd-${store}`, { USSD_CALLBACK_TOKEN: token, ...(store === 'redis' ? { REDIS_URL } : {}) });
    const memberNos = ussdNos.slice(i * per, (i + 1) * per);
    // A short warm-up of each, then web ballots and USSD votes one after the other on the same server.
    await castVotes({ url: server.url, pool, connections: b.connections, seconds: 1, choose: spread });
    await ussdVotes({
      url: server.url,
      token,
      sink,
      memberNos: memberNos.splice(0, 64),
      phoneOf: seeded.phoneOf,
      connections: b.connections,
      seconds: 1,
    });
    const web = await castVotes({ url: server.url, pool, connections: b.connections, seconds: b.seconds, choose: spread });
    const ussd = await ussdVotes({
      url: server.url,
      token,
      sink,
      memberNos,
      phoneOf: seeded.phoneOf,
      connections: b.connections,
      seconds: b.seconds,
    });
    await server.stop();
    b.say(
      `USSD (session store on ${store}): ${ussd.votesPerSec} whole votes/s (${ussd.votes} in ${ussd.seconds} s, ${ussd.requestsPerSession} requests each, ${ussd.failed} failed${ussd.exhausted ? ', ran out of members' : ''}), session p50 ${ussd.sessionP50} ms p99 ${ussd.sessionP99} ms, request p99 ${ussd.requestP99} ms, step p50 ${JSON.stringify(ussd.stepP50)}; web ballots in the same run ${web.okPerSec}/s p99 ${web.p99} ms`,
    );
    out[store] = { web, ussd };
  }
  b.results.phases.ussd = out;
  return { ussd: out };
}

/** @returns {import('../lib/bench.mjs').FigureRow[]} */
export function verdict({ ussd }) {
  if (!ussd) return [];
  return Object.entries(ussd).map(([store, { web, ussd: u }]) => ({
    id: store === 'redis' ? '10r' : '10',
    name: `whole USSD votes/s (${u.requestsPerSession} requests), store on ${store === 'redis' ? 'Redis' : 'Postgres'}`,
    value: `${u.votesPerSec}/s session p99 ${u.sessionP99} ms`,
    baseline: `web ${web.okPerSec}/s`,
    ratio: round(u.votesPerSec / web.okPerSec, 2),
    target: '>=0.5x',
    met: u.votesPerSec / web.okPerSec >= 0.5 && u.failed === 0,
    note: `request p99 ${u.requestP99} ms`,
  }));
}
