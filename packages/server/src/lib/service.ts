/**
 * A long-lived, per-process service carried on `AppContext`: built once by the composition root
 * (`services.ts`) without side effects, started once the database is ready, stopped at shutdown.
 */
export type Service = {
  start(): void | Promise<void>;
  stop(): Promise<void>;
};
