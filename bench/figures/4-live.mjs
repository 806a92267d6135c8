// Figure 4: live results on election night. 32 voters cast while 5,000 Socket.IO watchers
// (several processes) follow the results channel; a probe votes for its own candidate every 100 ms
// and each watcher timestamps the update that carries it. The watchers follow the `tally` channel,
// as the web app does (BENCH_WATCH=results: the full `results` channel). 4a: vote→watcher p99
// (target ≤ 500 ms, issue #28; none missed); 4b: ballots/s with the watchers against the same load
// with none (target ≥ 0.8).
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { cpuMeter, nowMs, percentile, ROOT, round, sleep } from '../lib/util.mjs';

/** Sequential probe votes for the probe candidate while the load runs; answers [[count, sendTime]]. */
export function startProbe(url, pool, seeded, base, intervalMs = 100) {
  let stopped = false;
  const sent = [];
  let count = base;
  let failures = 0;
  const done = (async () => {
    while (!stopped) {
      const id = pool.take();
      if (id === undefined) break;
      const t = nowMs();
      const res = await fetch(`${url}/api/v1/psk/vote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${pool.tokenOf(id)}` },
        body: JSON.stringify({
          candidates: { [seeded.positions.p1]: seeded.probeCandidate, [seeded.positions.p2]: seeded.standing.p2[0] },
        }),
      }).catch(() => undefined);
      await res?.text();
      if (res?.status === 201) sent.push([++count, t, nowMs()]);
      else failures++;
      const wait = intervalMs - (nowMs() - t);
      if (wait > 0) await sleep(wait);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await done;
      return { sent, failures };
    },
  };
}

export async function probeCount(url, seeded) {
  const res = await fetch(`${url}/api/v1/psk/results`);
  const json = await res.json();
  const group = json.data.data.find((g) => g.position_id === seeded.positions.p1);
  return group?.values.find((v) => v.candidate_id === seeded.probeCandidate)?.count ?? 0;
}

/** Sends `message` (if any) to a watcher process and answers its first reply of `type`. */
export function ask(child, message, type, timeoutMs) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`watcher process did not answer ${type}`)), timeoutMs);
    const onMessage = (m) => {
      if (m?.type === type) {
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(m);
      }
    };
    child.on('message', onMessage);
    if (message) child.send(message);
  });
}

/**
 * Connects the watcher processes' share of `b.watchers` each, process i's to `urlOf(i)`, subscribed
 * and following the probe candidate from `base`; answers each process's {count, errors}.
 */
export function connectWatchers(b, children, urlOf, seeded, base) {
  const share = Math.ceil(b.watchers / children.length);
  return Promise.all(
    children.map((child, i) =>
      ask(
        child,
        {
          type: 'connect',
          url: urlOf(i),
          count: Math.max(0, Math.min(share, b.watchers - i * share)),
          position: seeded.positions.p1,
          probeCandidate: seeded.probeCandidate,
          initialCount: base,
          connectSeconds: 60,
        },
        'connected',
        90_000,
      ),
    ),
  );
}

/**
 * After the probe stopped: waits for the trailing coalesced emit and its delivery, until every
 * watcher has the final count (at most 20 s; one still short of it counts as missing), then
 * collects each watcher process's latencies. `drainMs`: from then until all had it.
 */
export async function drainAndCollect(children, probed, base) {
  const finalCount = probed.sent.at(-1)?.[0] ?? base;
  const drainStart = nowMs();
  let behind = Infinity;
  while (behind > 0 && nowMs() - drainStart < 20_000) {
    await sleep(250);
    behind = (await Promise.all(children.map((child) => ask(child, { type: 'behind', count: finalCount }, 'behind', 10_000)))).reduce(
      (s, r) => s + r.count,
      0,
    );
  }
  const drainMs = round(nowMs() - drainStart, 0);
  await sleep(250);
  const collected = await Promise.all(children.map((child) => ask(child, { type: 'collect', sent: probed.sent }, 'collected', 60_000)));
  return { collected, drainMs };
}

export async function measure(b, { server, pool, seeded, spread }) {
  // Baseline: the same load (32 voters + the probe) with nobody watching.
  let base = await probeCount(server.url, seeded);
  let probe = startProbe(server.url, pool, seeded, base);
  const without = await b.measureVotes('live-no-watchers', server, { pool, choose: spread });
  await probe.stop();

  // 5,000 watchers from several processes (one process would saturate a core on its own).
  const processes = Math.max(1, Math.min(4, Math.ceil(b.watchers / 2500)));
  const children = [];
  try {
    base = await probeCount(server.url, seeded);
    const t0 = nowMs();
    for (let i = 0; i < processes; i++) {
      const child = fork(join(ROOT, 'bench/lib/watchers.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      children.push(child);
      await ask(child, undefined, 'up', 10_000);
    }
    const connected = await connectWatchers(b, children, () => server.url, seeded, base);
    const watching = connected.reduce((s, c) => s + c.count, 0);
    b.say(
      `live: ${watching} watchers connected and subscribed to results in ${round((nowMs() - t0) / 1000, 1)} s (${connected.reduce((s, c) => s + c.errors, 0)} connect errors)`,
    );
    await sleep(1000);

    probe = startProbe(server.url, pool, seeded, base);
    const meterWatchers = cpuMeter(Object.fromEntries(children.map((c, i) => [`watchers${i}`, c.pid])));
    const withWatchers = await b.measureVotes('live-with-watchers', server, { pool, choose: spread });
    const watcherCpu = meterWatchers();
    const probed = await probe.stop();
    const { collected, drainMs } = await drainAndCollect(children, probed, base);
    const latencies = collected.flatMap((c) => c.latencies).sort((a, b) => a - b);
    const fromAck = collected.flatMap((c) => c.fromAck).sort((a, b) => a - b);
    const probeRtt = probed.sent.map(([, s, a]) => a - s).sort((a, b) => a - b);
    const missing = collected.reduce((s, c) => s + c.missing, 0);
    const messages = collected.reduce((s, c) => s + c.messages, 0);
    const live = {
      watch: collected[0]?.watch,
      watchers: watching,
      probes: probed.sent.length,
      samples: latencies.length,
      missing,
      /** Tally watchers that got counts of a layout they did not hold and asked for a snapshot. */
      resubscribes: collected.reduce((s, c) => s + (c.resubscribes ?? 0), 0),
      messagesPerWatcher: round(messages / Math.max(1, watching), 1),
      p50: round(percentile(latencies, 50), 1),
      p99: round(percentile(latencies, 99), 1),
      max: round(latencies[latencies.length - 1], 1),
      // From the probe's 201 (the commit is acknowledged) to the watcher: a lower bound of commit→watcher.
      ackP50: round(percentile(fromAck, 50), 1),
      ackP99: round(percentile(fromAck, 99), 1),
      probeVoteP99: round(percentile(probeRtt, 99), 1),
      /** From the probe's last vote until every watcher had its count. */
      drainMs,
      watcherCpu,
    };
    b.results.phases.live = live;
    b.say(`live latency: ${JSON.stringify(live)}`);
    return { without, withWatchers, live };
  } finally {
    await Promise.all(children.map((child) => ask(child, { type: 'close' }, 'closed', 10_000).catch(() => child.kill())));
  }
}

/** @returns {import('../lib/bench.mjs').FigureRow[]} */
export function verdict({ live: measured }) {
  if (!measured) return [];
  const { without, withWatchers, live } = measured;
  const ratio = round(withWatchers.okPerSec / without.okPerSec, 2);
  return [
    {
      id: '4a',
      name: `live: vote→watcher p99, ${live.watchers} ${live.watch ?? 'results'} watchers`,
      value: `p99 ${live.p99} ms p50 ${live.p50} ms`,
      baseline: `from 201: p99 ${live.ackP99} ms`,
      ratio: '-',
      target: '≤500ms',
      met: live.p99 <= 500 && live.missing === 0,
      note: `send→watcher; ${live.samples} samples, ${live.missing} missed; probe vote p99 ${live.probeVoteP99} ms`,
    },
    {
      id: '4b',
      name: 'live: ballots/s with watchers',
      value: `${withWatchers.okPerSec}/s`,
      baseline: `no watchers ${without.okPerSec}/s`,
      ratio,
      target: '≥0.8',
      met: ratio >= 0.8,
    },
  ];
}
