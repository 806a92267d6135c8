import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { contract } from '@kura/contract';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
import { pendingOwnLanguage, saveOwnLanguage, savingOwnLanguage } from './own-language';
import { queryKeys } from './queries';
import { clearSession, storeSession } from './session';

afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
});

/** The server of the record: PUT me/language stores what it is sent; the first request reaches it only at `release`. */
function record() {
  let language = 'en';
  const calls = stubRoutes(
    stub(contract.api.members.setOwnLanguage, (call) => {
      language = (call.body as { language: string }).language;
      return { status: 200, body: { data: { language } } };
    }),
  );
  const answered = globalThis.fetch;
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let first = true;
  vi.stubGlobal('fetch', async (...args: Parameters<typeof fetch>) => {
    if (first) {
      first = false;
      await held;
    }
    return answered(...args);
  });
  return { calls, release, language: () => language };
}

describe("a member's own language (lib/own-language.ts, docs/i18n.md)", () => {
  it('sends quick choices one after another, in the order made, and the record ends with the last', async () => {
    storeSession({ bearer_token: 'tok', hash: 'h', name: 'Jane', photo: null, balance: 0 }, 'member');
    const queryClient = new QueryClient();
    queryClient.setQueryData([...queryKeys.validateVoter, 'tok'], { status: 200, body: { user_type: 'voter', data: { language: 'en' } } });
    const server = record();

    const saves = [saveOwnLanguage(queryClient, 'sw'), saveOwnLanguage(queryClient, 'en'), saveOwnLanguage(queryClient, 'sw')];
    await vi.waitFor(() => expect(savingOwnLanguage(queryClient)).toBe(true));
    expect(pendingOwnLanguage()).toBe('sw');
    // The first is on its way and unanswered: the others wait for it, not sent yet.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(callsTo(server.calls, contract.api.members.setOwnLanguage)).toHaveLength(0);

    server.release();
    await Promise.all(saves);
    expect(callsTo(server.calls, contract.api.members.setOwnLanguage).map((c) => c.body)).toEqual([
      { language: 'sw' },
      { language: 'en' },
      { language: 'sw' },
    ]);
    expect(server.language()).toBe('sw');
    expect(pendingOwnLanguage()).toBeNull();
    expect(savingOwnLanguage(queryClient)).toBe(false);
    // The cached session check holds what the record holds.
    expect(
      queryClient.getQueryData<{ body: { data: { language: string } } }>([...queryKeys.validateVoter, 'tok'])?.body.data.language,
    ).toBe('sw');
  });
});
