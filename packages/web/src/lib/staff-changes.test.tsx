import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { CHANGED_ENTITIES } from '@kura/contract';
import { fakeRealtime } from '@/test/fake-realtime';
import { queryKeys } from './queries';
import { RealtimeProvider } from './realtime';
import { READ_AGAIN_ON, useStaffChanges } from './staff-changes';

/** The staff shells read again what the `changes` channel says changed elsewhere (docs/api.md "Realtime"). */
describe('useStaffChanges', () => {
  it('subscribes to the changes channel only, and marks the screens of that kind stale, leaving the rest', async () => {
    const queryClient = new QueryClient();
    const realtime = fakeRealtime();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <RealtimeProvider value={realtime.connect}>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </RealtimeProvider>
    );
    const keys = [queryKeys.members, queryKeys.nominations, queryKeys.logs, [...queryKeys.positions, 3], [...queryKeys.election, 'status']];
    for (const key of keys) queryClient.setQueryData(key, { status: 200, body: {} });
    renderHook(() => useStaffChanges(), { wrapper });
    expect(realtime.subscribed()).toEqual(['changes']);

    const stale = () => keys.filter((key) => queryClient.getQueryState(key)?.isInvalidated).map((key) => key.join('/'));
    await realtime.send('changes', { entity: 'members' });
    expect(stale()).toEqual(['admin/members']);
    await realtime.send('changes', { entity: 'positions' });
    expect(stale()).toEqual(['admin/members', 'positions/3']);
    await realtime.send('changes', { entity: 'election' });
    expect(stale()).toEqual(['admin/members', 'positions/3', 'election/status']);
    // The activity log is never read again on a change: it is not a kind the channel names.
    expect(stale()).not.toContain('admin/logs');
  });

  it('has what to read again for every kind the channel names', () => {
    for (const entity of CHANGED_ENTITIES) expect(READ_AGAIN_ON[entity].length, entity).toBeGreaterThan(0);
  });
});
