/**
 * The composed context's types, for the top of the tree (app, bootstrap, CLI, tests): modules
 * never import this file; they get the core (core.ts) and their named deps (docs/architecture.md
 * "How modules are composed").
 */
export type { Core } from './core';
export type { DomainEventBus, DomainEventHandlers, DomainEvents } from './events';
export type { AppContext, ApiRoutes, Services } from './services';
