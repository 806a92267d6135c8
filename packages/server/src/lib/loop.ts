import type { Logger } from 'pino';
import type { Service } from './service';

/**
 * A background loop of one process (the mixer, the commitment loop, the scheduler, the reminder
 * sender): each keeps only its work (`run`); the loop owns the rest. Runs never overlap: a wake-up
 * or a due timer during a run asks for one more run right after it (several asks are one). A run
 * that throws is logged and the loop carries on after `intervalMs`. `stop` waits for the run in
 * flight, then for `drain`. Timers are unref'd: a loop never keeps a process alive.
 */
export type LoopOptions = {
  logger: Pick<Logger, 'error'>;
  /** The log message when a run throws. */
  failure: string;
  /** Wait between runs (unless the run answers its own) and after a run that throws. */
  intervalMs: number;
  /** Start with a run (true) or with a wait of `intervalMs` (false). */
  runAtStart: boolean;
  /** One run of the loop's work; may answer the wait before the next run in ms (0: at once). */
  run: () => Promise<number | void>;
  /** Subscribes `wake` to whatever should run the loop at once; answers the unsubscribe. */
  wakeOn?: (wake: () => void) => () => void;
  /** Work a run left going (sends in flight), awaited by `stop` after the run in flight. */
  drain?: () => Promise<unknown>;
};

export type Loop = Service & {
  /** A run now, or right after the run in flight. Does nothing while the loop is stopped. */
  wake(): void;
  /** One run now, after the run in flight, whether or not the loop is started; its error is thrown. */
  runNow(): Promise<void>;
};

export function createLoop(options: LoopOptions): Loop {
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  /** The run in flight, settled (never rejects) once the next one is scheduled. */
  let running: Promise<void> | undefined;
  let again = false;
  let unsubscribe: (() => void) | undefined;

  const schedule = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(wake, ms);
    timer.unref();
  };
  const settle = (delay: number) => {
    running = undefined;
    if (!started) return;
    if (again) {
      again = false;
      wake();
    } else schedule(delay);
  };
  /** Starts a run (none is in flight); answers its outcome, errors included. */
  const begin = (): Promise<number> => {
    clearTimeout(timer);
    timer = undefined;
    const outcome = new Promise<number | void>((resolve) => resolve(options.run())).then((ms) => ms ?? options.intervalMs);
    running = outcome.then(settle, () => settle(options.intervalMs));
    return outcome;
  };
  function wake() {
    if (!started) return;
    if (running) {
      again = true;
      return;
    }
    begin().catch((err: unknown) => options.logger.error({ err }, options.failure));
  }

  return {
    start() {
      if (started) return;
      started = true;
      unsubscribe = options.wakeOn?.(wake);
      if (options.runAtStart) wake();
      else if (!running) schedule(options.intervalMs);
    },
    wake,
    async runNow() {
      while (running) await running;
      await begin();
    },
    async stop() {
      started = false;
      again = false;
      unsubscribe?.();
      unsubscribe = undefined;
      clearTimeout(timer);
      timer = undefined;
      while (running) await running;
      await options.drain?.();
    },
  };
}
