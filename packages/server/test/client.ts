import { initClient, type ApiFetcher, type ApiFetcherArgs, type AppRoute } from '@ts-rest/core';
import { contract } from '@kura/contract';
import type { Express } from 'express';
import type { Server } from 'node:http';
import request from 'supertest';
import type { AppContext } from '../src/context';
import type { Role } from '../src/auth/sessions';
import { tokenFor } from './factories';

/**
 * A typed test client generated from the contract (ts-rest `initClient`): calls read
 * `admin.members.list({query})` with the contract's request types and a response typed as the
 * union of the route's declared answers; no path strings. Requests go through supertest to the
 * app in-process (or to a listening server), so every middleware runs as in production.
 * Raw HTTP stays with supertest where the bytes are the point (malformed JSON, media types,
 * path normalisation, headers).
 */

type Target = Express | Server;

/** One part of a multipart body: a file given as bytes with its name (and type). */
export type FilePart = { file: Buffer | string; filename: string; contentType?: string };

const isFilePart = (value: unknown): value is FilePart =>
  typeof value === 'object' && value !== null && 'filename' in value && 'file' in value;

/** The parts of a multipart body given as FormData or as an object of text fields and FileParts. */
async function multipartParts(raw: unknown): Promise<[string, string | { file: Buffer; filename: string; contentType?: string }][]> {
  const parts: [string, string | { file: Buffer; filename: string; contentType?: string }][] = [];
  const entries: [string, unknown][] = raw instanceof FormData ? [...raw.entries()] : Object.entries((raw ?? {}) as object);
  for (const [name, value] of entries) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined) continue;
      if (item instanceof File) {
        parts.push([name, { file: Buffer.from(await item.arrayBuffer()), filename: item.name, contentType: item.type || undefined }]);
      } else if (isFilePart(item)) {
        parts.push([name, { ...item, file: typeof item.file === 'string' ? Buffer.from(item.file) : item.file }]);
      } else {
        parts.push([name, String(item)]);
      }
    }
  }
  return parts;
}

/**
 * A multipart body: text fields and files (`{file: filePart(csv, 'members.csv')}`), as FormData; a
 * list is one field per item, as a browser sends `position_ids[]` or `images[]` (none for an empty list).
 */
export function multipart(fields: Record<string, string | FilePart | (string | FilePart)[] | undefined>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of value === undefined ? [] : Array.isArray(value) ? value : [value]) {
      if (typeof item === 'string') form.append(name, item);
      else
        form.append(
          name,
          new File([typeof item.file === 'string' ? Buffer.from(item.file) : item.file], item.filename, { type: item.contentType ?? '' }),
        );
    }
  }
  return form;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** Where a call goes: the app or a listening server, or a supertest agent with its cookie jar. */
type Requester = Target | { agent: ReturnType<typeof request.agent> };

/** ts-rest's fetcher contract, answered by supertest against the app. */
export function supertestFetcher(target: Requester): ApiFetcher {
  return async (args: ApiFetcherArgs) => {
    const method = args.method.toLowerCase() as Method;
    let req = 'agent' in target ? target.agent[method](args.path) : request(target)[method](args.path);
    for (const [name, value] of Object.entries(args.headers)) {
      // multipart: supertest writes its own content-type with the boundary.
      if (args.contentType === 'multipart/form-data' && name === 'content-type') continue;
      req = req.set(name, value);
    }
    if (args.contentType === 'multipart/form-data') {
      // The raw body, not ts-rest's FormData (which JSON-encodes every text field).
      for (const [name, item] of await multipartParts(args.rawBody)) {
        if (typeof item === 'string') req = req.field(name, item);
        else req = req.attach(name, item.file, { filename: item.filename, contentType: item.contentType });
      }
    } else if (args.body !== undefined && args.body !== null) {
      req = req.send(args.body as string);
    }
    const res = await req;
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers as Record<string, string | string[]>)) {
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    const type = String(res.headers['content-type'] ?? '');
    const body = type.includes('json') ? res.body : type.startsWith('text/') ? res.text : res.body;
    return { status: res.status, body, headers };
  };
}

/** The whole contract's client over `target`, sending `token` as the bearer session (if any). */
export function contractClient(target: Target, token?: string) {
  return initClient(contract, {
    baseUrl: '',
    baseHeaders: token ? { authorization: `Bearer ${token}` } : {},
    api: supertestFetcher(target),
    validateResponse: false,
    throwOnUnknownStatus: false,
  });
}

/**
 * The client of a browser (test/auth/browser.ts): its cookie jar (pending sign-in cookie,
 * XSRF-TOKEN) and the X-XSRF-TOKEN header on every call, as the web app sends them.
 */
export function browserClient(browser: { agent: ReturnType<typeof request.agent>; xsrf: string }, options: { csrf?: boolean } = {}) {
  return initClient(contract, {
    baseUrl: '',
    baseHeaders: options.csrf === false ? {} : { 'x-xsrf-token': browser.xsrf },
    api: supertestFetcher({ agent: browser.agent }),
    validateResponse: false,
    throwOnUnknownStatus: false,
  }).api;
}

/** The /api/v1 routers as `api.members.list(...)`, with the given bearer token (or none). */
export function apiClient(target: Target, token?: string) {
  return contractClient(target, token).api;
}
export type ApiClient = ReturnType<typeof apiClient>;

/**
 * Uploads `lines` as the register CSV (header `member_no,name,email,phone,branch`), as the admin's
 * browser does; `confirm` ticks "confirm contact changes".
 */
export function importRegisterCsv(client: ApiClient, lines: string[], confirm = false) {
  return client.members.importMembers({
    query: {},
    body: multipart({
      file: {
        file: Buffer.from(`member_no,name,email,phone,branch\n${lines.join('\n')}\n`),
        filename: 'members.csv',
        contentType: 'text/csv',
      },
      confirm_contact_changes: confirm ? '1' : undefined,
    }),
  });
}

/** A bearer session of the role (a fresh subject unless given) and its typed client. */
export async function signedIn(t: { app: Express; ctx: AppContext }, role: Role, subjectId?: number) {
  const token = await tokenFor(t.ctx, role, subjectId);
  return { token, api: apiClient(t.app, token) };
}

/** Header that sends the bearer token on one call: `{extraHeaders: asBearer(token)}`. */
export const asBearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The cookies an answer sets, as a Cookie header value (`name=value; name=value`), to send again later. */
export const cookiesSetBy = (res: { headers: Headers }) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');

/**
 * Headers that send `cookies` (a Cookie header value) with the CSRF pair on one call, as a browser
 * would but from no jar: to send a kept, copied or altered cookie again.
 * `{extraHeaders: withCookies(cookiesSetBy(res), browser.xsrf)}`
 */
export const withCookies = (cookies: string, xsrf: string) => ({ cookie: `${cookies}; XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf });

type Answer = { status: number; body: unknown };

/**
 * The body of an answer narrowed to the given status; throws (with the body) on any other, so a
 * test can read fields of a typed answer after asserting its status.
 */
export function bodyOf<R extends Answer, S extends R['status']>(res: R, status: S): Extract<R, { status: S }>['body'] {
  if (res.status !== status) throw new Error(`expected status ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Extract<R, { status: S }>['body'];
}

/** Calls the route at `key` (e.g. `api.auth.logout`) untyped, for tests generated over every route. */
export function callRoute(
  client: ReturnType<typeof contractClient>,
  key: string,
  args: { params?: Record<string, string>; body?: unknown; query?: Record<string, string> },
): Promise<Answer & { headers: Headers }> {
  let node: unknown = client;
  for (const part of key.split('.')) node = (node as Record<string, unknown>)[part];
  if (typeof node !== 'function') throw new Error(`no route ${key}`);
  return (node as (a: unknown) => Promise<Answer & { headers: Headers }>)(args);
}

/** Path parameters of a route filled with plausible values (an unknown id, a well-formed receipt). */
export function placeholderParams(route: AppRoute): Record<string, string> {
  return Object.fromEntries([...route.path.matchAll(/:(\w+)/g)].map(([, name]) => [name!, name === 'vvpat' ? 'VP-0000-0000' : '999999']));
}

/** A deliberately malformed input (wrong type, missing field) the contract's types would refuse. */
export const untyped = (value: unknown): never => value as never;

/**
 * A raw request's body as bytes (supertest buffers only text and JSON by itself): for the files
 * whose bytes are the point, a PDF, a zip or an image, which the typed client would read as text.
 */
export const binaryBody = (r: request.Test) =>
  r.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
