import { useQueryClient } from '@tanstack/react-query';
import type { ChangedEntity } from '@kura/contract';
import { queryKeys } from './queries';
import { useRealtime } from './realtime';

/**
 * What a staff screen reads again when the `changes` channel says a kind of thing changed
 * elsewhere (another admin's edit, an import, a nomination; docs/api.md "Realtime"). Prefixes of
 * query keys: `['election']` covers the status, `['positions']` the candidate's positions.
 */
export const READ_AGAIN_ON: Record<ChangedEntity, readonly (readonly string[])[]> = {
  election: [queryKeys.election, queryKeys.elections, queryKeys.organisation, queryKeys.register],
  positions: [queryKeys.positions, queryKeys.register],
  candidates: [queryKeys.candidates, queryKeys.positions],
  members: [queryKeys.members, queryKeys.candidates, queryKeys.register],
  nominations: [queryKeys.nominations],
};

/**
 * The staff shells (admin and agent) follow the `changes` channel while signed in: a kind of thing
 * changed elsewhere is read again by the screens showing it (docs/screens.md "Staff pages"), so
 * two admins working at once see each other's changes without waiting for the cache to go stale.
 */
export function useStaffChanges(): void {
  const queryClient = useQueryClient();
  useRealtime({
    changes: ({ entity }) => {
      for (const queryKey of READ_AGAIN_ON[entity] ?? []) void queryClient.invalidateQueries({ queryKey });
    },
  });
}
