/**
 * A long-lived, per-process service a module owns: built once by its module factory (called by
 * `services.ts`) without side effects, started once the database is ready, stopped at shutdown
 * (docs/architecture.md "How modules are composed").
 */
export type Service = {
  start(): void | Promise<void>;
  stop(): Promise<void>;
};
