import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { contract, CONTACT_CHANGE_AFTER_VOTE, type Member } from '@kura/contract';
import { useToast } from '@/hooks/use-toast';
import { stub, stubRoutes } from '@/test/fetch';
import { useUpdateMember } from './mutations';
import { queryKeys } from './queries';

afterEach(() => vi.unstubAllGlobals());

const member: Member = {
  id: 7,
  name: 'Jane Wanjiru',
  member_no: '1234',
  phone: '0712345678',
  email: 'jane@example.org',
  county: 'Nairobi',
  psk_position_ids: [],
  language: null,
};

const body = { name: 'Jane Wanjiru', member_no: '1234', phone: '0712345678', email: 'jane@example.org', county: 'Nairobi' };

/** The hook under test with the toasts beside it, on a fresh query client holding a members list. */
function setup() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  queryClient.setQueryData([...queryKeys.members, null, 1], { status: 200, body: { data: [member] } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  const hook = renderHook(() => ({ update: useUpdateMember(), toasts: useToast().toasts }), { wrapper });
  const membersStale = () => queryClient.getQueryState([...queryKeys.members, null, 1])?.isInvalidated;
  return { hook, membersStale };
}

describe('lib/mutations.ts: a write owns its refresh and its failure toast', () => {
  it('a saved member refreshes the members lists, with no toast from the hook', async () => {
    stubRoutes(stub(contract.api.members.updateMember, { status: 200, body: { data: member } }));
    const { hook, membersStale } = setup();
    expect(membersStale()).toBe(false);
    await act(() => hook.result.current.update.mutateAsync({ params: { id: 7 }, body }));
    expect(membersStale()).toBe(true);
    expect(hook.result.current.toasts).toEqual([]);
  });

  it('a refused edit toasts the first field message and leaves the lists alone', async () => {
    stubRoutes(
      stub(contract.api.members.updateMember, { status: 422, body: { message: 'Invalid', errors: { phone: ['The phone is taken'] } } }),
    );
    const { hook, membersStale } = setup();
    await act(() => hook.result.current.update.mutateAsync({ params: { id: 7 }, body }).catch(() => undefined));
    await waitFor(() =>
      expect(hook.result.current.toasts.map((t) => [t.title, t.description])).toEqual([['Error updating member', 'The phone is taken']]),
    );
    expect(membersStale()).toBe(false);
  });

  it("a contact change after the vote is the dialog's to confirm: no toast", async () => {
    stubRoutes(
      stub(contract.api.members.updateMember, {
        status: 409,
        body: { message: `Jane ${CONTACT_CHANGE_AFTER_VOTE}`, issue: CONTACT_CHANGE_AFTER_VOTE },
      }),
    );
    const { hook } = setup();
    await act(() => hook.result.current.update.mutateAsync({ params: { id: 7 }, body }).catch(() => undefined));
    // The mutation's state reaches the hook on the next render: wait for it, then the toasts must still be none.
    await waitFor(() => expect(hook.result.current.update.isError).toBe(true));
    expect(hook.result.current.toasts).toEqual([]);
  });
});
