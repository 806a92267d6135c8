import { z } from 'zod';
import { c, errors, LogEntry, meta, PageQuery, paginated } from './common';
import { filterSchema } from './validation';
import { said } from './messages';

export const LogSearchQuery = PageQuery.extend({
  name: filterSchema(),
  activity: filterSchema(),
  user_id: filterSchema(20),
  /** With user_id: whose id (members and staff number their ids separately); "staff" is admin or agent. */
  user_type: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z
      .enum(['voter', 'agent', 'admin', 'staff'], {
        message: said('field.oneOf', { field: 'user type', options: ['voter', 'agent', 'admin', 'staff'] }),
      })
      .optional(),
  ),
  data: filterSchema(),
  ip_address: filterSchema(64),
  status: filterSchema(50),
});

/** `{data: paginator of LogEntry}` (spec: the client reads data.data.data and data.last_page). */
export const LogsResponse = z.object({ data: paginated(LogEntry) });

export const logsRouter = c.router({
  listLogs: {
    method: 'GET',
    path: '/logs',
    summary: 'Activity log, newest first, paginated',
    query: PageQuery,
    responses: { 200: LogsResponse, ...errors(401, 403) },
    metadata: meta('admin'),
  },
  searchLogs: {
    method: 'GET',
    path: '/search/logs',
    summary: 'Search the activity log by name, activity, user_id (and user_type), data, ip_address or status, paginated',
    query: LogSearchQuery,
    responses: { 200: LogsResponse, ...errors(401, 403) },
    metadata: meta('admin'),
  },
});
