import { vi } from 'vitest';

export type Reply = { status: number; body?: unknown };
export type Call = { method: string; path: string; search: URLSearchParams; body: unknown };

/**
 * The tests' one fetch stand-in: replaces global fetch and routes each call by method and path
 * (without /api/v1) to `route`; a path it does not answer is 404, GET /sanctum/csrf-cookie is 204.
 * Answers the list of calls made, in order.
 */
export function stubFetch(route: (call: Call) => Reply | undefined) {
  const calls: Call[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    let body: unknown = init?.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        // raw text
      }
    }
    const call = {
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.pathname.replace(/^\/api\/v1/, ''),
      search: url.searchParams,
      body,
    };
    calls.push(call);
    if (url.pathname === '/sanctum/csrf-cookie') return new Response(null, { status: 204 });
    const reply = route(call) ?? { status: 404, body: { message: 'Not found' } };
    const empty = reply.status === 204 || reply.body === undefined;
    return new Response(empty ? null : JSON.stringify(reply.body), {
      status: reply.status,
      headers: empty ? {} : { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

/** A Laravel-style paginator body, as the members, logs and issues lists answer. */
export const paginator = <T>(data: T[], current_page: number, last_page: number, per_page = 10) => ({
  data,
  current_page,
  last_page,
  per_page,
  total: last_page * per_page,
});
