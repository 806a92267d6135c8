// Figure 4c: election night as the compose scale profile runs it (docker-compose.yml, docs/operations.md
// "Scale-out"): two server processes on the same Postgres sharing live updates through Redis
// (REDIS_URL, BENCH_REDIS_URL here; `none` runs them on the Postgres adapter instead). The 32 voters
// and the 5,000 watchers are split evenly over the two; figure 4's probe votes on the first process
// only, so the watchers of the second see its votes only once they crossed the adapter. Reported:
// ballots/s with the watchers against the same load with none (target ≥ 0.8, as 4b), vote→watcher
// p50/p99 on each side and missed updates (none expected).
// BENCH_4C_SHAPE=split runs the other shape of the compose deployment, dedicated realtime replicas
// (the realtime profile, KURA_SOCKET_UPSTREAM=realtime): all 32 voters and the probe on the first
// process, all the watchers on the second, which takes no vote and only fans out what the first
// relays. Same outputs; every watcher's latency is then across the adapter.
import { fork } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { castVotes } from '../lib/load.mjs';
import { cpuMeter, nowMs, percentile, ROOT, round, sleep } from '../lib/util.mjs';
import { ask, connectWatchers, drainAndCollect, probeCount, startProbe } from './4-live.mjs';

/** Sends one inline command to Redis and answers the raw reply, or undefined when unreachable. */
function redisCommand(url, command, timeoutMs = 2000) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname || '127.0.0.1', port: Number(port || 6379) });
    let reply = '';
    const done = (value) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(timeoutMs, () => done(reply || undefined));
    socket.once('error', () => done(undefined));
    socket.once('connect', () => socket.write(`${command}\r\n`));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.endsWith('\r\n') && (!reply.startsWith('*') || /:\d+\r\n$/.test(reply))) done(reply);
    });
  });
}

/** How many Redis clients listen for Socket.IO's server-to-server requests (one per Redis-adapted process). */
async function redisAdapterProcesses(url) {
  const reply = await redisCommand(url, 'PUBSUB NUMSUB socket.io-request#/#');
  const match = reply && /:(\d+)\r\n$/.exec(reply);
  return match ? Number(match[1]) : undefined;
}

/**
 * The 32 voters for `seconds`, over the servers that take votes (both, evenly; or the first alone in
 * the split shape, where the second serves watchers only): the summed rate, and each process's.
 */
async function castOnBoth(servers, { pool, connections, seconds, choose, split }) {
  const voting = split ? servers.slice(0, 1) : servers;
  const parts = await Promise.all(
    voting.map((s) => castVotes({ url: s.url, pool, connections: connections / voting.length, seconds, choose })),
  );
  return {
    okPerSec: round(
      parts.reduce((a, r) => a + r.okPerSec, 0),
      1,
    ),
    perProcess: servers.map((_, k) => parts[k]?.okPerSec ?? 0),
    p99: Math.max(...parts.map((r) => r.p99)),
    non2xx: parts.reduce((a, r) => a + r.non2xx, 0),
    errors: parts.reduce((a, r) => a + r.errors, 0),
  };
}

/** Latency figures of the watchers behind `collected` (the answers of their processes). */
function latencyOf(collected) {
  const latencies = collected.flatMap((c) => c.latencies).sort((a, b) => a - b);
  const fromAck = collected.flatMap((c) => c.fromAck).sort((a, b) => a - b);
  return {
    samples: latencies.length,
    missing: collected.reduce((s, c) => s + c.missing, 0),
    p50: round(percentile(latencies, 50), 1),
    p99: round(percentile(latencies, 99), 1),
    max: round(latencies[latencies.length - 1], 1),
    ackP50: round(percentile(fromAck, 50), 1),
    ackP99: round(percentile(fromAck, 99), 1),
  };
}

export async function measure(b, { pool, seeded, spread, startPg }) {
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const shape = process.env.BENCH_4C_SHAPE ?? 'even';
  if (!['even', 'split'].includes(shape)) throw new Error(`BENCH_4C_SHAPE=${shape}: even (the default) or split`);
  const split = shape === 'split';
  const adapter = redisUrl === 'none' ? 'postgres' : 'redis';
  if (adapter === 'redis' && !(await redisCommand(redisUrl, 'PING'))?.startsWith('+PONG')) {
    b.say(`figure 4c not run: no Redis answering at ${redisUrl} (set BENCH_REDIS_URL, or BENCH_REDIS_URL=none for the Postgres adapter)`);
    return { skipped: `no Redis at ${redisUrl}` };
  }
  const listeningBefore = adapter === 'redis' ? await redisAdapterProcesses(redisUrl) : undefined;
  const extra = adapter === 'redis' ? { REDIS_URL: redisUrl } : {};
  const servers = [];
  const children = [];
  try {
    for (const label of ['pg-4c-a', 'pg-4c-b']) servers.push(await startPg(label, extra));
    const [a, bServer] = servers;
    b.say(
      `4c (${shape}): two server processes on the ${adapter} adapter at ${a.url} (pid ${a.pid}${split ? ', votes' : ''}) and ${bServer.url} (pid ${bServer.pid}${split ? ', watchers' : ''})`,
    );
    if (adapter === 'redis') {
      // Each Redis-adapted process subscribes once to the request channel: two more than before.
      let listening;
      const deadline = nowMs() + 10_000;
      while ((listening = await redisAdapterProcesses(redisUrl)) - (listeningBefore ?? 0) < 2 && nowMs() < deadline) await sleep(200);
      b.say(`4c: Redis subscribers on socket.io-request#/#: ${listeningBefore} before, ${listening} with both processes up`);
    }
    const phase = { pool, connections: b.connections, seconds: b.seconds, choose: spread, split };
    await castOnBoth(servers, { ...phase, seconds: 2 });

    // Baseline: the same load (16 voters on each process, or 32 on the first when split; the probe
    // on the first), nobody watching.
    let base = await probeCount(a.url, seeded);
    let probe = startProbe(a.url, pool, seeded, base);
    const without = await castOnBoth(servers, phase);
    await probe.stop();
    b.say(
      `4c live-no-watchers: ${without.okPerSec} ballots/s (${without.perProcess.join(' + ')}), p99 ${without.p99} ms, non2xx ${without.non2xx}`,
    );

    // The watchers, half on each process (all on the second when split): two watcher processes
    // (four beyond 5,000 watchers), figure 4's watchers as they are, each given its server's URL.
    const processes = 2 * Math.max(1, Math.min(2, Math.ceil(b.watchers / 5000)));
    await sleep(1000); // the last relayed votes of the baseline reach the second process
    base = await probeCount(a.url, seeded);
    const t0 = nowMs();
    for (let i = 0; i < processes; i++) {
      const child = fork(join(ROOT, 'bench/lib/watchers.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      children.push(child);
      await ask(child, undefined, 'up', 10_000);
    }
    const serverOf = (i) => (split ? bServer : servers[i % 2]);
    /** The watcher processes whose watchers are on the probe's process, and those across the adapter. */
    const onProbeProcess = (_, i) => serverOf(i) === a;
    const connected = await connectWatchers(b, children, (i) => serverOf(i).url, seeded, base);
    const watching = connected.reduce((s, c) => s + c.count, 0);
    const onEach = servers.map((s) => connected.filter((_, i) => serverOf(i) === s).reduce((sum, c) => sum + c.count, 0));
    b.say(
      `4c: ${watching} watchers connected (${onEach.join(' + ')}) in ${round((nowMs() - t0) / 1000, 1)} s (${connected.reduce((s, c) => s + c.errors, 0)} connect errors)`,
    );
    await sleep(1000);

    await Promise.all(servers.map((s) => s.eldReset()));
    probe = startProbe(a.url, pool, seeded, base);
    const meter = cpuMeter({
      serverA: a.pid,
      serverB: bServer.pid,
      ...Object.fromEntries(children.map((c, i) => [`watchers${i}`, c.pid])),
    });
    const withWatchers = await castOnBoth(servers, phase);
    const cpu = meter();
    const probed = await probe.stop();
    const eld = await Promise.all(servers.map((s) => s.eldRead()));
    b.say(
      `4c live-with-watchers: ${withWatchers.okPerSec} ballots/s (${withWatchers.perProcess.join(' + ')}), p99 ${withWatchers.p99} ms, non2xx ${withWatchers.non2xx}; event loop p99 ${eld.map((e) => e.stats.p99).join(' / ')} ms; cpu ${JSON.stringify(cpu)}`,
    );

    const { collected, drainMs } = await drainAndCollect(children, probed, base);
    const probeRtt = probed.sent.map(([, s, r]) => r - s).sort((x, y) => x - y);
    const live = {
      adapter,
      shape,
      watchers: watching,
      watchersPerProcess: onEach,
      probes: probed.sent.length,
      ...latencyOf(collected),
      /** The watchers on the probe's own process (none when split). */
      sameProcess: split ? undefined : latencyOf(collected.filter(onProbeProcess)),
      /** The watchers on the other process: the probe's vote crossed the adapter to reach them. */
      acrossAdapter: latencyOf(collected.filter((c, i) => !onProbeProcess(c, i))),
      messagesPerWatcher: round(collected.reduce((s, c) => s + c.messages, 0) / Math.max(1, watching), 1),
      probeVoteP99: round(percentile(probeRtt, 99), 1),
      drainMs,
      cpu,
      eld: eld.map((e) => e.stats),
      broadcast: eld.map((e) => e.broadcast),
    };
    b.results.phases[split ? 'live-2-processes-split' : 'live-2-processes'] = { without, withWatchers, live };
    b.say(`4c live latency: ${JSON.stringify(live)}`);
    return { without, withWatchers, live };
  } finally {
    await Promise.all(children.map((child) => ask(child, { type: 'close' }, 'closed', 10_000).catch(() => child.kill())));
    await Promise.all(servers.map((s) => s.stop()));
  }
}

/** @returns {import('../lib/bench.mjs').FigureRow[]} */
export function verdict({ liveTwo: measured }) {
  if (!measured) return [];
  const split = (measured.live?.shape ?? process.env.BENCH_4C_SHAPE) === 'split';
  const id = split ? '4c-split' : '4c';
  if (measured.skipped)
    return [
      {
        id,
        name: `live, 2 processes${split ? ' (votes | watchers)' : ''}: ballots/s with watchers`,
        value: 'not run',
        baseline: '-',
        ratio: '-',
        target: '≥0.8',
        met: false,
        note: measured.skipped,
      },
    ];
  const { without, withWatchers, live } = measured;
  const ratio = round(withWatchers.okPerSec / without.okPerSec, 2);
  const { sameProcess: same, acrossAdapter: across } = live;
  const sides = same
    ? `probe's process p99 ${same.p99} ms, across the adapter p50 ${across.p50} p99 ${across.p99} ms`
    : `all across the adapter, to the fan-out process; the vote process's event loop p99 ${live.eld[0]?.p99} ms`;
  return [
    {
      id,
      name: `live, 2 processes (${live.adapter}${split ? ', votes | watchers' : ''}): ballots/s with ${live.watchers} watchers`,
      value: `${withWatchers.okPerSec}/s`,
      baseline: `no watchers ${without.okPerSec}/s`,
      ratio,
      target: '≥0.8',
      met: ratio >= 0.8 && live.missing === 0,
      note: `vote→watcher p50 ${live.p50} p99 ${live.p99} ms (${sides}); ${live.samples} samples, ${live.missing} missed`,
    },
  ];
}
