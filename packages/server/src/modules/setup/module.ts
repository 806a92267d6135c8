import type { Core } from '../../core';
import type { Module } from '../../lib/module';
import { setupRoutes } from './setup.router';

/** The setup module: uses no other module and owns no service. */
export function createSetup(_core: Core): Module<ReturnType<typeof setupRoutes>> {
  return { routes: (at) => setupRoutes(at), services: {} };
}
