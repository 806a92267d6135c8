import { useEffect } from 'react';
import { toast } from '@/hooks/use-toast';
import { api } from '@/lib/api';
import { errorMessage } from '@/lib/errors';
import { queryKeys } from '@/lib/queries';

const LIST_STALE_MS = 5 * 60_000;

/** Branches for the branch selects; a failure says 'Error fetching branches' (docs/screens.md "Messages and timings"). */
export function useBranches() {
  const q = api.members.listBranches.useQuery({ queryKey: queryKeys.branches, staleTime: LIST_STALE_MS });
  useEffect(() => {
    if (q.isError) toast({ variant: 'destructive', title: 'Error fetching branches', description: errorMessage(q.error) ?? 'Please try again.' });
  }, [q.isError, q.error]);
  return { branches: q.data?.body.data.data ?? [], loading: q.isPending, error: q.isError };
}

/** Positions a member can stand for; a failure says 'Error fetching positions' (docs/screens.md "Messages and timings"). */
export function useCandidatePositions() {
  const q = api.members.listCandidatePositions.useQuery({ queryKey: queryKeys.candidatePositions, staleTime: LIST_STALE_MS });
  useEffect(() => {
    if (q.isError) toast({ variant: 'destructive', title: 'Error fetching positions', description: errorMessage(q.error) });
  }, [q.isError, q.error]);
  return { positions: q.data?.body.data.data ?? [], loading: q.isPending, error: q.isError };
}
