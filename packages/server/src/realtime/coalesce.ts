/**
 * At most one run per `intervalMs`, and always one after the last request: the first request runs
 * at once, later ones inside the window collapse into a single trailing run that reads the state
 * at that moment, so the final state is always delivered.
 */
export type Coalescer = { request(): void; close(): void };

export function coalesce(intervalMs: number, run: () => Promise<void> | void, onError: (err: unknown) => void): Coalescer {
  let timer: NodeJS.Timeout | undefined;
  let dirty = false;
  let closed = false;
  const fire = () => {
    try {
      void Promise.resolve(run()).catch(onError);
    } catch (err) {
      onError(err);
    }
    timer = setTimeout(window, intervalMs);
    timer.unref();
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
      if (timer) dirty = true;
      else fire();
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
