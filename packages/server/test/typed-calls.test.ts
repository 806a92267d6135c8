import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Tests that are typed (issue #38 item 5): a server test calls the API through the contract client
 * (test/client.ts), not by spelling API paths by hand. Every test file is converted: a file that
 * spells one (a quoted path starting with /api) is listed below only because its raw calls are the
 * point, with the reason. A new file that spells a path without being listed fails the first test;
 * a listed file that no longer spells one fails the second (it leaves the list).
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Raw HTTP on purpose: the bytes, headers or paths are what the test checks. */
const RAW_ON_PURPOSE: Record<string, string> = {
  'src/http/public-results.test.ts': 'the fast path against the Express route: bytes, ETag and If-None-Match, content-length, headers',
  'src/modules/ballots/vote-session.test.ts': 'the order of refusals over bad bodies, media types and query strings as sent',
  'src/modules/candidates/candidates.test.ts': 'malformed multipart bodies as sent (400); the photo served is no contract route',
  'src/modules/declaration/declaration-pdf.test.ts':
    "the declaration PDF's and the evidence pack's bytes (the client reads JSON or text); its other calls are typed",
  'src/modules/declaration/evidence.test.ts': "the evidence pack's zip bytes (the client reads JSON or text)",
  'src/modules/elections/many-elections.test.ts':
    "two elections' declaration PDFs, rendered at once, as bytes (the client reads JSON or text); its other calls are typed",
  'src/modules/help/help.test.ts': 'JSON sent to the multipart report route (415); the report images served are no contract routes',
  'src/modules/results/visibility.test.ts': 'the public results on the /api alias, answered by the fast path',
  'src/modules/members/members.test.ts': 'JSON sent to a multipart route (415)',
  'src/modules/nominations/nominations.test.ts':
    'acceptance sent as JSON to a route that takes multipart or JSON (the client sends multipart)',
  'src/modules/ussd/ussd.test.ts':
    "the gateway's callback (no contract route: form-encoded in, text/plain out) with a wrong, missing or unset token and a body not the gateway's; its other calls are typed",
  'test/api/openapi.test.ts': 'the OpenAPI document and docs are not contract routes',
  'test/foundation.test.ts': 'malformed JSON, media types, unknown paths and the /api alias, the OpenAPI document, request logs',
  'test/reliability/crash.test.ts': 'raw requests to a server process that is killed and restarted',
  'test/reliability/faults.test.ts': 'raw requests to a server process under database faults',
  'test/reliability/fuzz.test.ts': 'fuzzed requests, on /api/v1 and the /api alias',
  'test/reliability/races.test.ts': 'concurrent requests to a listening server',
  'test/security/access-matrix.test.ts': 'every contract route by its path and on the /api alias; tokens in a query, a cookie, Basic',
  'test/security/headers.test.ts': 'X-Forwarded-Proto and the security headers',
  'test/security/hostile-input.test.ts': 'hostile and malformed input on the wire',
  'test/security/id-bounds.test.ts': 'ids beyond the integer range in paths, bodies and queries, as sent',
  'test/security/log-redaction.test.ts': 'paths as logged: aliases, query strings, broken JSON, unknown paths',
  'test/security/no-store.test.ts': 'Cache-Control on every route by its path',
  'test/security/receipt-check.test.ts': 'a different X-Forwarded-For on each check, and codes as typed (encoded by hand)',
  'test/security/uploads.test.ts': 'malformed multipart bodies and a half-sent upload on the wire; uploads served (no contract routes)',
};

/** A quoted path of the API: a quote, then /api and a slash or the closing quote. */
const SPELLED = /['"`]\/api(\/|['"`])/;

function testFiles(): string[] {
  const files: string[] = [];
  for (const dir of ['src', 'test']) {
    for (const entry of readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })) {
      if (entry.endsWith('.test.ts')) files.push(`${dir}/${entry.split('\\').join('/')}`);
    }
  }
  return files.sort();
}

const spelling = testFiles().filter((file) => SPELLED.test(readFileSync(join(ROOT, file), 'utf8')));

describe('tests that are typed', () => {
  it('spell API paths by hand only in the files listed raw on purpose', () => {
    const unlisted = spelling.filter((file) => !(file in RAW_ON_PURPOSE));
    expect(unlisted, 'call the API through test/client.ts (apiClient, browserClient), or list the file with its reason').toEqual([]);
  });

  it('list only files that still spell a path (a converted file leaves the list)', () => {
    const still = new Set(spelling);
    const stale = Object.keys(RAW_ON_PURPOSE).filter((file) => !still.has(file));
    expect(stale).toEqual([]);
  });

  it('recognises an API path spelled by hand, however quoted, and nothing else', () => {
    // The paths are built here, so that this file spells none itself.
    const api = ['', 'api'].join('/');
    for (const quote of ["'", '"', '`']) {
      for (const path of [api, `${api}/v1`, `${api}/v1/members`]) expect(SPELLED.test(`get(${quote}${path}${quote})`), path).toBe(true);
      for (const path of [`${api}ary`, `/v1${api}`, '/sanctum/csrf-cookie'])
        expect(SPELLED.test(`get(${quote}${path}${quote})`), path).toBe(false);
    }
    expect(SPELLED.test('api.members.listMembers()')).toBe(false);
  });
});
