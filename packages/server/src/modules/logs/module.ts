import type { Core } from '../../core';
import type { Module } from '../../lib/module';
import { logsRoutes } from './logs.router';

/** The logs module: uses no other module and owns no service. */
export function createLogs(_core: Core): Module<ReturnType<typeof logsRoutes>> {
  return { routes: (at) => logsRoutes(at), services: {} };
}
