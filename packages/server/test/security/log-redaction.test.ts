import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flattenRoutes } from '../../src/http/routes';
import { loggedPath } from '../../src/http/log-path';
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
    const receipt = cast.body.receipts[0].vvpat as string;
    const before = t.logs.length;
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
