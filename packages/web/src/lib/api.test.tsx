import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '@/i18n';
import { api, handleUnauthorized, navigation, readCookie } from './api';
import { storeSession } from './session';

const session = { bearer_token: 't', hash: 'h', name: 'Jane', photo: null, balance: 0 };

describe('401 handling (docs/screens.md "Sign-in and session loss")', () => {
  afterEach(() => {
    document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
  });

  it.each([
    ['member', '/sign-in'],
    ['admin', '/admin/login'],
    ['agent', '/agent/login'],
  ] as const)('clears storage and sends a %s to %s', (type, route) => {
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => {});
    storeSession(session, type);
    window.localStorage.setItem('pfNumber', '1234');
    handleUnauthorized();
    expect(assign).toHaveBeenCalledWith(route);
    expect(window.localStorage.length).toBe(0);
  });

  it("sends a 401 in the admin or agent area to that area's login, whatever the stored account type", () => {
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => {});
    try {
      for (const [path, route] of [
        ['/admin/members', '/admin/login'],
        ['/agent', '/agent/login'],
        ['/administration', '/sign-in'],
      ] as const) {
        window.history.pushState({}, '', path);
        storeSession(session, 'member');
        handleUnauthorized();
        expect(assign).toHaveBeenLastCalledWith(route);
      }
    } finally {
      window.history.pushState({}, '', '/');
    }
  });

  it('goes to /sign-in when the account type is unknown', () => {
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => {});
    handleUnauthorized();
    expect(assign).toHaveBeenCalledWith('/sign-in');
  });

  it('reads the XSRF-TOKEN cookie', () => {
    document.cookie = 'XSRF-TOKEN=abc%3D123';
    expect(readCookie('XSRF-TOKEN')).toBe('abc=123');
  });
});

describe('the reader’s language on every request (docs/api.md "Languages")', () => {
  afterEach(() => {
    setLocale('en');
    vi.unstubAllGlobals();
  });

  it('sends Accept-Language with the active shipped language, English for the pseudo-locale', async () => {
    const seen: (string | null)[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        seen.push(new Headers(init.headers).get('accept-language'));
        return new Response(JSON.stringify({ data: [] }), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    setLocale('sw');
    await api.elections.getElection.query();
    setLocale('en-XA');
    await api.elections.getElection.query();
    expect(seen).toEqual(['sw', 'en']);
  });
});
