import type { Express } from 'express';
import request from 'supertest';

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

/** The Set-Cookie headers of a response, as a Cookie header value (to replay an old pending state). */
export function cookiesOf(res: request.Response): string {
  return ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .map((c) => c.split(';')[0])
    .join('; ');
}
