import type { Express } from 'express';
import request from 'supertest';
import { browserClient } from '../client';

/**
 * A browser-like client: a cookie jar (pending sign-in cookie, XSRF-TOKEN) and the
 * X-XSRF-TOKEN header echoed on every POST, as the web app does.
 */
export type Browser = {
  agent: ReturnType<typeof request.agent>;
  xsrf: string;
  post(path: string, body?: object): request.Test;
  /** The same POST without the CSRF header. */
  postWithoutCsrf(path: string, body?: object): request.Test;
};

export async function openBrowser(app: Express): Promise<Browser> {
  const agent = request.agent(app);
  const res = await agent.get('/sanctum/csrf-cookie').expect(204);
  const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('XSRF-TOKEN='));
  const xsrf = decodeURIComponent(cookie!.split(';')[0]!.slice('XSRF-TOKEN='.length));
  return {
    agent,
    xsrf,
    post: (path, body) =>
      agent
        .post(path)
        .set('X-XSRF-TOKEN', xsrf)
        .send(body ?? {}),
    postWithoutCsrf: (path, body) => agent.post(path).send(body ?? {}),
  };
}

/**
 * A fresh browser as typed contract clients (test/client.ts): one sending the X-XSRF-TOKEN header
 * as the web app does, `withoutCsrf` one that forgets it, and the token itself.
 */
export async function openTypedBrowser(app: Express) {
  const browser = await openBrowser(app);
  return { ...browserClient(browser), withoutCsrf: browserClient(browser, { csrf: false }), xsrf: browser.xsrf };
}
export type TypedBrowser = Awaited<ReturnType<typeof openTypedBrowser>>;
