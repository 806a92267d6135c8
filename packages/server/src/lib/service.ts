/**
 * A long-lived, per-process service a module owns: built once by its module factory (called by
 * `services.ts`) without side effects, started once the database is ready, stopped at shutdown
 * (docs/architecture.md "How modules are composed").
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
