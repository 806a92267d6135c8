import request from 'supertest';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flattenRoutes } from '../../src/http/routes';
import { loggedPath } from '../../src/http/log-path';
import { branches } from '../../src/db/schema';
import { errSerializer } from '../../src/logger';
import { apiClient, bodyOf } from '../client';
import { bearer, createMember, tokenFor } from '../factories';
import { createTestApp, type TestApp } from '../harness';
import { createElection, setVoting, vote } from '../voting/election';

/**
 * Security hardening: `GET psk/receipt/VP-…` wrote the receipt code to the request log next to
 * the caller's address. The log now shows a contract route by its pattern and any other URL by its
 * first segment, so no path parameter of any route (present or future) reaches it.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { LOG_LEVEL: 'info' } });
});
afterAll(async () => {
  await t?.close();
});

describe('the request log never holds a path parameter', () => {
  it('a real receipt checked through /api/v1 and the /api alias', async () => {
    const e = await createElection(t.ctx);
    await setVoting(t.ctx, true);
    const voter = await tokenFor(t.ctx, 'voter', (await createMember(t.ctx)).id);
    const cast = await vote(t.app, voter, { [e.chair.id]: e.alice.id });
    expect(cast.status).toBe(201);
    const receipt = bodyOf(cast, 201).receipts[0]!.vvpat;
    const before = t.logs.length;
    // Raw HTTP: the same receipt through /api/v1, the /api alias and with a query string, as logged.
    expect((await request(t.app).get(`/api/v1/psk/receipt/${receipt}`)).status).toBe(200);
    expect((await request(t.app).get(`/api/psk/receipt/${receipt}`)).status).toBe(200);
    expect((await request(t.app).get(`/api/v1/psk/receipt/${receipt}?x=${receipt}`)).status).toBe(200);
    const lines = t.logs.slice(before);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.join('\n')).not.toContain(receipt);
    expect(lines.join('\n')).not.toContain(receipt.slice(3));
    expect(lines.filter((l) => l.includes('"url":"/api/v1/psk/receipt/:vvpat"')).length).toBe(3);
  });

  it('every parameterised contract route, requested with a marker in each parameter, by every method and role', async () => {
    const admin = await tokenFor(t.ctx, 'admin');
    const routes = flattenRoutes().filter(({ route }) => route.path.includes(':'));
    expect(routes.length).toBeGreaterThanOrEqual(3);
    const markers: string[] = [];
    const before = t.logs.length;
    for (const { route } of routes) {
      const marker = `MARK${markers.length}ZQ${Math.random().toString(36).slice(2, 8)}`;
      markers.push(marker);
      const path = route.path.replace(/:[A-Za-z_]+/g, marker);
      for (const token of [undefined, admin]) {
        const r = route.method === 'GET' ? request(t.app).get(path) : request(t.app).post(path).send({});
        if (token) r.set(bearer(token));
        await r;
      }
      // a broken body before the route's own validation, and a path with an extra segment (a 404)
      await request(t.app).post(path).set('Content-Type', 'application/json').send('{"broken');
      await request(t.app).get(`${path}/${marker}`);
      await request(t.app).get(`/${marker}/${marker}`);
    }
    const text = t.logs.slice(before).join('\n');
    expect(t.logs.length - before).toBeGreaterThanOrEqual(routes.length * 5);
    for (const marker of markers) expect(text).not.toContain(marker);
  });

  it('web pages and uploads are logged by their first segment only, and only a lower-case word', () => {
    expect(loggedPath('/uploads/3f9a1c.png')).toBe('/uploads/…');
    expect(loggedPath('/check/VP-7K3Q-M9XD')).toBe('/check/…');
    expect(loggedPath('/VP-7K3Q-M9XD')).toBe('/…');
    expect(loggedPath('/vote')).toBe('/vote');
    expect(loggedPath('/api/v1/psk/results?x=1')).toBe('/api/v1/psk/results');
    expect(loggedPath('/api/psk/receipt/VP-7K3Q-M9XD')).toBe('/api/v1/psk/receipt/:vvpat');
    expect(loggedPath('/api/v1/edit/psk/member/12/')).toBe('/api/v1/edit/psk/member/:id');
  });
});

describe('an unexpected database failure is logged without the values of its statement', () => {
  it('a member-data statement that fails in the database: the log has the SQL and its SQLSTATE, never the parameters or the detail', async () => {
    const admin = await tokenFor(t.ctx, 'admin');
    const [branch] = await t.ctx.database.db.insert(branches).values({ name: 'Failing Ward' }).returning({ id: branches.id });
    const marker = `Secret Ward ${Math.random().toString(36).slice(2, 8)}`;
    // A fault the server does not expect (not a conflict, not a constraint it maps): a 500, logged.
    await t.ctx.database.db.execute(sql`create function fail_rename() returns trigger language plpgsql as $$
      begin raise exception 'forced failure' using errcode = 'P0001', detail = 'the new name was ' || new.name; end $$`);
    await t.ctx.database.db.execute(
      sql.raw(
        `create trigger fail_rename before update on branches for each row when (old.id = ${branch!.id}) execute function fail_rename()`,
      ),
    );
    const before = t.logs.length;
    const res = await apiClient(t.app, admin).setup.updateBranch({ params: { id: branch!.id }, body: { name: marker } });
    expect(res.status).toBe(500);
    const lines = t.logs.slice(before).join('\n');
    expect(lines).not.toContain(marker);
    expect(lines).not.toContain('the new name was');
    expect(lines).toContain('request failed');
    expect(lines).toContain('"sqlstate":"P0001"');
    expect(lines).toContain('update \\"branches\\"');
  });

  it('scrubError keeps the message, the SQL and the code along the cause chain, and drops params, parameters and detail', () => {
    const cause = Object.assign(new Error('forced failure'), {
      code: 'P0001',
      detail: 'Key (email)=(wanjiru@example.org) already exists.',
      parameters: ['wanjiru@example.org'],
      table_name: 'members',
    });
    const failed = Object.assign(new Error('Failed query: update "members" set "email" = $1\nparams: wanjiru@example.org'), {
      query: 'update "members" set "email" = $1',
      params: ['wanjiru@example.org'],
      cause,
    });
    const out = JSON.stringify(errSerializer(failed));
    expect(out).not.toContain('wanjiru');
    expect(out).toContain('Failed query: update \\"members\\" set \\"email\\" = $1');
    expect(out).toContain('params: [redacted]');
    expect(out).toContain('"sqlstate":"P0001"');
    expect(out).toContain('members');
  });
});
