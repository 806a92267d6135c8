import { vi } from 'vitest';
import type { AppRoute, ServerInferResponses } from '@ts-rest/core';

export type Reply = { status: number; body?: unknown; headers?: Record<string, string> };
export type Call = { method: string; path: string; search: URLSearchParams; body: unknown };

/**
 * The tests' one fetch stand-in: replaces global fetch and routes each call by method and path
 * (without /api/v1) to `route`; a path it does not answer is 404, GET /sanctum/csrf-cookie is 204.
 * Answers the list of calls made, in order. Untyped: tests answer through `stubRoutes` (below), and
 * a test file calls this directly only from the allow-list of src/test/typed-stubs.test.ts.
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
      headers: { ...(empty ? {} : { 'content-type': 'application/json' }), ...reply.headers },
    });
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

/** A contract route's answer: one of its declared statuses with that status's body (typed), and any headers (e.g. Retry-After). */
export type RouteReply<R extends AppRoute> = ServerInferResponses<R> & { headers?: Record<string, string> };

/** One route's stand-in for `stubRoutes`: its method, its path (with `:params`) and its answer. */
export type RouteStub = { method: string; route: string; matches: (call: Call) => boolean; reply: (call: Call) => Reply | undefined };

/**
 * Answers a contract route (e.g. `stub(contract.api.auth.changePin, { status: 200, body: { message: 'Pin changed' } })`),
 * with a fixed answer or one made per call (a per-call reply may answer `undefined` to leave the
 * call to the next stub of the route, see `stubRoutes`). The body is checked against the
 * contract's response for that status. `params` narrows the stub to the calls whose path has
 * those values (e.g. `{ id: 7 }` for `/members/:id`: DELETE members/7 only); the others are left
 * to the next stub.
 */
export function stub<R extends AppRoute>(
  route: R,
  // NoInfer: the route alone fixes R, so a reply function that ignores the call is typed by it too.
  reply: NoInfer<RouteReply<R> | ((call: Call) => RouteReply<R> | undefined)>,
  params: Record<string, string | number> = {},
): RouteStub {
  const path = route.path.replace(/^\/api\/v1/, '');
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(
    `^${literal(path).replace(/:([A-Za-z_]+)/g, (_, name: string) =>
      name in params ? literal(encodeURIComponent(String(params[name]))) : '[^/]+',
    )}$`,
  );
  return {
    method: route.method,
    route: path,
    matches: (call) => call.method === route.method && pattern.test(call.path),
    reply: (call) => (typeof reply === 'function' ? reply(call) : reply) as Reply | undefined,
  };
}

/**
 * Answers a contract route with a body the contract does not declare: an older server's shape or a
 * malformed answer the app must cope with. The route is still the contract's (a renamed route
 * breaks the test) but the answer is not checked; each use says in a comment why it is off the
 * contract. Everything else goes through `stub`.
 */
export function stubOffContract(
  route: AppRoute,
  reply: Reply | ((call: Call) => Reply | undefined),
  params: Record<string, string | number> = {},
): RouteStub {
  const probe = stub(route, () => undefined, params);
  return { ...probe, reply: (call) => (typeof reply === 'function' ? reply(call) : reply) };
}

/**
 * The tests' fetch stand-in keyed by contract routes: each call goes to the first stub of its
 * route that answers it (a per-call reply that answers `undefined` passes the call on to the next
 * stub of that route, so a test's own stubs put first override a shared server's defaults for
 * some calls only); a call nobody answers is 404 (as `stubFetch`). Answers the list of calls made,
 * in order.
 */
export function stubRoutes(...stubs: RouteStub[]) {
  return stubFetch((call) => {
    for (const s of stubs) {
      const reply = s.matches(call) ? s.reply(call) : undefined;
      if (reply) return reply;
    }
    return undefined;
  });
}

/** The calls made to one contract route (with `params`: whose path has those values, as `stub`), in order. */
export function callsTo(calls: Call[], route: AppRoute, params: Record<string, string | number> = {}): Call[] {
  const probe = stub(route, () => undefined, params);
  return calls.filter((c) => probe.matches(c));
}

/** A Laravel-style paginator body, as the members, logs and issues lists answer. */
export const paginator = <T>(data: T[], current_page: number, last_page: number, per_page = 10) => ({
  data,
  current_page,
  last_page,
  per_page,
  total: last_page * per_page,
});
