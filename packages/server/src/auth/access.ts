import type { Access, RouteMetadata } from '@kura/contract';
import type { AppRoute } from '@ts-rest/core';
import type { NextFunction, Request, Response } from 'express';
import type { Core } from '../core';
import { AppError } from '../errors';
import { safeEqual } from '../lib/crypto';
import { createBearerAuthenticator } from './passport';
import { resolveSession, type Caller, type PendingSession } from './sessions';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // Declaration merging with Express's own Request needs an interface.
    // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
    interface Request {
      /** Set by the access middleware on guarded routes. */
      caller?: Caller;
      /**
       * On a route whose handler checks the session in its own statement (`sessionInStatement`):
       * the bearer token, not yet looked up; `settled` once that statement (or the error path) has.
       */
      pendingSession?: PendingSession;
    }
  }
}

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';

export function bearerToken(req: Pick<Request, 'headers'>): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** Which roles an access level admits (an admin may call every agent route). */
export function rolesFor(access: Access): readonly Caller['role'][] | 'any' | 'none' {
  switch (access) {
    case 'voter':
      return ['voter'];
    case 'agent':
      return ['agent', 'admin'];
    case 'admin':
      return ['admin'];
    case 'signed-in':
      return ['voter', 'agent', 'admin'];
    case 'anyone':
      return 'any';
    default:
      return 'none';
  }
}

/** Double-submit CSRF check for calls authorised by a cookie (docs/api.md "CSRF"). */
export function assertCsrf(req: Request): void {
  const cookie = req.cookies?.[XSRF_COOKIE] as unknown;
  const header = req.headers[XSRF_HEADER];
  if (typeof cookie !== 'string' || typeof header !== 'string' || !cookie || !safeEqual(cookie, header)) {
    throw new AppError('CSRF_MISMATCH');
  }
}

/** The signed-in caller of a guarded route; the access middleware guarantees it is set. */
export function callerOf(req: Pick<Request, 'caller'>): Caller {
  if (!req.caller) throw new AppError('UNAUTHENTICATED');
  return req.caller;
}

/**
 * The bearer token of a route whose handler checks the session in its own statement; the handler
 * marks it settled once that statement has answered (a live voter session, or 401/403 thrown).
 */
export function pendingSessionOf(req: Pick<Request, 'pendingSession'>): PendingSession {
  if (!req.pendingSession) throw new AppError('UNAUTHENTICATED');
  return req.pendingSession;
}

export type AccessOptions = {
  /**
   * Voter routes whose handler looks the session up inside its one statement (the vote: one
   * round trip, not two; docs/architecture.md "Request path"). The middleware only requires a
   * token; {@link pendingSessionErrors} keeps 401/403 ahead of any other refusal.
   */
  sessionInStatement?: ReadonlySet<AppRoute>;
};

/**
 * ts-rest global middleware: enforces each route's `metadata.access` before its handler (and
 * before any upload middleware) runs. No token → 401; wrong role → 403; cookie steps need CSRF.
 */
export function accessMiddleware(ctx: Core, options: AccessOptions = {}) {
  const authenticate = createBearerAuthenticator(ctx);
  const inStatement = options.sessionInStatement ?? new Set<AppRoute>();
  // Only the Authorization header carries a token: never the query string (it lands in logs).
  const resolveCaller = (req: Request, res: Response) => (bearerToken(req) ? authenticate(req, res) : Promise.resolve(null));
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const route = (req as Request & { tsRestRoute?: AppRoute & { metadata?: RouteMetadata } }).tsRestRoute;
      const access = route?.metadata?.access ?? 'admin';
      const allowed = rolesFor(access);
      const token = bearerToken(req);
      // A personal answer (or its refusal) is never kept by the browser or a shared cache: a
      // kiosk or shared computer must not keep a voter's receipts on disk.
      if (allowed !== 'any' || token) res.setHeader('Cache-Control', 'no-store');
      if (allowed === 'none') {
        // pending-*: the second step of a sign-in, carried by the encrypted pending cookie.
        assertCsrf(req);
        return next();
      }
      if (allowed === 'any') {
        // A public route may still personalise its answer; a bad token there is simply ignored.
        if (token) req.caller = (await resolveCaller(req, res)) ?? undefined;
        return next();
      }
      if (!token) throw new AppError('UNAUTHENTICATED');
      if (route && inStatement.has(route) && access === 'voter') {
        req.pendingSession = { token, settled: false };
        return next();
      }
      const caller = await resolveCaller(req, res);
      if (!caller) throw new AppError('UNAUTHENTICATED');
      if (!allowed.includes(caller.role)) throw new AppError('FORBIDDEN');
      req.caller = caller;
      next();
    } catch (error) {
      next(error);
    }
  };
}

/**
 * Error middleware for the routes of `sessionInStatement`: a refusal raised before the handler's
 * statement looked the session up (a body or query that fails validation, a wrong media type, an
 * unknown election id) is answered as the access middleware would have answered first: 401 for
 * no live session, 403 for a caller who is not a voter. Otherwise the refusal stands.
 */
export function pendingSessionErrors(ctx: Core) {
  return async (error: unknown, req: Request, _res: Response, next: NextFunction) => {
    const pending = req.pendingSession;
    if (!pending || pending.settled) return next(error);
    pending.settled = true;
    try {
      const caller = await resolveSession(ctx, pending.token);
      if (!caller) return next(new AppError('UNAUTHENTICATED'));
      if (caller.role !== 'voter') return next(new AppError('FORBIDDEN'));
      req.caller = caller;
    } catch {
      // The lookup failed as well (the database is away): the first failure is the answer.
    }
    next(error);
  };
}
