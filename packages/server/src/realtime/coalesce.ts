/**
 * At most one run per `intervalMs`, and always one after the last request: the first request runs
 * on the next turn of the event loop (never inside the caller's request), later ones inside the window collapse into a single trailing run that reads the state
 * at that moment, so the final state is always delivered. The window starts when a run has
 * finished (a fan-out to thousands of sockets takes a while), so runs never overlap and every
 * client receives them in order.
 */
export type Coalescer = { request(): void; close(): void };

export function coalesce(intervalMs: number, run: () => Promise<void> | void, onError: (err: unknown) => void): Coalescer {
  let timer: NodeJS.Timeout | undefined;
  let pending: NodeJS.Immediate | undefined;
  let running = false;
  let dirty = false;
  let closed = false;
  const openWindow = () => {
    running = false;
    if (closed) return;
    timer = setTimeout(window, intervalMs);
    timer.unref();
  };
  const fire = () => {
    running = true;
    let outcome: Promise<void>;
    try {
      outcome = Promise.resolve(run());
    } catch (err) {
      outcome = Promise.reject(err);
    }
    outcome.catch(onError).finally(openWindow);
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
