import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { storeSession } from '@/lib/session';
import { requireStaff, requireVoter, SessionCheckUnavailable } from './guards';
import { contract } from '@kura/contract';
import { callsTo, stub, stubRoutes } from '@/test/fetch';

const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });
const session = { bearer_token: 'tok', hash: 'h', name: 'X', photo: null, balance: 0 };

async function redirectOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    return (e as { options?: { to?: string } }).options?.to;
  }
}

afterEach(() => vi.unstubAllGlobals());

describe('staff guard (docs/screens.md "Sign-in and session loss": validate/admin; admin → /admin, agent → /agent; no session → the area\'s login)', () => {
  it("sends a browser without a session to the area's own login (not the voter's /sign-in) without asking the server", async () => {
    const calls = stubRoutes();
    expect(await redirectOf(requireStaff(client(), 'admin'))).toBe('/admin/login');
    expect(await redirectOf(requireStaff(client(), 'agent'))).toBe('/agent/login');
    expect(calls).toHaveLength(0);
  });

  it('lets an admin into /admin and sends an admin away from /agent', async () => {
    stubRoutes(stub(contract.api.auth.validateStaff, { status: 200, body: { user_type: 'admin', data: { name: 'Ada' } } }));
    storeSession(session, 'admin');
    const qc = client();
    expect(await redirectOf(requireStaff(qc, 'admin'))).toBeUndefined();
    expect(await redirectOf(requireStaff(qc, 'agent'))).toBe('/admin');
    expect(window.localStorage.getItem('account_type')).toBe('admin');
    expect(window.localStorage.getItem('name')).toBe('Ada');
  });

  it('sends an agent from /admin to /agent', async () => {
    stubRoutes(stub(contract.api.auth.validateStaff, { status: 200, body: { user_type: 'agent', data: { name: 'Otto' } } }));
    storeSession(session, 'agent');
    const qc = client();
    expect(await redirectOf(requireStaff(qc, 'admin'))).toBe('/agent');
    expect(await redirectOf(requireStaff(qc, 'agent'))).toBeUndefined();
  });

  it("clears storage and goes to the area's login when the server refuses (a voter token answers 403)", async () => {
    stubRoutes(stub(contract.api.auth.validateStaff, { status: 403, body: { message: 'Forbidden' } }));
    storeSession(session, 'member');
    expect(await redirectOf(requireStaff(client(), 'admin'))).toBe('/admin/login');
    expect(window.localStorage.getItem('token')).toBeNull();
    storeSession(session, 'member');
    expect(await redirectOf(requireStaff(client(), 'agent'))).toBe('/agent/login');
  });
});

describe('voter guard (docs/screens.md "Sign-in and session loss": GET validate; a voter is account type member)', () => {
  it('lets a voter in, asks once per minute, and asks again for another session', async () => {
    const calls = stubRoutes(stub(contract.api.auth.validateVoter, { status: 200, body: { user_type: 'voter', data: { name: 'Vera' } } }));
    storeSession(session, 'member');
    const qc = client();
    expect(await redirectOf(requireVoter(qc))).toBeUndefined();
    expect(await redirectOf(requireVoter(qc))).toBeUndefined();
    expect(callsTo(calls, contract.api.auth.validateVoter)).toHaveLength(1);
    expect(window.localStorage.getItem('account_type')).toBe('member');
    expect(window.localStorage.getItem('name')).toBe('Vera');
    storeSession({ ...session, bearer_token: 'other' }, 'member');
    expect(await redirectOf(requireVoter(qc))).toBeUndefined();
    expect(callsTo(calls, contract.api.auth.validateVoter)).toHaveLength(2);
  });

  it('clears storage and goes to /sign-in when the server refuses (a staff token)', async () => {
    stubRoutes(stub(contract.api.auth.validateVoter, { status: 403, body: { message: 'Forbidden' } }));
    storeSession(session, 'admin');
    expect(await redirectOf(requireVoter(client()))).toBe('/sign-in');
    expect(window.localStorage.getItem('token')).toBeNull();
  });
});

describe('a session check the server could not answer is not a refusal (the session is kept)', () => {
  it('tries again after a 503 or a network error, and lets the voter in when the server answers', async () => {
    let n = 0;
    const calls = stubRoutes(
      stub(contract.api.auth.validateVoter, () => {
        n++;
        if (n === 1) return { status: 503, body: { message: 'Server busy' } };
        // the network fails: fetch rejects
        if (n === 2) throw new TypeError('Failed to fetch');
        return { status: 200, body: { user_type: 'voter', data: { name: 'Vera' } } };
      }),
    );
    storeSession(session, 'member');
    expect(await redirectOf(requireVoter(client()))).toBeUndefined();
    expect(callsTo(calls, contract.api.auth.validateVoter)).toHaveLength(3);
    expect(window.localStorage.getItem('token')).toBe('tok');
  });

  it('after three failed tries shows an error (no redirect), keeps the session, and asks again on Retry', async () => {
    let up = false;
    const calls = stubRoutes(
      stub(contract.api.auth.validateStaff, () =>
        up ? { status: 200, body: { user_type: 'admin', data: { name: 'Ada' } } } : { status: 500, body: { message: 'Server error' } },
      ),
    );
    storeSession(session, 'admin');
    const qc = client();
    const failed = await requireStaff(qc, 'admin').catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(SessionCheckUnavailable);
    expect(window.localStorage.getItem('token')).toBe('tok');
    expect(window.localStorage.getItem('account_type')).toBe('admin');
    expect(callsTo(calls, contract.api.auth.validateStaff)).toHaveLength(3);
    // The failed answer was not kept: the next check asks the server again.
    up = true;
    expect(await redirectOf(requireStaff(qc, 'admin'))).toBeUndefined();
    expect(callsTo(calls, contract.api.auth.validateStaff)).toHaveLength(4);
  });

  it('a 429 is not a refusal either', async () => {
    let n = 0;
    stubRoutes(
      stub(contract.api.auth.validateVoter, () =>
        n++ === 0
          ? { status: 429, body: { message: 'Too many attempts' }, headers: { 'retry-after': '1' } }
          : { status: 200, body: { user_type: 'voter', data: { name: 'Vera' } } },
      ),
    );
    storeSession(session, 'member');
    expect(await redirectOf(requireVoter(client()))).toBeUndefined();
    expect(window.localStorage.getItem('token')).toBe('tok');
  });
});
