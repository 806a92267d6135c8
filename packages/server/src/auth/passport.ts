import type { Request, Response } from 'express';
import passport from 'passport';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import type { Core } from '../core';
import { resolveSession, type Caller } from './sessions';

/** Resolves the caller of a request carrying a bearer token; null when the token is unknown or expired. */
export type BearerAuthenticator = (req: Request, res: Response) => Promise<Caller | null>;

/**
 * A passport instance per app with one strategy: opaque bearer tokens looked up by hash in
 * `sessions` (idle expiry per role). Role checks stay in the access middleware, which reads each
 * route's `metadata.access`; passport only answers "who is this".
 */
export function createBearerAuthenticator(ctx: Core): BearerAuthenticator {
  const authenticator = new passport.Passport();
  authenticator.use(
    'bearer',
    new BearerStrategy((token, done) => {
      resolveSession(ctx, token).then(
        (caller) => done(null, caller ?? false),
        (error: unknown) => done(error),
      );
    }),
  );
  return (req, res) =>
    new Promise<Caller | null>((resolve, reject) => {
      // A custom callback and no session: passport never writes the response itself, so every
      // failure still answers the error envelope (docs/api.md "Errors") through the error middleware.
      const middleware = authenticator.authenticate('bearer', { session: false }, (error: unknown, caller: Caller | false) => {
        if (error) reject(error instanceof Error ? error : new Error('bearer authentication failed'));
        else resolve(caller || null);
      }) as (req: Request, res: Response, next: (error?: unknown) => void) => void;
      middleware(req, res, (error?: unknown) =>
        error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(null),
      );
    });
}
