import type { Core } from '../core';

/**
 * What a module factory (`create<Module>(core, deps)` in modules/<m>/module.ts) answers
 * (docs/architecture.md "How modules are composed"): its handlers and the long-lived services it
 * owns. Its domain-event handlers are subscribed by those services when they start, and removed
 * when they stop, so building a module has no side effects.
 */
export type Module<Routes, Services extends object = Record<never, never>> = {
  /**
   * Builds the module's ts-rest handlers on the core an Express app runs on (each app its own
   * limiters; a test's copy of the core may vary a setting), with the module's own services and deps.
   */
  routes: (core: Core) => Routes;
  /** The services the module owns; the composition root (src/services.ts) starts and stops them. */
  services: Services;
};
