import type { IncomingMessage, ServerResponse } from 'node:http';
import { ResultsResponse, type ResultGroup } from '@kura/contract';
import type { AppContext } from '../context';

import { mayViewResults } from '../modules/results';

/** The paths of the public results read (`/api/...` is the alias of `/api/v1/...`). */
const PATHS = new Set(['/api/v1/psk/results', '/api/psk/results']);

/** `res.setHeader` calls a header middleware makes (helmet's are the same for every response). */
export function staticHeadersOf(middleware: (req: never, res: never, next: () => void) => void): [string, string][] {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number | string[]) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
    getHeader: (name: string) => headers.get(name.toLowerCase()),
  };
  middleware({ headers: {}, method: 'GET', url: '/' } as never, recorder as never, () => {});
  return [...headers];
}

const matches = (ifNoneMatch: string | undefined, etag: string) =>
  ifNoneMatch !== undefined && (ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => tag.trim() === etag));

/**
 * `GET psk/results` answered before Express: the most read route during an election (every
 * member's dashboard, every public screen) and identical for every caller. The body is
 * serialised once per results change, keyed by the snapshot's own cache (a new array on every
 * change), with the ETag Express would give it (`etagOf` is the app's own etag function) for
 * conditional reads. Same body, status and security headers as the contract route it stands in
 * for; anything else (another method, a query string, a snapshot not built yet, results not
 * public under the election's results visibility) returns false and Express answers as before.
 */
export function publicResultsFastPath(ctx: AppContext, securityHeaders: [string, string][], etagOf: (body: Buffer) => string) {
  let source: ResultGroup[] | undefined;
  let body = Buffer.alloc(0);
  let etag = '';
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET' || !req.url || !PATHS.has(req.url)) return false;
    // Only while results are public to anyone, by a fresh gate; otherwise Express decides (403 or
    // a signed-in staff member's read).
    const gate = ctx.resultsGate.current();
    if (!gate || !mayViewResults(gate, null)) return false;
    // The current election's snapshot: the gate names which election is current.
    if (gate.electionId === undefined) return false;
    const tally = ctx.voting.tallyOf(gate.electionId);
    if (!tally.loaded) return false;
    const groups = tally.results();
    if (groups !== source) {
      const payload = { data: { data: groups } };
      // Tests check the stand-in against the contract, as Express's response validation would.
      if (ctx.env.NODE_ENV === 'test') ResultsResponse.parse(payload);
      body = Buffer.from(JSON.stringify(payload));
      etag = etagOf(body);
      source = groups;
    }
    for (const [name, value] of securityHeaders) res.setHeader(name, value);
    res.setHeader('ETag', etag);
    if (matches(req.headers['if-none-match'], etag)) {
      res.statusCode = 304;
      res.end();
      return true;
    }
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', body.length);
    res.statusCode = 200;
    res.end(body);
    return true;
  };
}
