// A child process holding many Socket.IO watchers subscribed to `tally`, as the web app's live
// results are (figure 4; BENCH_WATCH=results follows the full `results` channel instead). For every
// update it notes, per watcher, when the probe candidate's count first reached each value; the
// parent later sends the probe votes' send times and gets the latencies back. A tally watcher keeps
// what a client must: the snapshot's layout, and reads the probe's count out of each counts update
// at the probe's place in that layout (the web app's applyTally also copies and sorts every group).
import { io } from 'socket.io-client';
import { nowMs, sleep } from './util.mjs';

let sockets = [];
/** Each socket's state: the highest probe count it has seen. */
const stateOf = new Map();
let config;
/** arrivals[k] = list of arrival times (one per watcher) of the first update whose probe count ≥ k. */
const arrivals = new Map();
let messages = 0;
let connectErrors = 0;

const WATCH = process.env.BENCH_WATCH === 'results' ? 'results' : 'tally';

/** The probe's count in a full results list. */
function probeIn(results) {
  const group = results?.find((g) => g.position_id === config.position);
  return group?.values.find((v) => v.candidate_id === config.probeCandidate)?.count ?? 0;
}

/** The probe's index in a tally layout's counts vector (per group its total, then each value's count). */
function probeIndex(results) {
  let i = 0;
  for (const group of results) {
    i++;
    for (const value of group.values) {
      if (group.position_id === config.position && value.candidate_id === config.probeCandidate) return i;
      i++;
    }
  }
  return -1;
}

function onTally(state, payload) {
  if (payload?.kind === 'snapshot') {
    state.layout = payload.layout;
    state.index = probeIndex(payload.results);
    record(state, probeIn(payload.results));
  } else if (payload?.kind === 'counts' && payload.layout === state.layout) record(state, payload.counts[state.index] ?? 0);
  else if (payload?.kind === 'counts') {
    state.resubscribes++;
    state.socket.emit('subscribe', ['tally']);
  }
}

function onUpdate(state, payload) {
  record(state, probeIn(payload?.results));
}

function record(state, n) {
  messages++;
  const t = nowMs();
  for (let k = state.seen + 1; k <= n; k++) {
    let list = arrivals.get(k);
    if (!list) arrivals.set(k, (list = []));
    list.push(t);
  }
  if (n > state.seen) state.seen = n;
}

async function connect(count, deadline) {
  const BATCH = 250;
  for (let i = 0; i < count && nowMs() < deadline; i += BATCH) {
    const batch = [];
    for (let j = i; j < Math.min(count, i + BATCH); j++) {
      const state = { seen: config.initialCount, layout: undefined, index: -1, resubscribes: 0, socket: undefined };
      const socket = io(config.url, {
        path: '/socket.io',
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
        timeout: 30_000,
      });
      state.socket = socket;
      stateOf.set(socket, state);
      if (WATCH === 'tally') socket.on('ResultsTally', (p) => onTally(state, p));
      else socket.on('DetailedResultsUpdate', (p) => onUpdate(state, p));
      batch.push(
        new Promise((resolve) => {
          socket.once('connect', () =>
            socket.emit('subscribe', [WATCH], (ack) => resolve(ack?.joined?.includes(WATCH) ? socket : (socket.close(), null))),
          );
          socket.once('connect_error', () => {
            connectErrors++;
            socket.close();
            resolve(null);
          });
        }),
      );
    }
    for (const s of await Promise.all(batch)) if (s) sockets.push(s);
    await sleep(20);
  }
}

process.on('message', async (m) => {
  if (m.type === 'connect') {
    config = m;
    const t0 = nowMs();
    await connect(m.count, t0 + (m.connectSeconds ?? 60) * 1000);
    process.send({ type: 'connected', count: sockets.length, errors: connectErrors, ms: Math.round(nowMs() - t0) });
  } else if (m.type === 'behind') {
    // How many watchers have not yet seen the probe count reach m.count (the final state).
    process.send({ type: 'behind', count: sockets.filter((socket) => stateOf.get(socket).seen < m.count).length });
  } else if (m.type === 'reset') {
    arrivals.clear();
    messages = 0;
    process.send({ type: 'reset' });
  } else if (m.type === 'collect') {
    // m.sent: [[k, sendTime, ackTime], ...] with k the probe count that vote made.
    const latencies = [];
    const fromAck = [];
    let missing = 0;
    for (const [k, sent, acked] of m.sent) {
      const list = arrivals.get(k) ?? [];
      for (const t of list) {
        latencies.push(Math.round((t - sent) * 10) / 10);
        fromAck.push(Math.round((t - acked) * 10) / 10);
      }
      missing += Math.max(0, sockets.length - list.length);
    }
    const cpu = process.cpuUsage();
    const resubscribes = sockets.reduce((n, socket) => n + stateOf.get(socket).resubscribes, 0);
    process.send({
      type: 'collected',
      latencies,
      fromAck,
      missing,
      messages,
      resubscribes,
      watch: WATCH,
      cpuMs: (cpu.user + cpu.system) / 1000,
    });
  } else if (m.type === 'close') {
    for (const s of sockets) s.close();
    sockets = [];
    process.send({ type: 'closed' });
    setTimeout(() => process.exit(0), 100);
  }
});
process.send({ type: 'up' });
