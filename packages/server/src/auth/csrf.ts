import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { XSRF_COOKIE } from './access';

/** GET /sanctum/csrf-cookie: a readable XSRF-TOKEN cookie the browser echoes in X-XSRF-TOKEN. */
export function issueCsrfCookie(req: Request, res: Response): void {
  const existing = req.cookies?.[XSRF_COOKIE] as unknown;
  const value = typeof existing === 'string' && /^[A-Za-z0-9_-]{32,64}$/.test(existing) ? existing : randomBytes(24).toString('base64url');
  res.cookie(XSRF_COOKIE, value, { httpOnly: false, sameSite: 'lax', secure: req.secure, path: '/', maxAge: 2 * 60 * 60 * 1000 });
}
