import { initTsrReactQuery } from '@ts-rest/react-query/v5';
import { tsRestFetchApi, type ApiFetcherArgs } from '@ts-rest/core';
import { contract } from '@kura/contract';
import { getLocale, isShipped } from '@/i18n';
import { clearSession, getAccountType, getToken, loginRouteFor } from './session';

/** Reads a cookie by name (the readable XSRF-TOKEN cookie of GET /sanctum/csrf-cookie). */
export function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

let csrfRequest: Promise<void> | null = null;

/** GET /sanctum/csrf-cookie once (on load, and again when the cookie is missing or rejected). */
export function ensureCsrfCookie(force = false): Promise<void> {
  if (!force && readCookie('XSRF-TOKEN')) return Promise.resolve();
  if (!csrfRequest || force) {
    csrfRequest = fetch('/sanctum/csrf-cookie', { credentials: 'include' })
      .then(() => undefined)
      .catch(() => undefined)
      .finally(() => {
        csrfRequest = null;
      });
  }
  return csrfRequest;
}

/** Where a 401 sends the browser; replaced in tests. */
export const navigation = {
  assign: (path: string) => {
    if (typeof window !== 'undefined' && window.location.pathname !== path) window.location.assign(path);
  },
};

/**
 * docs/screens.md "Sign-in and session loss": on a 401 the session is cleared and the user goes to
 * the sign-in route of the area they are in (/admin/…: /admin/login, /agent/…: /agent/login), else
 * of the stored account type. The area's guard sends a refused session there too, so which of the
 * two acts first no longer decides the page (a member's token in the admin area went to /sign-in
 * or /admin/login by timing). Only a request that carried a session token can lose a session; the
 * sign-in steps themselves answer 401 for wrong credentials and must show their own error instead.
 */
export function handleUnauthorized() {
  const path = typeof window === 'undefined' ? '' : window.location.pathname;
  const area = /^\/admin(\/|$)/.test(path) ? 'admin' : /^\/agent(\/|$)/.test(path) ? 'agent' : null;
  const route = loginRouteFor(area ?? getAccountType());
  clearSession();
  navigation.assign(route);
}

async function fetchWithSession(args: ApiFetcherArgs) {
  const token = getToken();
  const build = (): ApiFetcherArgs => {
    // The server words its error messages in the reader's language (docs/api.md "Languages").
    const locale = getLocale();
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Accept-Language': isShipped(locale) ? locale : 'en',
      ...args.headers,
    };
    if (token) headers.Authorization = `Bearer ${token}`;
    const xsrf = readCookie('XSRF-TOKEN');
    if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
    return { ...args, headers, fetchOptions: { ...args.fetchOptions, credentials: 'include' } };
  };
  let res = await tsRestFetchApi(build());
  if (res.status === 419) {
    // The CSRF cookie expired or was never set: fetch a fresh one and try once more.
    await ensureCsrfCookie(true);
    res = await tsRestFetchApi(build());
  }
  if (res.status === 401 && token) handleUnauthorized();
  return res;
}

export const tsr = initTsrReactQuery(contract, {
  baseUrl: '',
  baseHeaders: {},
  credentials: 'include',
  api: fetchWithSession,
});

/** The /api/v1 routers: reads go through lib/queries.ts, writes through lib/mutations.ts. */
export const api = tsr.api;
