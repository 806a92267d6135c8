import type { AppRoute } from '@ts-rest/core';
import { ErrorBody } from '@kura/contract';
import fc from 'fast-check';
import { isZodType } from '@ts-rest/core';
import type { ZodTypeAny } from 'zod';

/**
 * Request generators for the fuzzer: a fast-check arbitrary per zod schema of the contract (so
 * valid-looking requests reach the handlers), and hostile mutations of them (wrong types, missing
 * and extra fields, huge strings, unicode, extreme numbers, arrays for scalars, malformed JSON,
 * wrong content types, garbage multipart).
 */

type Def = { typeName?: string; [k: string]: unknown };
const defOf = (s: ZodTypeAny) => (s as unknown as { _def: Def })._def;

const HOSTILE_STRINGS = [
  '',
  ' ',
  '0',
  '-1',
  '1e309',
  'NaN',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  "'; drop table members; --",
  '" or 1=1 --',
  '%00',
  '\u0000',
  '\ud800',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '🗳️✅👩🏽‍⚕️',
  'ﷺ'.repeat(50),
  'A'.repeat(151),
  'CMAKE12/34',
  '1234',
  '0712345678',
  'x@y.z',
  'VP-0000-0000',
];

const HOSTILE_NUMBERS = [0, -0, -1, 1, 2 ** 31, -(2 ** 31), 2 ** 53, -(2 ** 53), 1e308, -1e308, 0.5, 1e-300, Number.MAX_SAFE_INTEGER + 2];

export const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 200 }),
  fc.integer({ min: 151, max: 20_000 }).map((n) => 'x'.repeat(n)),
);

export const hostileNumber = fc.oneof(
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON value, leaning towards the hostile ones. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumber,
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

function checks(def: Def): { kind: string; value?: unknown; regex?: RegExp }[] {
  return (def.checks as { kind: string; value?: unknown; regex?: RegExp }[] | undefined) ?? [];
}

/** A value the schema would (mostly) accept. */
export function arbitraryOf(schema: ZodTypeAny): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.typeName) {
    case 'ZodObject': {
      const shape = (schema as unknown as { shape: Record<string, ZodTypeAny> }).shape;
      const entries = Object.entries(shape);
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of entries) model[k] = arbitraryOf(v);
      const required = entries.filter(([, v]) => !v.isOptional()).map(([k]) => k);
      return fc.record(model, { requiredKeys: required as never[] });
    }
    case 'ZodString': {
      const cs = checks(def);
      const min = (cs.find((c) => c.kind === 'min')?.value as number | undefined) ?? 0;
      const max = (cs.find((c) => c.kind === 'max')?.value as number | undefined) ?? 60;
      const regex = cs.find((c) => c.kind === 'regex')?.regex;
      if (cs.some((c) => c.kind === 'email')) return fc.emailAddress();
      // A pattern fixes its own length (a signature's 88 base64 characters): only an explicit max
      // filters it, or the filter never passes and generation spins forever.
      const explicitMax = cs.find((c) => c.kind === 'max')?.value as number | undefined;
      if (regex) return fc.stringMatching(regex).filter((s) => s.length >= min && (explicitMax === undefined || s.length <= explicitMax));
      return fc.string({ minLength: min, maxLength: Math.min(max, 200) });
    }
    case 'ZodNumber': {
      const cs = checks(def);
      const min = (cs.find((c) => c.kind === 'min')?.value as number | undefined) ?? 1;
      const max = (cs.find((c) => c.kind === 'max')?.value as number | undefined) ?? 50;
      return fc.integer({ min: Math.max(min, -5), max: Math.min(max, 60) });
    }
    case 'ZodBoolean':
      return fc.boolean();
    case 'ZodLiteral':
      return fc.constant(def.value);
    case 'ZodEnum':
      return fc.constantFrom(...(def.values as string[]));
    case 'ZodArray':
      return fc.array(arbitraryOf(def.type as ZodTypeAny), { maxLength: 4 });
    case 'ZodRecord':
      return fc.dictionary(fc.integer({ min: 1, max: 40 }).map(String), arbitraryOf(def.valueType as ZodTypeAny), {
        maxKeys: 4,
        minKeys: 1,
      });
    case 'ZodOptional':
    case 'ZodDefault':
      return fc.option(arbitraryOf(def.innerType as ZodTypeAny), { nil: undefined, freq: 4 });
    case 'ZodNullable':
      return fc.option(arbitraryOf(def.innerType as ZodTypeAny), { nil: null, freq: 4 });
    case 'ZodEffects':
      return arbitraryOf(def.schema as ZodTypeAny);
    case 'ZodUnion':
      return fc.oneof(...(def.options as ZodTypeAny[]).map(arbitraryOf));
    default:
      return hostileValue;
  }
}

/** Mutations of an object: a field with a wrong type, a field removed, extra fields, hostile scalars. */
export function mutateObject(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const asObject = valid.map((v) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}));
  return fc.oneof(
    // a field replaced by anything
    fc.tuple(asObject, hostileValue, fc.nat()).map(([o, bad, i]) => {
      const keys = Object.keys(o);
      if (keys.length === 0) return { x: bad };
      return { ...o, [keys[i % keys.length]!]: bad };
    }),
    // a field dropped
    fc.tuple(asObject, fc.nat()).map(([o, i]) => {
      const keys = Object.keys(o);
      const copy = { ...o };
      if (keys.length) delete copy[keys[i % keys.length]!];
      return copy;
    }),
    // extra fields (prototype pollution attempts included)
    fc
      .tuple(
        asObject,
        fc.dictionary(
          fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'role', 'isAdmin', 'id'), fc.string({ maxLength: 10 })),
          hostileValue,
          { maxKeys: 3 },
        ),
      )
      .map(([o, extra]) => ({ ...o, ...extra })),
    // a scalar wrapped in an array
    fc.tuple(asObject, fc.nat()).map(([o, i]) => {
      const keys = Object.keys(o);
      if (keys.length === 0) return [o];
      const k = keys[i % keys.length]!;
      return { ...o, [k]: [o[k], o[k]] };
    }),
    // the whole body something else
    hostileValue,
  );
}

export type FuzzRequest = {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body?: Buffer | string;
  /** what the generator produced, for failure messages */
  label: string;
};

/** Percent-encodes any JS string (lone surrogates become U+FFFD, as a browser would send them). */
export const pct = (s: string): string =>
  [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** Node refuses request heads over 16 KiB (431) before the app sees them; stay under that. */
const MAX_QUERY = 6000;

const encodeQuery = (q: unknown): string => encodeQueryRaw(q).slice(0, MAX_QUERY);

const asText = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

const encodeQueryRaw = (q: unknown): string => {
  if (!q || typeof q !== 'object' || Array.isArray(q)) return q === undefined ? '' : `q=${pct(asText(q))}`;
  const parts: string[] = [];
  for (const [k, v] of Object.entries(q as Record<string, unknown>)) {
    if (v === undefined) continue;
    const values = Array.isArray(v) ? v : [v];
    for (const one of values) parts.push(`${pct(k)}=${pct(asText(one))}`);
  }
  return parts.join('&');
};

const pathParam = fc.oneof(
  fc.integer({ min: 1, max: 40 }).map(String),
  fc.constantFrom(
    '0',
    '-1',
    '1.5',
    '1e3',
    '99999999999999999999',
    'abc',
    '%',
    '%zz',
    '..%2F..%2Fetc',
    'VP-7K3Q-M9XD',
    '%20',
    '%00',
    '%C3%A9',
    '%2e%2e',
    '%E0%A4%A',
  ),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }).map(pct),
  fc.integer({ min: 65, max: 400 }).map((n) => 'A'.repeat(n)),
);

/** The bytes of a file part: an image, an image with a script after it, garbage, nothing. */
const PNG_1PX = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2216bc70000000049454e44ae426082',
  'hex',
);
const fileBytes = fc.oneof(
  fc.constant(PNG_1PX),
  fc.constant(Buffer.concat([PNG_1PX, Buffer.from('<?php system($_GET["c"]); ?><script>alert(1)</script>')])),
  fc.constant(Buffer.from('GIF89a<script>alert(1)</script>')),
  fc.constant(Buffer.from('%PDF-1.4\n%âãÏÓ\n')),
  fc.constant(Buffer.from('member_no,name,email,phone,branch\n123,A,a@b.c,0712345678,Nairobi\n')),
  fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
  fc.constant(Buffer.alloc(0)),
);
const fileName = fc.oneof(
  fc.constantFrom(
    'photo.png',
    '../../../../tmp/owned.png',
    '..\\..\\evil.jpg',
    '/etc/passwd',
    'a.php.png',
    '.htaccess',
    'x\u0000.png',
    '',
    'CON',
    'a'.repeat(300) + '.png',
  ),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
);
const fieldName = (known: string[]) =>
  fc.oneof(fc.constantFrom(...known, 'file', 'image', 'images', 'images[]', 'evil', ''), fc.string({ maxLength: 20 }));

type Part = { name: string; value: string } | { name: string; filename: string; type: string; data: Buffer };

function multipartBody(boundary: string, parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ('data' in p) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n`,
        ),
      );
      chunks.push(p.data, Buffer.from('\r\n'));
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const fieldValue = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

/** A multipart body built from the route's fields, with fuzzed files, names and breakage. */
function multipartArbitrary(route: AppRoute): fc.Arbitrary<{ headers: Record<string, string>; body: Buffer; label: string }> {
  const body = (route as { body?: unknown }).body;
  const schema = isZodType(body) ? (body as ZodTypeAny) : undefined;
  const fields = schema ? arbitraryOf(schema) : fc.constant({});
  const known = schema && defOf(schema).typeName === 'ZodObject' ? Object.keys((schema as unknown as { shape: object }).shape) : [];
  const textParts = fc.oneof(fields, mutateObject(fields)).map((o) => {
    const parts: Part[] = [];
    if (o && typeof o === 'object' && !Array.isArray(o)) {
      for (const [k, v] of Object.entries(o as Record<string, unknown>)) {
        if (Array.isArray(v)) for (const one of v) parts.push({ name: `${k}[]`, value: fieldValue(one) });
        else parts.push({ name: k, value: fieldValue(v) });
      }
    }
    return parts;
  });
  const fileParts = fc.array(
    fc.record({
      name: fieldName(known),
      filename: fileName,
      type: fc.constantFrom('image/png', 'image/jpeg', 'text/csv', 'application/octet-stream', 'text/html'),
      data: fileBytes,
    }),
    { maxLength: 7 },
  );
  const boundary = 'fuzzBoundary' + Math.random().toString(16).slice(2);
  return fc
    .tuple(
      textParts,
      fileParts,
      fc.constantFrom('ok', 'ok', 'ok', 'truncated', 'no-boundary', 'wrong-boundary', 'garbage', 'header-garbage'),
    )
    .map(([t, f, mode]) => {
      let body = multipartBody(boundary, [
        ...t,
        ...f.map((p) => ({ ...p, name: p.name.replace(/"/g, ''), filename: p.filename.replace(/["\r\n]/g, '') })),
      ]);
      let contentType = `multipart/form-data; boundary=${boundary}`;
      if (mode === 'truncated') body = body.subarray(0, Math.max(1, Math.floor(body.length / 2)));
      if (mode === 'no-boundary') contentType = 'multipart/form-data';
      if (mode === 'wrong-boundary') contentType = 'multipart/form-data; boundary=somethingElse';
      if (mode === 'garbage') body = Buffer.from(`--${boundary}\r\nthis is not a part header\r\n\r\n\u0000\u0001--${boundary}`);
      if (mode === 'header-garbage')
        body = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name=\r\nContent-Type: \r\n\r\nx\r\n--${boundary}--\r\n`);
      return {
        headers: { 'content-type': contentType },
        body,
        label: `multipart ${mode} fields=${JSON.stringify(t).slice(0, 200)} files=${f.map((p) => `${p.name}:${p.filename.slice(0, 40)}:${p.data.length}`).join(',')}`,
      };
    });
}

/** A JSON body: valid per schema, mutated, or not JSON / not declared JSON at all. */
function jsonBodyArbitrary(route: AppRoute): fc.Arbitrary<{ headers: Record<string, string>; body?: Buffer | string; label: string }> {
  const body = (route as { body?: unknown }).body;
  const schema = isZodType(body) ? (body as ZodTypeAny) : undefined;
  const valid = schema ? arbitraryOf(schema) : fc.constant({});
  const json = fc.oneof({ weight: 3, arbitrary: valid }, { weight: 4, arbitrary: mutateObject(valid) }).map((v) => {
    const text = JSON.stringify(v === undefined ? null : v);
    return { headers: { 'content-type': 'application/json' }, body: text, label: `json ${text.slice(0, 300)}` };
  });
  const broken = fc
    .oneof(
      valid.map((v) => JSON.stringify(v ?? {}).slice(0, -1)),
      fc.constantFrom(
        '{',
        '{"a":',
        '[1,2',
        '{"a":1,}',
        "{'a':1}",
        'nul',
        '"\\ud800"',
        '{"__proto__":{"admin":true}}',
        '\u0000',
        '{"a":"\\u0000"}',
        'NaN',
        '1e999999',
        '{"a":1}{"b":2}',
      ),
      fc.string({ maxLength: 100 }),
    )
    .map((text) => ({ headers: { 'content-type': 'application/json' }, body: text, label: `malformed json ${text.slice(0, 200)}` }));
  const wrongType = fc
    .tuple(
      fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/xml',
        'multipart/form-data; boundary=x',
        'application/json; charset=utf-16',
        'application/json; charset=koi8-r',
        'image/png',
        '',
      ),
      valid,
    )
    .map(([type, v]) => ({
      headers: type ? { 'content-type': type } : ({} as Record<string, string>),
      body: type === 'application/x-www-form-urlencoded' ? encodeQueryRaw(v) : JSON.stringify(v ?? {}),
      label: `content-type ${type || '(none)'}`,
    }));
  const huge = fc.constantFrom(101 * 1024, 300 * 1024).map((n) => ({
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ x: 'y'.repeat(n) }),
    label: `huge json ${n}`,
  }));
  const none = fc.constant({ headers: {} as Record<string, string>, body: undefined, label: 'no body' });
  return fc.oneof(
    { weight: 10, arbitrary: json },
    { weight: 3, arbitrary: broken },
    { weight: 2, arbitrary: wrongType },
    { weight: 1, arbitrary: huge },
    { weight: 1, arbitrary: none },
  );
}

/** One fuzzed request for the route (without the caller's identity). */
export function requestArbitrary(route: AppRoute): fc.Arbitrary<FuzzRequest> {
  const params = route.path.match(/:(\w+)/g) ?? [];
  const path = fc.array(pathParam, { minLength: params.length, maxLength: params.length }).map((values) => {
    let i = 0;
    return route.path.replace(/:(\w+)/g, () => values[i++]!);
  });
  const querySchema = isZodType(route.query) ? (route.query as ZodTypeAny) : undefined;
  const queryValid = querySchema ? arbitraryOf(querySchema) : fc.constant({});
  const query = fc.oneof({ weight: 3, arbitrary: queryValid }, { weight: 2, arbitrary: mutateObject(queryValid) }).map(encodeQuery);
  const body =
    route.method === 'GET'
      ? fc.constant({ headers: {} as Record<string, string>, body: undefined as Buffer | string | undefined, label: '' })
      : (route as { contentType?: string }).contentType === 'multipart/form-data'
        ? fc.oneof({ weight: 4, arbitrary: multipartArbitrary(route) }, { weight: 1, arbitrary: jsonBodyArbitrary(route) })
        : jsonBodyArbitrary(route);
  return fc.tuple(path, query, body).map(([p, q, b]) => ({
    method: route.method,
    path: p,
    query: q,
    headers: b.headers,
    body: b.body,
    label: `${route.method} ${p}${q ? `?${q.slice(0, 200)}` : ''} ${b.label}`,
  }));
}

/** What every answer must look like: a documented status and, for errors, the error envelope (docs/api.md "Errors"). */
export function documentedStatuses(route: AppRoute): Set<number> {
  const statuses = new Set(Object.keys(route.responses).map(Number));
  // docs/api.md "Errors": 413 (too large) and 415 (wrong media type) apply to every call that takes a body.
  if (route.method !== 'GET') {
    statuses.add(413);
    statuses.add(415);
  }
  // 500 is never acceptable ("No input, however malformed, produces a 500").
  statuses.delete(500);
  return statuses;
}

export function checkAnswer(route: AppRoute, status: number, contentType: string | null, text: string): string | undefined {
  const documented = documentedStatuses(route);
  if (!documented.has(status))
    return `status ${status} is not documented for ${route.method} ${route.path} (${[...documented].join(',')}): ${text.slice(0, 300)}`;
  if (status >= 400) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return `error body is not JSON: ${text.slice(0, 200)}`;
    }
    const parsed = ErrorBody.strict().safeParse(body);
    if (!parsed.success) return `error body is not the error envelope: ${text.slice(0, 300)}`;
    if (/node_modules|\/work\/|at [\w.]+ \(|select .* from|stack/i.test(text)) return `error body leaks internals: ${text.slice(0, 300)}`;
    if (!(contentType ?? '').includes('application/json')) return `error answer is ${contentType}`;
  } else if (status !== 204 && (contentType ?? '').includes('application/json')) {
    const schema = route.responses[status as keyof typeof route.responses];
    if (isZodType(schema)) {
      const parsed = (schema as ZodTypeAny).safeParse(JSON.parse(text));
      if (!parsed.success) return `2xx body does not match the contract: ${text.slice(0, 300)}`;
    }
  }
  return undefined;
}
