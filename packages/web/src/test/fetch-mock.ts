import { vi } from 'vitest';

export type MockReply = { status: number; body?: unknown };
export type MockHandler = (path: string, init: RequestInit | undefined) => MockReply | undefined;

/** Replaces global fetch: each call goes to the handler by path (without /api/v1); unknown paths answer 404. */
export function mockFetch(handler: MockHandler) {
  const calls: Array<{ path: string; method: string; body: unknown }> = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const path = url.pathname.replace(/^\/api\/v1/, '');
    let body: unknown = init?.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        // keep the raw string
      }
    }
    calls.push({ path, method: init?.method ?? 'GET', body });
    const reply = handler(path, init) ?? { status: 404, body: { message: 'Not found' } };
    const status = reply.status;
    const noBody = status === 204 || reply.body === undefined;
    return new Response(noBody ? null : JSON.stringify(reply.body), {
      status,
      headers: noBody ? {} : { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fn);
  return { fn, calls };
}
