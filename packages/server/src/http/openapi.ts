import { STATUS_CODES } from 'node:http';
import { generateOpenApi } from '@ts-rest/open-api';
import { isZodType } from '@ts-rest/core';
import type { AppRoute } from '@ts-rest/core';
import { contract, type Access, type RouteMetadata } from '@kura/contract';
import { pendingCookieName } from '../auth/pending';
import { XSRF_COOKIE } from '../auth/access';

type Json = Record<string, unknown>;

/**
 * Security schemes, one per role, so a reader (and a generated client) sees who may call what.
 * The three bearer schemes are the same `Authorization: Bearer` header; they differ in which
 * sign-in issued the token. The cookie schemes carry the two-step sign-in and its CSRF check.
 */
const SECURITY_SCHEMES = {
  voter: {
    type: 'http',
    scheme: 'bearer',
    description: 'Session token of a voter: `bearer_token` from POST verify/sms, verify-token-login or google/login.',
  },
  agent: {
    type: 'http',
    scheme: 'bearer',
    description: 'Session token of an agent: `bearer_token` from POST verify/agent or agent/google/login.',
  },
  admin: {
    type: 'http',
    scheme: 'bearer',
    description:
      'Session token of an admin: `bearer_token` from POST verify/admin or admin/google/login. An admin may call every agent operation.',
  },
  pendingVoter: {
    type: 'apiKey',
    in: 'cookie',
    name: pendingCookieName('voter'),
    description: 'Signed, httpOnly cookie set by POST verify/phone or sign-pass (path /api); send it back on the next step.',
  },
  pendingAdmin: {
    type: 'apiKey',
    in: 'cookie',
    name: pendingCookieName('admin'),
    description: 'Signed, httpOnly cookie set by POST admin/login (path /api); send it back to verify/admin.',
  },
  pendingAgent: {
    type: 'apiKey',
    in: 'cookie',
    name: pendingCookieName('agent'),
    description: 'Signed, httpOnly cookie set by POST agent/login (path /api); send it back to verify/agent.',
  },
  xsrfCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: XSRF_COOKIE,
    description: 'Readable cookie set by GET /sanctum/csrf-cookie. Its value goes in the X-XSRF-TOKEN header.',
  },
  xsrfHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'X-XSRF-TOKEN',
    description: 'Double-submit CSRF check: the value of the XSRF-TOKEN cookie. Missing or different: 419.',
  },
} as const;

const PENDING_SCHEME = { 'pending-voter': 'pendingVoter', 'pending-admin': 'pendingAdmin', 'pending-agent': 'pendingAgent' } as const;

/** Which roles may call an access level, as the document's security requirement (OR of the entries). */
function securityFor(access: Access, csrf: boolean): Json[] {
  const xsrf = { xsrfCookie: [], xsrfHeader: [] };
  switch (access) {
    case 'anyone':
      return csrf ? [xsrf] : [];
    case 'signed-in':
      return [{ voter: [] }, { agent: [] }, { admin: [] }];
    case 'voter':
      return [{ voter: [] }];
    case 'agent':
      return [{ agent: [] }, { admin: [] }];
    case 'admin':
      return [{ admin: [] }];
    default:
      return [{ [PENDING_SCHEME[access]]: [], ...xsrf }];
  }
}

function rolesFor(access: Access): string[] {
  switch (access) {
    case 'anyone':
      return [];
    case 'signed-in':
      return ['voter', 'agent', 'admin'];
    case 'agent':
      return ['agent', 'admin'];
    case 'voter':
    case 'admin':
      return [access];
    default:
      return [access];
  }
}

function whoLine(access: Access, csrf: boolean): string {
  const csrfNote = ' Send the XSRF-TOKEN cookie and its value in X-XSRF-TOKEN (GET /sanctum/csrf-cookie first), else 419.';
  switch (access) {
    case 'anyone':
      return `**Who:** anyone, no token.${csrf ? csrfNote : ''}`;
    case 'signed-in':
      return '**Who:** any signed-in voter, agent or admin (bearer token).';
    case 'agent':
      return '**Who:** agent or admin (bearer token).';
    case 'voter':
    case 'admin':
      return `**Who:** ${access} (bearer token).`;
    default: {
      const role = access.slice('pending-'.length);
      return `**Who:** a ${role} half-way through signing in: the ${pendingCookieName(role as 'voter')} cookie from the first step.${csrfNote}`;
    }
  }
}

const SET_COOKIE = (what: string) => ({
  'Set-Cookie': { description: what, schema: { type: 'string' } },
});

const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 0 } },
};

const XSRF_PARAMETER = { $ref: '#/components/parameters/XsrfToken' };

/** 3.0's `nullable` and boolean `exclusiveMinimum` become 3.1 (JSON Schema 2020-12) keywords. */
function toJsonSchema2020(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema2020);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) out[k] = toJsonSchema2020(v);
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] === 'boolean') {
      if (out[flag] && typeof out[bound] === 'number') out[flag] = out[bound];
      else delete out[flag];
      if (out[flag] !== undefined) delete out[bound];
    } else if (typeof out[flag] === 'number' && out[bound] === out[flag]) {
      // zod's positive() gives both `minimum: 0` and `exclusiveMinimum: 0`; the exclusive bound says it all.
      delete out[bound];
    }
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.type)) out.type = [...(out.type as string[]), 'null'];
    else return { anyOf: [out, { type: 'null' }] };
  } else if (out.nullable === false) {
    delete out.nullable;
  }
  return out;
}

const ERROR_SCHEMA_REF = { $ref: '#/components/schemas/ErrorBody' };

/** The parts of an operation the generator cannot know from zod alone. */
function completeOperation(operation: Json, route: AppRoute): Json {
  const metadata = (route.metadata as RouteMetadata | undefined) ?? { access: 'anyone' as const };
  const access = metadata.access;
  const pending = access.startsWith('pending-');
  const csrf = pending || metadata.csrf === true;
  const roles = rolesFor(access);

  const description = [operation.description, whoLine(access, csrf)].filter(Boolean).join('\n\n');
  const tags = Array.isArray(operation.tags) ? (operation.tags as string[]).filter((t) => t !== 'api') : [];
  const out: Json = {
    ...operation,
    tags,
    description,
    security: securityFor(access, csrf),
    'x-access': access,
    'x-roles': roles,
  };

  if (csrf) out.parameters = [...((operation.parameters as unknown[]) ?? []), XSRF_PARAMETER];

  // Request body: required unless the contract lets it be absent; multipart gets its file parts.
  if (operation.requestBody && 'body' in route) {
    const requestBody: Json = { ...(operation.requestBody as Json), description: 'Request body' };
    const body = route.body;
    requestBody.required = !(isZodType(body) && body.isOptional());
    if (route.contentType === 'multipart/form-data') {
      const content = requestBody.content as Record<string, { schema: Json }>;
      const schema = { ...(content['multipart/form-data']?.schema ?? { type: 'object' }) };
      const properties = { ...((schema.properties as Json) ?? {}) };
      const required = [...((schema.required as string[]) ?? [])];
      const encoding: Json = {};
      for (const file of metadata.files ?? []) {
        const part = {
          type: 'string',
          format: 'binary',
          ...(file.mediaTypes.length === 1 ? { contentMediaType: file.mediaTypes[0] } : {}),
        };
        properties[file.name] =
          file.maxCount > 1
            ? { type: 'array', items: part, maxItems: file.maxCount, description: file.description }
            : { ...part, description: file.description };
        encoding[file.name] = { contentType: file.mediaTypes.join(', ') };
        if (file.required) required.push(file.name);
      }
      schema.type = 'object';
      schema.properties = properties;
      if (required.length) schema.required = required;
      requestBody.content = { 'multipart/form-data': { schema, ...(Object.keys(encoding).length ? { encoding } : {}) } };
    }
    out.requestBody = requestBody;
  }

  // Responses: a reason phrase, the shared error schema, other media types and the headers.
  const responses: Json = {};
  for (const [status, response] of Object.entries((operation.responses as Record<string, Json>) ?? {})) {
    const declared = route.responses[Number(status) as keyof typeof route.responses] as unknown;
    const res: Json = { ...response, description: STATUS_CODES[Number(status)] ?? status };
    const code = Number(status);
    if (code >= 400) res.content = { 'application/json': { schema: ERROR_SCHEMA_REF } };
    if (declared && typeof declared === 'object' && 'contentType' in declared && !isZodType(declared)) {
      const other = declared as { contentType: string };
      res.content = { [other.contentType]: { schema: { type: 'string' } } };
      if (other.contentType === 'text/csv')
        res.headers = {
          'Content-Disposition': {
            description: 'attachment; filename="<election>-results.csv" (the election\'s title, docs/api.md)',
            schema: { type: 'string' },
          },
        };
    }
    if (code === 429) res.headers = RETRY_AFTER;
    if (code >= 200 && code < 300) {
      if (metadata.startsSignIn)
        res.headers = SET_COOKIE(
          `The ${pendingCookieName(metadata.startsSignIn)} cookie for the next sign-in step (encrypted, httpOnly, path /api).`,
        );
      if (pending)
        res.headers = SET_COOKIE(
          `Clears the ${pendingCookieName(access.slice('pending-'.length) as 'voter')} cookie: the sign-in is complete.`,
        );
      if (route.path === '/sanctum/csrf-cookie')
        res.headers = SET_COOKIE(`The readable ${XSRF_COOKIE} cookie (path /); echo its value in X-XSRF-TOKEN.`);
    }
    responses[status] = res;
  }
  out.responses = responses;
  return out;
}

const TAGS = [
  { name: 'csrf', description: 'The CSRF cookie for the cookie-authorised sign-in steps.' },
  { name: 'auth', description: 'Sign-in (voter, admin, agent), sessions and the authenticator.' },
  { name: 'elections', description: 'Election status, results, statistics, receipts and commitments.' },
  { name: 'ballots', description: 'The ballot and voting.' },
  { name: 'members', description: 'Members, branches, positions and the member import.' },
  { name: 'candidates', description: 'Candidates and their positions.' },
  { name: 'logs', description: 'The activity log.' },
  { name: 'vvpat', description: 'The verifiable paper audit trail.' },
  { name: 'help', description: 'Issue reports.' },
];

function buildDocument(): Json {
  let errorSchema: Json | undefined;
  const generated = generateOpenApi(
    contract,
    {
      info: {
        title: 'Kura election service API',
        version: '1.0.0',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        description:
          'Every endpoint is served under /api/v1; /api is an alias of the current version. ' +
          'Signed-in calls send `Authorization: Bearer <token>`; each operation names the roles that may call it ' +
          '(security schemes `voter`, `agent`, `admin`; also `x-roles`). The second step of a sign-in is authorised by ' +
          'the pending cookie the first step set, plus the double-submit CSRF check (XSRF-TOKEN cookie echoed in ' +
          'X-XSRF-TOKEN). Errors use the envelope {message, issue?, errors?}; 429 answers carry Retry-After.',
      },
    },
    {
      setOperationId: true,
      operationMapper: (operation, route) => {
        errorSchema ??= errorSchemaOf(operation as Json);
        return completeOperation(operation as Json, route) as unknown as typeof operation;
      },
    },
  ) as unknown as Json;

  return {
    openapi: '3.1.0',
    info: generated.info,
    servers: [{ url: '/', description: 'The server that published this document' }],
    tags: TAGS,
    paths: toJsonSchema2020(generated.paths),
    components: {
      schemas: { ErrorBody: toJsonSchema2020(errorSchema) },
      parameters: {
        XsrfToken: {
          name: 'X-XSRF-TOKEN',
          in: 'header',
          required: true,
          description: 'The value of the XSRF-TOKEN cookie (double-submit CSRF check); missing or different: 419.',
          schema: { type: 'string' },
        },
      },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

/** The error envelope's schema as the generator rendered it (every 4xx/5xx of the contract uses ErrorBody). */
function errorSchemaOf(operation: Json): Json | undefined {
  for (const [status, response] of Object.entries((operation.responses as Record<string, Json>) ?? {})) {
    const schema = (response.content as Record<string, { schema?: Json }> | undefined)?.['application/json']?.schema;
    if (Number(status) >= 400 && schema) return schema;
  }
  return undefined;
}

let cached: Json | undefined;

/** The OpenAPI 3.1 document, generated from the contract once. */
export function openApiDocument(): Json {
  cached ??= buildDocument();
  return cached;
}
