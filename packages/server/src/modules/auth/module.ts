import { GoogleVerifier } from '../../auth/google';
import type { Core } from '../../core';
import type { Delivery } from '../../delivery';
import type { Module } from '../../lib/module';
import { authRoutes } from './auth.router';
import type { AuthContext } from './context';

/** What the auth module uses besides the core: the email/SMS transport for sign-in codes. */
export type AuthDeps = { delivery: Delivery };

export type AuthServices = {
  /** Checks Google ID tokens against Google's certificates (cached). No lifecycle. */
  google: GoogleVerifier;
};

/** The auth module: the sign-in flows (codes, Google, authenticator), sign-up, sessions out. */
export function createAuth(_core: Core, deps: AuthDeps): Module<ReturnType<typeof authRoutes>, AuthServices> {
  const google = new GoogleVerifier();
  return { routes: (at) => authRoutes({ ...at, ...deps, google } satisfies AuthContext), services: { google } };
}
