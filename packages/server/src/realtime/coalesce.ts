import { performance } from 'node:perf_hooks';

/**
 * At most one run per window, and always one after the last request: the first request runs on the
 * next turn of the event loop (never inside the caller's request), later ones inside the window
 * collapse into a single trailing run that reads the state at that moment, so the final state is
 * always delivered. Runs never overlap, so every client receives them in order.
 *
 * Where the window starts is the pacer's choice (see {@link headroomPacer}); without one it starts
 * when a run has finished (a fan-out to thousands of sockets takes a while).
 */
export type Coalescer = { request(): void; close(): void };

/** A finished run: when it started and ended (performance.now()) and the ms of its synchronous writes. */
export type RunTiming = { startedAt: number; endedAt: number; busyMs: number };
/** How long after a run's start the next may start. */
export type Pacer = (run: RunTiming) => number;

export function coalesce(
  intervalMs: number,
  run: () => Promise<number | void> | number | void,
  onError: (err: unknown) => void,
  pace: Pacer = ({ startedAt, endedAt }) => endedAt - startedAt + intervalMs,
): Coalescer {
  let timer: NodeJS.Timeout | undefined;
  let pending: NodeJS.Immediate | undefined;
  let running = false;
  let dirty = false;
  let closed = false;
  const openWindow = (startedAt: number, busyMs: number) => {
    running = false;
    if (closed) return;
    const endedAt = performance.now();
    const wait = Math.max(0, startedAt + pace({ startedAt, endedAt, busyMs }) - endedAt);
    timer = setTimeout(window, wait);
    timer.unref();
  };
  const fire = () => {
    running = true;
    const startedAt = performance.now();
    let busyMs = 0;
    let outcome: Promise<number | void>;
    try {
      outcome = Promise.resolve(run());
    } catch (err) {
      outcome = Promise.reject(err);
    }
    outcome
      .then((ms) => void (busyMs = ms ?? 0))
      .catch(onError)
      .finally(() => openWindow(startedAt, busyMs));
  };
  const window = () => {
    timer = undefined;
    if (dirty && !closed) {
      dirty = false;
      fire();
    }
  };
  return {
    request() {
      if (closed) return;
      dirty = true;
      // Idle: the run starts on the next turn of the event loop, so a vote's answer is written
      // before any of the broadcast it caused (the request path never carries a fan-out).
      if (!timer && !running && !pending) pending = setImmediate(() => ((pending = undefined), window()));
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (pending) clearImmediate(pending);
      timer = undefined;
      pending = undefined;
    },
  };
}

/** The event loop's busy share (docs/architecture.md "Realtime"), read over successive spans. */
export type LoopMeter = () => { active: number; idle: number };

const loopMeter = (): LoopMeter => {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const span = performance.eventLoopUtilization(now, last);
    last = now;
    return { active: span.active, idle: span.idle };
  };
};

/**
 * The window follows the load on this process's one thread. Over the last cycle, the loop's busy
 * time other than the broadcast's own writes is the share the requests take. While that is at
 * most `quiet` of the thread, windows start `intervalMs` after the previous run *started*: a
 * process serving only watchers (compose's realtime replicas) broadcasts as often as the interval
 * allows, and a watcher waits at most one interval plus the writes. On a busier thread the window
 * starts `intervalMs` after the run *ended*, so broadcasts leave the votes the rest of the thread.
 */
export function headroomPacer(intervalMs: number, quiet = 0.5, meter: LoopMeter = loopMeter()): Pacer {
  return ({ startedAt, endedAt, busyMs }) => {
    const { active, idle } = meter();
    const rest = active + idle - busyMs;
    const others = rest > 0 ? Math.max(0, active - busyMs) / rest : 1;
    return others <= quiet ? intervalMs : endedAt - startedAt + intervalMs;
  };
}
