import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { API_PREFIX, contract } from '@kura/contract';

/**
 * What the request log may say about a URL. Path parameters can be secrets (a receipt code in
 * `psk/receipt/{vvpat}`, later perhaps a token), and the log also holds the caller's address,
 * which the activity log ties to a member. So the rule is structural, not a list of secret
 * routes: a request to a contract route is logged as the route's pattern
 * (`/api/v1/psk/receipt/:vvpat`), never with its parameter values; any other URL (a 404, the web
 * app's own pages, uploads, assets) keeps only its first segment, and that only when it is a
 * lower-case word (`/uploads/…`; a code or token there has digits or capitals). The query string
 * is never logged. A new route is covered the moment it is in the contract
 * (`test/security/log-redaction.test.ts` requests every parameterised route with a marker).
 */

type Pattern = { regex: RegExp; pattern: string };

function compile(router: AppRouter, out: Pattern[] = []): Pattern[] {
  for (const value of Object.values(router)) {
    if (!isAppRoute(value as AppRoute | AppRouter)) {
      compile(value as AppRouter, out);
      continue;
    }
    const path = (value as AppRoute).path;
    if (!path.includes(':')) continue;
    const source = path
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    out.push({ regex: new RegExp(`^${source}/?$`), pattern: path });
  }
  return out;
}

let patterns: Pattern[] | undefined;
let staticPaths: Set<string> | undefined;

function staticRoutes(router: AppRouter, out = new Set<string>()): Set<string> {
  for (const value of Object.values(router)) {
    if (isAppRoute(value as AppRoute | AppRouter)) {
      const path = (value as AppRoute).path;
      if (!path.includes(':')) out.add(path);
    } else staticRoutes(value as AppRouter, out);
  }
  for (const extra of ['/', '/healthz', '/readyz', '/api/openapi.json']) out.add(extra);
  return out;
}

/** The path as the log may show it (see above). */
export function loggedPath(url: string | undefined): string {
  patterns ??= compile(contract);
  staticPaths ??= staticRoutes(contract);
  let path = (url ?? '/').split('?')[0]!.split('#')[0]!;
  // The `/api/...` alias is the same router as `/api/v1/...`.
  if (path.startsWith('/api/') && !path.startsWith(`${API_PREFIX}/`) && !path.startsWith('/api/docs') && path !== '/api/openapi.json') {
    path = `${API_PREFIX}${path.slice(4)}`;
  }
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  if (staticPaths.has(trimmed)) return trimmed;
  for (const p of patterns) if (p.regex.test(path)) return p.pattern;
  const first = path.split('/')[1] ?? '';
  const rest = path.split('/').length > 2;
  return `/${/^[a-z][a-z._-]{0,31}$/.test(first) ? first : '…'}${rest ? '/…' : ''}`;
}
