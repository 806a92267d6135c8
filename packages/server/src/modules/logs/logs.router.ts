import type { Contract } from '@kura/contract';
import type { Core } from '../../core';
import type { RouterImplementation } from '../../http/routes';
import { searchLogs } from './logs.service';

export function logsRoutes(ctx: Core): RouterImplementation<Contract['api']['logs']> {
  return {
    listLogs: async ({ query }) => ({ status: 200, body: { data: await searchLogs(ctx, query) } }),

    searchLogs: async ({ query: { page, per_page, ...filters } }) => ({
      status: 200,
      body: { data: await searchLogs(ctx, { page, per_page }, filters) },
    }),
  };
}
