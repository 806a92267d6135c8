/**
 * A long-lived, per-process service carried on `AppContext`: built once by the composition root
 * (`services.ts`) without side effects, started once the database is ready, stopped at shutdown.
 */
export type Service = {
  start(): void | Promise<void>;
  stop(): Promise<void>;
};

/** A service from a background loop's start function, which answers the loop's stop function. */
export function loopService(start: () => () => Promise<void>): Service {
  let stop: (() => Promise<void>) | undefined;
  return {
    start() {
      stop ??= start();
    },
    async stop() {
      const running = stop;
      stop = undefined;
      await running?.();
    },
  };
}
