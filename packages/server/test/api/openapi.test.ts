import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import type { OpenAPIV3_1 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { flattenRoutes } from '../../src/http/routes';
import { openApiDocument } from '../../src/http/openapi';

/**
 * The published OpenAPI document is what outside clients are generated from: it must be valid,
 * pass Redocly's recommended rules, and say what the server really demands (roles, the CSRF
 * header and pending cookie, file parts, response headers).
 */
const doc = () => structuredClone(openApiDocument()) as unknown as OpenAPIV3_1.Document;

type Op = OpenAPIV3_1.OperationObject & { 'x-access': string; 'x-roles': string[] };
const operations = (): Array<{ path: string; method: string; op: Op }> =>
  Object.entries(doc().paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item ?? {}).map(([method, op]) => ({ path, method, op: op as Op })),
  );
const find = (method: string, path: string) => {
  const hit = operations().find((o) => o.method === method && o.path === path);
  if (!hit) throw new Error(`${method} ${path} is not documented`);
  return hit.op;
};

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document (swagger-parser)', async () => {
    const d = doc();
    expect(d.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(d as never)).resolves.toBeTruthy();
  });

  it('passes Redocly recommended rules with zero errors', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc()), absoluteRef: 'openapi.json', config });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  });

  it('uses JSON Schema 2020-12 bounds, never the 3.0 nullable keyword', () => {
    const text = JSON.stringify(doc());
    expect(text).not.toMatch(/"nullable"/);
    expect(text).not.toMatch(/"exclusiveMinimum":(true|false)/);
  });

  it('has a servers entry', () => {
    expect(doc().servers?.[0]?.url).toBe('/');
  });

  it('names the roles of every operation; public ones say security: []', () => {
    const expected: Record<string, unknown[]> = {
      anyone: [],
      voter: [{ voter: [] }],
      admin: [{ admin: [] }],
      agent: [{ agent: [] }, { admin: [] }],
      'signed-in': [{ voter: [] }, { agent: [] }, { admin: [] }],
    };
    const schemes = doc().components?.securitySchemes ?? {};
    for (const { route } of flattenRoutes()) {
      const op = find(route.method.toLowerCase(), route.path.replace(/:(\w+)/g, '{$1}'));
      const access = (route.metadata as { access: string }).access;
      expect(op['x-access']).toBe(access);
      expect(op.security, `${route.method} ${route.path}`).toBeDefined();
      if (access in expected && !(route.metadata as { csrf?: boolean }).csrf) expect(op.security).toEqual(expected[access]);
      for (const requirement of op.security ?? []) for (const name of Object.keys(requirement)) expect(schemes).toHaveProperty(name);
      if (access !== 'anyone') expect(op.description).toMatch(/\*\*Who:\*\*/);
    }
    expect(find('get', '/api/v1/members').security).toEqual([{ admin: [] }]);
    expect(find('get', '/api/v1/psk/vvpat').security).toEqual([{ voter: [] }]);
    expect(find('get', '/api/v1/psk/election/status').security).toEqual([]);
  });

  it('declares the pending cookie and the CSRF header on the cookie-authorised steps', () => {
    const schemes = doc().components?.securitySchemes as Record<string, OpenAPIV3_1.ApiKeySecurityScheme>;
    expect(schemes.pendingVoter).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'kura_pending_voter' });
    expect(schemes.xsrfHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-XSRF-TOKEN' });
    expect(schemes.xsrfCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'XSRF-TOKEN' });
    for (const path of [
      '/api/v1/verify/sms',
      '/api/v1/verify/admin',
      '/api/v1/verify/agent',
      '/api/v1/verify-token-login',
      '/api/v1/sign-pass',
    ]) {
      const op = find('post', path);
      expect(op.parameters, path).toContainEqual({ $ref: '#/components/parameters/XsrfToken' });
      expect(op.responses?.['419'], path).toBeDefined();
    }
    expect(find('post', '/api/v1/verify/sms').security).toEqual([{ pendingVoter: [], xsrfCookie: [], xsrfHeader: [] }]);
    expect(doc().components?.parameters?.XsrfToken).toMatchObject({ in: 'header', name: 'X-XSRF-TOKEN', required: true });
  });

  it('documents Set-Cookie and Retry-After response headers', () => {
    const headerOf = (op: Op, status: string) => Object.keys((op.responses?.[status] as OpenAPIV3_1.ResponseObject)?.headers ?? {});
    expect(headerOf(find('get', '/sanctum/csrf-cookie'), '204')).toContain('Set-Cookie');
    for (const path of ['/api/v1/verify/phone', '/api/v1/admin/login', '/api/v1/agent/login', '/api/v1/sign-pass']) {
      expect(headerOf(find('post', path), '200'), path).toContain('Set-Cookie');
    }
    for (const { op } of operations()) if (op.responses?.['429']) expect(headerOf(op, '429')).toContain('Retry-After');
  });

  it('marks request bodies required and lists the file parts of multipart routes', () => {
    for (const { path, method, op } of operations()) {
      const body = op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
      if (body) expect(body.required, `${method} ${path}`).toBe(true);
    }
    const multipart = (path: string) =>
      ((find('post', path).requestBody as OpenAPIV3_1.RequestBodyObject).content['multipart/form-data']?.schema ??
        {}) as OpenAPIV3_1.SchemaObject;
    const importSchema = multipart('/api/v1/members/import');
    expect(importSchema.properties?.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(importSchema.required).toContain('file');
    const candidate = multipart('/api/v1/edit/candidate/{id}');
    expect(candidate.properties?.image).toMatchObject({ type: 'string', format: 'binary' });
    expect(candidate.required).not.toContain('image');
    // E-mail is optional in the register (docs/api.md "Register formats").
    expect(candidate.required).toEqual(expect.arrayContaining(['name', 'phone', 'county']));
    expect(candidate.required).not.toContain('email');
    const help = multipart('/api/v1/help');
    expect(help.properties?.['images[]']).toMatchObject({ type: 'array', items: { type: 'string', format: 'binary' }, maxItems: 5 });
  });

  it('gives the CSV export its content type', () => {
    const ok = find('get', '/api/v1/psk/results/export').responses?.['200'] as OpenAPIV3_1.ResponseObject;
    expect(Object.keys(ok.content ?? {})).toEqual(['text/csv']);
  });
});
