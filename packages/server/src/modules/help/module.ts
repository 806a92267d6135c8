import type { Core } from '../../core';
import type { Module } from '../../lib/module';
import { helpRoutes } from './help.router';

/** The help module: uses no other module and owns no service. */
export function createHelp(_core: Core): Module<ReturnType<typeof helpRoutes>> {
  return { routes: (at) => helpRoutes(at), services: {} };
}
